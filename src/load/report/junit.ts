/** JUnit XML: one testcase per threshold, with the measured value and the clause as a property. */
import type { Results } from './schema.js';

const esc = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export function junit(r: Results): string {
  const failures = r.thresholds.filter((t) => !t.ok).length;
  const cases = r.thresholds.map((t) => {
    const name = `${t.clauses.join(' ')} ${t.selector} ${t.source}`.trim();
    const measured = `measured ${t.measured} (${t.source})`;
    const props = t.clauses.map((c) => `      <property name="clause" value="${esc(c)}"/>`).join('\n');
    return [
      `    <testcase classname="load.${esc(r.scenario)}" name="${esc(name)}" time="0">`,
      `      <properties>\n${props}\n      <property name="measured" value="${t.measured}"/>\n      </properties>`,
      t.ok
        ? ''
        : `      <failure message="${esc(`${t.selector}: ${measured}`)}" type="threshold">${esc(`${t.selector} ${t.source} was not met: ${measured}`)}</failure>`,
      `      <system-out>${esc(`${t.selector} ${t.source}: ${measured}, ${t.ok ? 'met' : 'breached'}`)}</system-out>`,
      '    </testcase>',
    ]
      .filter(Boolean)
      .join('\n');
  });
  const s = r.search;
  // The search's figure is a measurement, not a verdict: its case fails only when the search could not run (an engine error).
  if (s) {
    const props = [
      ['figure', s.figure],
      ['slo_p95_ms', s.slo.p95Ms],
      ['slo_error_pct', s.slo.errorPct],
      ['broke_at', s.brokeAt ?? ''],
      ['cause', s.cause ?? ''],
      ['stopped_by', s.stoppedBy],
      ['steps', s.steps.length],
    ]
      .map(([k, v]) => `      <property name="${k}" value="${esc(String(v))}"/>`)
      .join('\n');
    cases.push(
      [
        `    <testcase classname="load.${esc(r.scenario)}" name="capacity search: ${s.figure} it/s within the SLO" time="${(s.durationMs / 1000).toFixed(3)}">`,
        `      <properties>\n${props}\n      </properties>`,
        s.stoppedBy === 'engine-error' ? `      <failure message="${esc(s.why)}" type="engine"/>` : '',
        `      <system-out>${esc(s.why)}</system-out>`,
        '    </testcase>',
      ]
        .filter(Boolean)
        .join('\n'),
    );
  }
  const tests = cases.length,
    failing = failures + (s?.stoppedBy === 'engine-error' ? 1 : 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance load" tests="${tests}" failures="${failing}" time="${(r.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="load ${esc(r.scenario)} (${esc(r.engine)})" tests="${tests}" failures="${failing}" errors="0" skipped="0" time="${(r.durationMs / 1000).toFixed(3)}" timestamp="${esc(r.startedAt)}">`,
    `    <properties>\n      <property name="engine" value="${esc(r.engine)}"/>\n      <property name="instances" value="${r.instances}"/>\n    </properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

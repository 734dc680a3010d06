/** JUnit XML: one testcase per threshold, with the measured value and the clause as a property. */
import type { Results } from './schema.js';

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export function junit(r: Results): string {
  const failures = r.thresholds.filter((t) => !t.ok).length;
  const cases = r.thresholds.map((t) => {
    const name = `${t.clauses.join(' ')} ${t.selector} ${t.source}`.trim();
    const measured = `measured ${t.measured} (${t.source})`;
    const props = t.clauses.map((c) => `      <property name="clause" value="${esc(c)}"/>`).join('\n');
    return [
      `    <testcase classname="load.${esc(r.scenario)}" name="${esc(name)}" time="0">`,
      `      <properties>\n${props}\n      <property name="measured" value="${t.measured}"/>\n      </properties>`,
      t.ok ? '' : `      <failure message="${esc(`${t.selector}: ${measured}`)}" type="threshold">${esc(`${t.selector} ${t.source} was not met: ${measured}`)}</failure>`,
      `      <system-out>${esc(`${t.selector} ${t.source}: ${measured}, ${t.ok ? 'met' : 'breached'}`)}</system-out>`,
      '    </testcase>',
    ].filter(Boolean).join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance load" tests="${r.thresholds.length}" failures="${failures}" time="${(r.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="load ${esc(r.scenario)} (${esc(r.engine)})" tests="${r.thresholds.length}" failures="${failures}" errors="0" skipped="0" time="${(r.durationMs / 1000).toFixed(3)}" timestamp="${esc(r.startedAt)}">`,
    `    <properties>\n      <property name="engine" value="${esc(r.engine)}"/>\n      <property name="instances" value="${r.instances}"/>\n    </properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * JUnit XML for CI dashboards, valid against the Jenkins xunit-plugin's junit-10.xsd
 * (vendored in fixtures/junit/). Playwright's own JUnit reporter has no "error" outcome and
 * writes attributes and per-testcase <properties> that schema does not allow, so we write
 * our own. A check the harness could not decide is an <error>, a broken clause a <failure>.
 *
 * junit-10.xsd gives properties to suites only, so checks are grouped in one <testsuite>
 * per clause and basis: its <property> elements (clause, basis, source, text) are those of
 * every <testcase> in it. Failing and erroring checks carry their redacted transcript and
 * curl reproducer in <system-out>.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { redactText } from '../client/redact.js';
import { CLAUSES, isClauseId, clause as clauseOf } from '../spec/index.js';
import { attachmentText, collect } from './collect.js';
import { applyVacuousGuard } from './outcomes.js';
import { identity } from '../spec/identity.js';
import type { Results, RunError, TestResultT } from './results-schema.js';
import { harnessEnv } from '../common/harness-env.js';

const JUNIT_CASES_FILE = 'junit-cases.json';

const SYSTEM_OUT_MAX = 16_000;

// XML 1.0 allows tab, newline, carriage return and everything from U+0020 up (bar surrogates and U+FFFE/F).
const INVALID_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd]/gu;
export const xml = (s: string) => s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const secs = (ms: number) => (ms / 1000).toFixed(3);

interface Case { t: TestResultT; out?: string }

function suiteKey(t: TestResultT): string {
  return t.clause ? `${t.clause}${t.basis === 'compat' ? ' (compat)' : ''}` : '(no clause)';
}

function caseXml({ t, out }: Case): string {
  const first = (t.message ?? '').split('\n')[0]!.slice(0, 500);
  const kind = t.cause ?? 'undecided';
  // A failure the baseline forgives is no failure of the run: skipped, its entry and original message kept.
  const body = t.outcome === 'fail' && t.baseline ? `<skipped message="${xml(`baseline: ${t.baseline} — ${first}`.slice(0, 1000))}"/>`
    : t.outcome === 'fail' ? `<failure type="fail" message="${xml(first)}">${xml(t.message ?? '')}</failure>`
    : t.outcome === 'error' ? `<error type="${xml(kind)}" message="${xml(first)}">${xml(t.message ?? '')}</error>`
      : t.outcome === 'skip' ? `<skipped message="${xml(t.message ?? 'skipped')}"/>` : '';
  const sysout = out ? `<system-out>${xml(out)}</system-out>` : '';
  return `    <testcase name="${xml(t.title)}" classname="${xml(t.file)}" time="${secs(t.durationMs)}">${body}${sysout}</testcase>`;
}

/** The judge and what the target was held to, on every suite (junit-10.xsd gives properties to suites only). */
function judgeProps(info: RunInfo): [string, string][] {
  const i = identity();
  return [['harness.version', i.version], ['spec.revision', i.specRevision], ['clauses.hash', i.clauseTableHash], ['held.release', info.apiVersion ?? '?'], ['held.edition', info.edition ?? '?']];
}

const propsXml = (props: [string, string][]) => ['    <properties>', ...props.map(([n, v]) => `      <property name="${n}" value="${xml(v)}"/>`), '    </properties>'];

/** Run errors as one suite of errored cases, so a CI dashboard shows why the run did not judge everything. */
function runErrorsSuite(runErrors: readonly RunError[], startedAt: string, judge: [string, string][]): string[] {
  if (!runErrors.length) return [];
  return [
    `  <testsuite name="run errors" tests="${runErrors.length}" failures="0" errors="${runErrors.length}" skipped="0" time="0.000" timestamp="${xml(startedAt)}">`,
    ...propsXml(judge),
    ...runErrors.map((e, i) => `    <testcase name="${xml(`run error ${i + 1}${e.phase ? ` (${e.phase})` : ''}`)}" classname="conformance" time="0.000"><error type="run-error" message="${xml(e.reason.slice(0, 500))}">${xml(e.reason)}</error></testcase>`),
    '  </testsuite>',
  ];
}

/** Stale baseline entries as failed cases, when they fail the run. */
function staleSuite(stale: readonly string[], file: string, startedAt: string, judge: [string, string][]): string[] {
  if (!stale.length) return [];
  return [
    `  <testsuite name="baseline" tests="${stale.length}" failures="${stale.length}" errors="0" skipped="0" time="0.000" timestamp="${xml(startedAt)}">`,
    ...propsXml(judge),
    ...stale.map((e) => `    <testcase name="${xml(`stale baseline entry: ${e}`)}" classname="baseline" time="0.000"><failure type="stale-baseline" message="${xml(`stale baseline entry: remove "${e}" from ${file} (it passes now)`.slice(0, 1000))}"/></testcase>`),
    '  </testsuite>',
  ];
}

export function junitXml(cases: Case[], info: RunInfo & { startedAt: string }, runErrors: readonly RunError[] = [], stale: { entries: readonly string[]; file: string } = { entries: [], file: '' }): string {
  const { startedAt } = info;
  const judge = judgeProps(info);
  const groups = new Map<string, Case[]>();
  const order = (k: string) => { const i = CLAUSES.findIndex((c) => c.id === k.split(' ')[0]); return i < 0 ? CLAUSES.length : i; };
  for (const c of cases) groups.set(suiteKey(c.t), [...(groups.get(suiteKey(c.t)) ?? []), c]);
  const count = (cs: Case[], o: string) => cs.filter((c) => (c.t.outcome === 'fail' && c.t.baseline ? 'skip' : c.t.outcome) === o).length;
  const time = (cs: Case[]) => secs(cs.reduce((n, c) => n + c.t.durationMs, 0));
  const suites = [...groups.entries()].sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b)).map(([key, cs]) => {
    const t = cs[0]!.t;
    const props: [string, string][] = t.clause && isClauseId(t.clause)
      ? [['clause', t.clause], ['basis', t.basis ?? 'spec'], ['source', `§${clauseOf(t.clause).source}`], ['text', clauseOf(t.clause).text]]
      : [];
    // Assertion warnings (evidence only inferred) are no failures: counted, and each named, as properties.
    const warned = cs.flatMap((c) => (c.t.assertionWarnings ?? []).map((w) => `${c.t.title}: ${w.message.split('\n')[0]!.slice(0, 300)}${w.exchange ? ` [${w.exchange}]` : ''}`));
    props.push(['assertion.warnings', String(warned.length)], ...warned.map((w): [string, string] => ['assertion.warning', w]));
    return [
      `  <testsuite name="${xml(key)}" tests="${cs.length}" failures="${count(cs, 'fail')}" errors="${count(cs, 'error')}" skipped="${count(cs, 'skip')}" time="${time(cs)}" timestamp="${xml(startedAt)}">`,
      ...propsXml([...props, ...judge]),
      ...cs.map(caseXml),
      '  </testsuite>',
    ].join('\n');
  });
  const all = cases;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suitesName(info))}" tests="${all.length + runErrors.length + stale.entries.length}" failures="${count(all, 'fail') + stale.entries.length}" errors="${count(all, 'error') + runErrors.length}" time="${time(all)}">`,
    ...suites,
    ...runErrorsSuite(runErrors, startedAt, judge),
    ...staleSuite(stale.entries, stale.file, startedAt, judge),
    '</testsuites>',
    '',
  ].join('\n');
}

export default class JUnitReporter implements Reporter {
  private readonly cases: Case[] = [];
  private readonly started = new Date().toISOString();

  constructor(private readonly options: { outputFile?: string } = {}) {}

  printsToStdio() {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const t = { ...collect(test, result), id: test.id };
    let out: string | undefined;
    if (t.outcome === 'fail' || t.outcome === 'error') {
      const parts = [attachmentText(result, 'requests and responses'), attachmentText(result, 'curl reproducer')].filter(Boolean);
      if (parts.length) out = redactText(parts.join('\n\n')).slice(0, SYSTEM_OUT_MAX);
    }
    this.cases.push({ t, out });
  }

  onEnd(_result: FullResult): void {
    applyVacuousGuard(this.cases.map((c) => c.t));
    const info = harnessEnv('runInfo') as RunInfo;
    const file = this.options.outputFile ?? 'junit.xml';
    mkdirSync(dirname(file), { recursive: true });
    // Kept in the run's work folder: `finish` writes the XML again once it knows the run's own errors.
    const work = harnessEnv('mergeWork');
    if (work) writeFileSync(join(work, JUNIT_CASES_FILE), JSON.stringify(this.cases), { mode: 0o600 });
    writeFileSync(file, junitXml(this.cases, { ...info, startedAt: info.startedAt ?? this.started }));
  }
}

interface RunInfo { startedAt?: string; target?: string; apiVersion?: string; edition?: string }

export const suitesName = (info: RunInfo) => `conformance${info.target ? ` of ${info.target}` : ''}${info.apiVersion ? ` held to ${info.apiVersion} ${info.edition ?? ''}`.trimEnd() : ''}`;

/**
 * The JUnit XML of a finished run, from its final results — baseline applied, run errors and
 * stale entries included — so it says what the exit code says; the transcripts are those the
 * merge saw, by check id.
 */
export function writeJunit(file: string, workDir: string, r: Results, staleFails: boolean): void {
  const out = new Map<string, string>();
  try {
    for (const c of JSON.parse(readFileSync(join(workDir, JUNIT_CASES_FILE), 'utf8')) as Case[]) if (c.t.id && c.out) out.set(c.t.id, c.out);
  } catch { /* no check ran */ }
  const cases = r.tests.map((t) => ({ t, out: t.id ? out.get(t.id) : undefined }));
  mkdirSync(dirname(file), { recursive: true });
  const stale = staleFails && r.baseline ? { entries: r.baseline.stale, file: r.baseline.file } : undefined;
  writeFileSync(file, junitXml(cases, r.run, r.runErrors, stale));
}

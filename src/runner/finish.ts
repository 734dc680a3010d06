/**
 * The end of a run: read the merged results (or start from none), add what only the runner
 * knows — phases that broke, clauses the selection asked for that no check covered, an
 * interruption — apply the baseline, write results.json, clauses.md (also to
 * $GITHUB_STEP_SUMMARY), junit.xml and the HTML front page, scrub what slipped through,
 * print the terminal summary and decide the exit code:
 * 0 nothing failed (skips allowed); 1 a check failed (a new failure, with a baseline);
 * 2 the run did not judge all it was asked to (run errors: a broken phase, a crashed worker,
 * a suite that did not load, a selected clause not covered, nothing selected, interrupted),
 * the account was left changed, or checks the harness could not decide and no failure.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { clausesMarkdown } from '../reports/clauses-md.js';
import { writeFrontPage } from '../reports/front-page.js';
import { writeJunit } from '../reports/junit-reporter.js';
import { clauseTable } from '../reports/outcomes.js';
import { Results, RESULTS_SCHEMA_VERSION, type RunError } from '../reports/results-schema.js';
import { identity } from '../spec/identity.js';
import type { StateWarning } from '../harness/outcome.js';
import { CLAUSES } from '../spec/index.js';
import { applyBaseline, readBaseline, writeBaseline } from './baseline.js';
import type { RunOptions } from './options.js';
import { scrubSecrets } from './scrub.js';

export interface RunOutcome {
  exitCode: number;
  reportDir: string;
  results?: Results;
}
export type Timings = [string, number][];
/** A Playwright phase as the runner saw it end. */
export interface PhaseEnd {
  phase: string;
  /** The Playwright projects it ran, when more than the one its name says (both phases in one process). */
  projects?: readonly string[];
  exitCode: number;
  /** Why it did not run, when its process could not be started. */ error?: string;
}
export type RunInfo = Omit<Results['run'], 'durationMs'>;

const log = (s: string) => process.stderr.write(`${s}\n`);
/** The run error of a failed preflight: the run stopped before any check. */
const PREFLIGHT = 'preflight';

function exitCodeOf(r: Results, newFailures: readonly string[], staleFails: boolean, interrupted: boolean): number {
  if (interrupted || r.runErrors.length || r.warnings.some((w) => w.accountChanged)) return 2;
  if (newFailures.length || staleFails) return 1;
  return r.totals.error ? 2 : 0;
}

/** What the phases' exit codes say beyond the checks: Playwright ends 0 (all passed) or 1 (a check did not pass), nothing else. */
function phaseErrors(r: Results, phases: readonly PhaseEnd[]): RunError[] {
  const out: RunError[] = [];
  for (const p of phases) {
    const projects = p.projects ?? [p.phase];
    // A check a hard assertion warning stopped is Playwright's failure, and the harness's pass with a warning.
    const notPassed = r.tests.filter(
      (t) =>
        projects.includes(t.project) &&
        (t.outcome === 'fail' || (t.outcome === 'error' && t.cause !== 'vacuous-pass') || t.assertionWarnings?.length),
    ).length;
    if (p.error) out.push({ phase: p.phase, reason: `the ${p.phase} phase did not run: ${p.error}` });
    else if (p.exitCode !== 0 && p.exitCode !== 1)
      out.push({
        phase: p.phase,
        reason: `the ${p.phase} phase ended with exit code ${p.exitCode} (the test runner broke or was killed)`,
      });
    else if (p.exitCode === 1 && notPassed === 0 && r.runErrors.length === 0)
      out.push({
        phase: p.phase,
        reason: `the ${p.phase} phase ended with exit code 1 although every check of it passed or was skipped`,
      });
  }
  return out;
}

/** Selected clauses that no check covered: the run was asked to judge them and did not. */
function uncoveredErrors(r: Results, selected: readonly string[]): RunError[] {
  return r.clauses
    .filter((c) => selected.includes(c.id) && c.outcome === 'not covered')
    .map((c) => ({ reason: `clause ${c.id} was selected but no check of it ran (not covered)` }));
}

function emptyResults(info: RunInfo): Results {
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: identity(),
    run: { ...info, durationMs: Date.now() - Date.parse(info.startedAt) },
    totals: { pass: 0, fail: 0, skip: 0, error: 0, tests: 0, assertionWarnings: 0 },
    runErrors: [],
    warnings: [],
    clauses: clauseTable([]),
    tests: [],
  };
}

/** Clause IDs with their count of checks of one outcome: "ROUTE-2 (2), SHAPE-1 (1)". */
function byClause(r: Results, outcome: 'fail' | 'error'): string {
  const n = new Map<string, number>();
  for (const t of r.tests) if (t.outcome === outcome) n.set(t.clause ?? t.title, (n.get(t.clause ?? t.title) ?? 0) + 1);
  const rank = (c: string) => {
    const i = CLAUSES.findIndex((x) => x.id === c);
    return i < 0 ? CLAUSES.length : i;
  };
  return [...n]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([c, k]) => `${c} (${k})`)
    .join(', ');
}

/** Checks with assertion warnings, with their count and first message. */
function assertionWarningsByCheck(r: Results): string {
  return r.tests
    .filter((t) => t.assertionWarnings?.length)
    .map(
      (t) =>
        `${t.title.split(' ')[0]} (${t.assertionWarnings!.length}: ${t.assertionWarnings![0]!.message.split('\n')[0]!.slice(0, 160)})`,
    )
    .join('; ');
}

function verdictOf(r: Results, exitCode: number, interrupted = false): string {
  if (interrupted) return 'INTERRUPTED';
  if (r.runErrors.some((e) => e.phase === PREFLIGHT)) return 'NOT STARTED (preflight failed)';
  if (r.runErrors.length) return 'INCOMPLETE (run errors)';
  if (exitCode === 0) return r.baseline?.known.length ? 'PASSED (known failures only)' : 'PASSED';
  if (exitCode === 1) return r.baseline && !r.baseline.new.length ? 'FAILED (stale baseline entries)' : 'FAILED';
  if (r.warnings.some((w) => w.accountChanged))
    return r.totals.fail ? 'FAILED (account left changed)' : 'ACCOUNT LEFT CHANGED';
  return r.totals.fail ? 'FAILED (and undecided checks)' : 'UNDECIDED (harness errors)';
}

/** What changed since the harness version a baseline was written with (none when it is this version's). */
function baselineUpgradeLines(b: NonNullable<Results['baseline']>): string[] {
  const out: string[] = [];
  const mapped = Object.entries(b.mapped ?? {});
  if (mapped.length)
    out.push(
      `baseline of harness ${b.harnessVersion}: clauses renamed or split since — ${mapped.map(([o, n]) => `${o} → ${n.join(', ')}`).join('; ')}`,
    );
  const since = b.newSince;
  const newFailing = since ? b.new.filter((id) => since.clauses.includes(id)) : [];
  if (since?.clauses.length)
    out.push(
      `new since the baseline's harness ${b.harnessVersion}: clauses ${since.clauses.join(', ')}${newFailing.length ? ` — of the new failures, ${newFailing.join(', ')} did not exist then` : ''}`,
    );
  if (since?.checks?.length)
    out.push(
      `new since the baseline: ${since.checks.length} check(s) it did not list, e.g. ${since.checks.slice(0, 3).join('; ')}`,
    );
  return out;
}

/** The baseline's lines of the summary: counts, each clause entry's reach, and each stale entry to remove. */
function baselineLines(b: NonNullable<Results['baseline']>, allowStale: boolean): string[] {
  const knownChecks = b.entries.reduce((n, e) => n + e.forgives, 0);
  const lines = [
    `baseline: ${knownChecks} known and ${b.newChecks.length} new failing check(s); clauses ${b.known.length} known [${b.known.join(', ')}], ${b.new.length} new [${b.new.join(', ')}], ${b.fixed.length} fixed [${b.fixed.join(', ')}]`,
    ...b.newChecks.slice(0, 10).map((t) => `new failure: ${t}`),
  ];
  for (const e of b.entries.filter((x) => x.kind === 'clause' && x.forgives))
    lines.push(
      `baseline: clause entry ${e.entry} forgives ${e.forgives} failing check(s) — name them to forgive no more`,
    );
  for (const s of b.stale)
    lines.push(
      `${allowStale ? 'stale baseline entry (allowed)' : 'stale baseline entry'}: remove "${s}" from ${b.file} (it passes now)`,
    );
  return lines;
}

function summaryLines(
  r: Results,
  exitCode: number,
  reportDir: string,
  timings: Timings,
  o: Pick<RunOptions, 'html' | 'allowStaleBaseline'>,
  interrupted = false,
): string[] {
  const t = r.totals;
  const rel = relative(process.cwd(), reportDir) || '.';
  const where = `  reports: ${rel.startsWith('..') ? reportDir : rel}/ (clauses.md, results.json, junit.xml${o.html ? ', html/index.html' : ''})`;
  const pre = r.runErrors.find((e) => e.phase === PREFLIGHT);
  if (pre) return [`conformance: ${pre.reason}`, where];
  const lines = [
    `conformance: ${verdictOf(r, exitCode, interrupted)} — ${t.pass} passed, ${t.fail} failed, ${t.error} errors, ${t.skip} skipped (${t.tests} checks), ${t.assertionWarnings} assertion warning${t.assertionWarnings === 1 ? '' : 's'}${r.run.strict ? ' (--strict)' : ''}`,
  ];
  for (const e of r.runErrors) lines.push(`  run error${e.phase ? ` (${e.phase})` : ''}: ${e.reason}`);
  if (t.fail) lines.push(`  failed (the target breaks the clause): ${byClause(r, 'fail')}`);
  if (t.error) lines.push(`  errors (the harness could not decide): ${byClause(r, 'error')}`);
  if (t.assertionWarnings)
    lines.push(
      `  assertion warnings (evidence only inferred: not failures; --strict fails them): ${assertionWarningsByCheck(r)}`,
    );
  for (const w of r.warnings)
    lines.push(`  warning: ${w.check}: ${w.what}${w.accountChanged ? ' — the account was left changed' : ''}`);
  const b = r.baseline;
  if (b) lines.push(...baselineLines(b, o.allowStaleBaseline).map((l) => `  ${l}`));
  if (b) lines.push(...baselineUpgradeLines(b).map((l) => `  ${l}`));
  const uncovered = r.clauses.filter((c) => c.outcome === 'not covered').length;
  if (uncovered) lines.push(`  not covered by any selected check: ${uncovered} of ${r.clauses.length} clauses`);
  if (r.run.limits)
    lines.push(
      `  rate limits held to: ${Object.entries(r.run.limits.values)
        .map(([k, v]) => `${k} ${v ?? 'unlimited'}`)
        .join(', ')} (${r.run.limits.source})`,
    );
  lines.push(where);
  if (timings.length) lines.push(`  time: ${timings.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
  return lines;
}

/** What `--write-baseline` did to the file, said once. */
function baselineWritten(file: string, c: ReturnType<typeof writeBaseline>): void {
  const parts = [
    c.added.length ? `added ${c.added.length}` : '',
    c.removed.length ? `removed ${c.removed.length} stale (${c.removed.join('; ')})` : '',
  ].filter(Boolean);
  log(`conformance: baseline ${file}: ${parts.join(', ') || 'unchanged'}`);
  if (c.refused.length)
    log(
      `conformance: baseline ${file}: ${c.refused.length} new failure(s) not added (${c.refused.slice(0, 3).join('; ')}${c.refused.length > 3 ? '; …' : ''}) — add them with --update-baseline`,
    );
}

interface FinishInput {
  o: RunOptions;
  reportDir: string;
  workDir: string;
  info: RunInfo;
  interrupted: boolean;
  timings: Timings;
  phases: readonly PhaseEnd[];
  /** What the runner itself could not put back (its table sweep). */
  warnings?: readonly StateWarning[];
  /** The preflight's failure: no check ran. */
  preflight?: string;
  /** Why the merge of the phases' reports failed, when it did: the reports then miss checks that ran. */
  mergeError?: string;
}

export function finish(p: FinishInput): RunOutcome {
  const { o, reportDir, interrupted, timings } = p;
  const file = join(reportDir, 'results.json');
  const results = existsSync(file) ? Results.parse(JSON.parse(readFileSync(file, 'utf8'))) : emptyResults(p.info);
  results.run = { ...results.run, ...p.info, durationMs: Date.now() - Date.parse(p.info.startedAt) };
  results.runErrors.push(...phaseErrors(results, p.phases));
  if (p.mergeError) results.runErrors.push({ reason: p.mergeError });
  results.warnings.push(...(p.warnings ?? []));
  if (p.preflight)
    results.runErrors.push({ phase: PREFLIGHT, reason: `preflight failed, no check ran: ${p.preflight}` });
  else if (interrupted)
    results.runErrors.push({
      reason: 'the run was interrupted (SIGINT/SIGTERM): the reports cover the checks that finished',
    });
  else if (results.totals.tests === 0 && results.runErrors.length === 0)
    results.runErrors.push({ reason: 'no check matches the selection (--clauses/--grep): nothing was judged' });
  else results.runErrors.push(...uncoveredErrors(results, p.info.selected ?? []));
  const judged = o.baseline
    ? applyBaseline(results, readBaseline(o.baseline))
    : { newFailures: results.tests.filter((t) => t.outcome === 'fail').map((t) => t.title), stale: [] };
  const exitCode = exitCodeOf(
    results,
    judged.newFailures,
    judged.stale.length > 0 && !o.allowStaleBaseline,
    interrupted,
  );
  // One verdict: every report below is written from these results, the exit code among them.
  results.verdict = { exitCode, text: verdictOf(results, exitCode, interrupted) };
  writeFileSync(file, JSON.stringify(results, null, 2));
  if (o.writeBaseline) baselineWritten(o.writeBaseline, writeBaseline(o.writeBaseline, results, o.updateBaseline));
  const md = clausesMarkdown(results);
  writeFileSync(join(reportDir, 'clauses.md'), md);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, md);
  writeJunit(join(reportDir, 'junit.xml'), p.workDir, results, !o.allowStaleBaseline);
  if (o.html) writeFrontPage(reportDir, results, p.workDir);
  scrubSecrets(reportDir);
  for (const line of summaryLines(results, exitCode, reportDir, timings, o, interrupted)) log(line);
  return { exitCode, reportDir, results };
}

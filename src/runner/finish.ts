/**
 * The end of a run: read the merged results, apply the baseline, write the final
 * results.json and clauses.md (also to $GITHUB_STEP_SUMMARY), scrub what slipped through,
 * print the terminal summary — failures and errors apart — and decide the exit code:
 * 0 nothing failed (skips allowed), 1 a check failed (a new failure, with a baseline),
 * 2 a harness error: interrupted, no results, no check selected, or checks the harness
 * could not decide.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { clausesMarkdown } from '../reports/clauses-md.js';
import { Results } from '../reports/results-schema.js';
import { CLAUSES } from '../spec/index.js';
import { applyBaseline } from './baseline.js';
import type { RunOptions } from './options.js';
import { scrubSecrets } from './scrub.js';

export interface RunOutcome { exitCode: number; reportDir: string; results?: Results }
export type Timings = [string, number][];

const log = (s: string) => process.stderr.write(`${s}\n`);

export function exitCodeOf(r: Results, newFailures: readonly string[], interrupted: boolean): number {
  if (interrupted) return 2;
  if (newFailures.length) return 1;
  return r.totals.error ? 2 : 0;
}

/** Clause IDs with their count of checks of one outcome: "ROUTE-2 (2), SHAPE-1 (1)". */
function byClause(r: Results, outcome: 'fail' | 'error'): string {
  const n = new Map<string, number>();
  for (const t of r.tests) if (t.outcome === outcome) n.set(t.clause ?? t.title, (n.get(t.clause ?? t.title) ?? 0) + 1);
  const rank = (c: string) => { const i = CLAUSES.findIndex((x) => x.id === c); return i < 0 ? CLAUSES.length : i; };
  return [...n].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)).map(([c, k]) => `${c} (${k})`).join(', ');
}

export function summaryLines(r: Results, exitCode: number, reportDir: string, timings: Timings, interrupted = false): string[] {
  const t = r.totals;
  const verdict = interrupted ? 'INTERRUPTED' : exitCode === 0 ? 'PASSED' : exitCode === 1 ? 'FAILED' : t.fail ? 'FAILED (and undecided checks)' : 'UNDECIDED (harness errors)';
  const lines = [`conformance: ${verdict} — ${t.pass} passed, ${t.fail} failed, ${t.error} errors, ${t.skip} skipped (${t.tests} checks)`];
  if (t.fail) lines.push(`  failed (the target breaks the clause): ${byClause(r, 'fail')}`);
  if (t.error) lines.push(`  errors (the harness could not decide): ${byClause(r, 'error')}`);
  const b = r.baseline;
  if (b) lines.push(`  baseline: ${b.known.length} known [${b.known.join(', ')}], ${b.new.length} new [${b.new.join(', ')}], ${b.fixed.length} fixed [${b.fixed.join(', ')}]${b.fixed.length ? ' — remove the fixed ones from the baseline' : ''}`);
  const uncovered = r.clauses.filter((c) => c.outcome === 'not covered').length;
  if (uncovered) lines.push(`  not covered by any selected check: ${uncovered} of ${r.clauses.length} clauses`);
  const rel = relative(process.cwd(), reportDir) || '.';
  lines.push(`  reports: ${rel.startsWith('..') ? reportDir : rel}/ (clauses.md, results.json, junit.xml, html/index.html)`);
  if (timings.length) lines.push(`  time: ${timings.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
  return lines;
}

export function finish(p: { o: RunOptions; reportDir: string; interrupted: boolean; timings: Timings; ranPhases: boolean }): RunOutcome {
  const { o, reportDir, interrupted, timings } = p;
  const file = join(reportDir, 'results.json');
  if (!existsSync(file)) {
    log(p.ranPhases ? 'conformance: no results were produced (the test runner failed to start?)' : 'conformance: no check matches the selection (--clauses/--grep): nothing was judged');
    return { exitCode: 2, reportDir };
  }
  const results = Results.parse(JSON.parse(readFileSync(file, 'utf8')));
  if (results.totals.tests === 0 && !interrupted) {
    log('conformance: no check matches the selection (--clauses/--grep): nothing was judged');
    return { exitCode: 2, reportDir, results };
  }
  const newFailures = o.baseline ? applyBaseline(results, o.baseline) : results.clauses.filter((c) => c.outcome === 'fail').map((c) => c.id);
  writeFileSync(file, JSON.stringify(results, null, 2));
  const md = clausesMarkdown(results);
  writeFileSync(join(reportDir, 'clauses.md'), md);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, md);
  scrubSecrets(reportDir);
  const exitCode = exitCodeOf(results, newFailures, interrupted);
  for (const line of summaryLines(results, exitCode, reportDir, timings, interrupted)) log(line);
  if (interrupted) log('conformance: the run was interrupted: the reports cover the checks that finished');
  return { exitCode, reportDir, results };
}

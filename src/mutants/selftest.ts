/**
 * `conformance selftest`: the suites judged by known-good and known-bad targets. Clean runs
 * (the reference server as specified, self-hosted and cloud, plus any edition/release a
 * mutant needs) must pass everything; each mutant of the catalog must fail its clause and
 * nothing else. Runs go through a bounded pool of child `conformance run`s, each against
 * its own embedded servers (own ports, so per-IP rate keys never collide across runs).
 *
 * Speed: the clean runs record which check reaches which fault switch (coverage.ts); a
 * mutant then runs only the checks that reach its faults, and every other check keeps its
 * clean verdict. `full: true` runs every check against every mutant instead.
 */
import { join } from 'node:path';
import type { Results } from '../reports/results-schema.js';
import { NEWEST_VERSION, type Edition } from '../spec/index.js';
import type { Mutant } from './catalog.js';
import { runConformance, type RunResult } from './child-run.js';
import { grepForTitles, sharedStateFiles, type Coverage } from './coverage.js';
import { clausesOf, planRun, pool, readCoverage } from './plan.js';
import { judgeClean, judgeMutant, mergeResults, type CleanVerdict, type MutantVerdict } from './verdict.js';

interface SelftestOptions {
  mutants: readonly Mutant[];
  parallel: number;
  workers: number;
  window: number;
  runTimeoutMs: number;
  reportDir: string;
  /** Run the clean targets (default); without them there is no coverage either, so mutants run in full. */
  clean: boolean;
  /** A `--mutants` subset: only the clean runs its mutants need. */
  subset: boolean;
  /** Every check against every mutant (no coverage selection). */
  full: boolean;
  log: (line: string) => void;
}

interface Combo { edition: Edition; apiVersion: string }
const comboKey = (c: Combo) => `${c.edition}-${c.apiVersion}`;

interface RunInfo { exitCode: number | null; durationMs: number; reportDir: string; problem?: string }
export interface CleanRunReport extends RunInfo, Combo { label: string; verdict: CleanVerdict; checks: number }
export interface MutantReport extends RunInfo, Combo {
  id: string; clause: string; faults: readonly string[]; description: string;
  verdict: MutantVerdict;
  /** Checks run against the mutant: all, or those that reach its faults (with the reason when all). */
  ran: { checks: number | 'all'; why?: string };
  /** The clause's outcome in the clean run of the same edition and release: a survivor whose clause the clean run never passed is a coverage gap. */
  cleanOutcome?: string;
  /** Runs it took: an undecided verdict (timing on a loaded machine) is tried once more. */
  attempts: number;
}

export interface SelftestReport {
  schemaVersion: 1;
  startedAt: string;
  wallMs: number;
  parallel: number;
  workers: number;
  rateWindowSeconds: number;
  selection: 'coverage' | 'full';
  score: { killed: number; total: number };
  clean: CleanRunReport[];
  mutants: MutantReport[];
  survivors: string[];
  collateral: string[];
  ok: boolean;
}

const DEFAULT_COMBOS: Combo[] = [{ edition: 'self-hosted', apiVersion: NEWEST_VERSION }, { edition: 'cloud', apiVersion: NEWEST_VERSION }];

function comboOf(m: Mutant): Combo {
  return { edition: m.serverOptions?.edition ?? 'self-hosted', apiVersion: m.serverOptions?.apiVersion ?? NEWEST_VERSION };
}

const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

interface CleanState { results?: Results; coverage?: Coverage }

const SUITES = join(import.meta.dirname, '..', '..', 'suites');

export async function selftest(o: SelftestOptions): Promise<SelftestReport> {
  const started = Date.now();
  const sharedFiles = sharedStateFiles(SUITES);
  const combos = new Map<string, Combo>();
  // The whole catalog: both default combos; a subset: only the clean runs its mutants need.
  if (o.clean) for (const c of [...(o.subset ? [] : DEFAULT_COMBOS), ...o.mutants.map(comboOf)]) combos.set(comboKey(c), c);
  // Mutants wait for the clean run of their edition and release: its coverage selects their checks.
  const cleanDone = new Map<string, { promise: Promise<CleanState>; resolve: (s: CleanState) => void }>();
  for (const k of combos.keys()) {
    let resolve!: (s: CleanState) => void;
    cleanDone.set(k, { promise: new Promise<CleanState>((r) => { resolve = r; }), resolve });
  }
  type Job = { kind: 'clean'; combo: Combo } | { kind: 'mutant'; mutant: Mutant };
  const jobs: Job[] = [...[...combos.values()].map((combo) => ({ kind: 'clean' as const, combo })), ...o.mutants.map((mutant) => ({ kind: 'mutant' as const, mutant }))];
  const clean: CleanRunReport[] = [];
  const mutants: MutantReport[] = [];
  let done = 0;
  const run = (label: string, faults: readonly string[], combo: Combo, extra: { grep?: string; clauses?: string[]; coverageFile?: string } = {}): Promise<RunResult & { reportDir: string }> => {
    const reportDir = join(o.reportDir, 'runs', label);
    return runConformance({ faults, ...combo, reportDir, logFile: join(o.reportDir, 'logs', `${label}.log`), workers: o.workers, window: o.window, timeoutMs: o.runTimeoutMs, ...extra })
      .then((r) => ({ ...r, reportDir }));
  };

  const cleanJob = async (combo: Combo) => {
    const label = `clean-${comboKey(combo)}`;
    const coverageFile = join(o.reportDir, 'runs', `${label}.coverage.json`);
    const r = await run(label, [], combo, o.full ? {} : { coverageFile });
    let results = r.results;
    let verdict = judgeClean(results);
    let durationMs = r.durationMs;
    // Checks left undecided (timing on a loaded machine) get one more try, alone.
    const undecided = results?.tests.filter((t) => t.outcome === 'error').map((t) => t.title) ?? [];
    if (results && !verdict.ok && verdict.broken.every((b) => b.outcome === 'error') && undecided.length) {
      o.log(`      ${label}: ${undecided.length} undecided check(s) — one more try`);
      const again = await run(`${label}.2`, [], combo, { grep: grepForTitles(undecided), clauses: clausesOf(undecided) });
      durationMs += again.durationMs;
      if (again.results) { results = mergeResults(results, again.results); verdict = judgeClean(results); }
    }
    clean.push({ label, ...combo, exitCode: r.exitCode, durationMs, reportDir: r.reportDir, problem: r.problem, verdict, checks: results?.tests.length ?? 0 });
    cleanDone.get(comboKey(combo))!.resolve({ results, coverage: o.full ? undefined : readCoverage(coverageFile) });
    o.log(`[${++done}/${jobs.length}] ${verdict.ok ? 'clean ok ' : 'CLEAN BROKEN'} ${label} (${secs(durationMs)})${verdict.ok ? '' : `: ${verdict.broken.map((b) => `${b.clause} ${b.outcome}`).join(', ')}`}${r.problem ? ` — ${r.problem}` : ''}`);
  };

  const mutantJob = async (m: Mutant) => {
    const combo = comboOf(m);
    const base = await (cleanDone.get(comboKey(combo))?.promise ?? Promise.resolve<CleanState>({}));
    const { selection, grep, clauses, ran } = planRun(m, o.full ? undefined : base, sharedFiles, o.full ? 'full selftest' : 'no clean coverage');
    const attempt = async (label: string) => {
      const r: RunResult & { reportDir: string } = selection.kind === 'none'
        ? { exitCode: null, durationMs: 0, timedOut: false, results: base.results, reportDir: '' }
        : await run(label, m.faults, combo, { grep, clauses });
      const results = r.results && selection.kind === 'some' && base.results ? mergeResults(base.results, r.results) : r.results;
      return { r, verdict: judgeMutant(m, results, base.results) };
    };
    let { r, verdict } = await attempt(m.id);
    let attempts = 1;
    const spent = r.durationMs;
    if ((verdict.status === 'undecided' || (verdict.status === 'no-results' && !r.timedOut)) && selection.kind !== 'none') {
      o.log(`      ${m.id}: ${verdict.status} — one more try`);
      ({ r, verdict } = await attempt(`${m.id}.2`));
      attempts = 2;
    }
    const total = spent + (attempts > 1 ? r.durationMs : 0);
    mutants.push({ id: m.id, clause: m.clause, faults: m.faults, description: m.description, ...combo, exitCode: r.exitCode, durationMs: total, reportDir: r.reportDir, problem: r.problem, verdict, ran, attempts });
    const extra = verdict.collateral.length ? ` — also broke ${verdict.collateral.map((c) => `${c.clause} (${c.outcome})`).join(', ')}` : '';
    const checks = ran.checks === 'all' ? 'all checks' : `${ran.checks} check(s)`;
    o.log(`[${++done}/${jobs.length}] ${verdict.status.padEnd(9)} ${m.clause} ${m.id} (${checks}, ${secs(total)})${extra}${r.problem ? ` — ${r.problem}` : ''}`);
  };

  await pool(jobs, o.parallel, (job) => (job.kind === 'clean' ? cleanJob(job.combo) : mutantJob(job.mutant)));

  const cleanBy = new Map(clean.map((c) => [comboKey(c), c]));
  for (const m of mutants) m.cleanOutcome = cleanBy.get(comboKey(m))?.verdict.clauses?.[m.clause];
  const order = new Map(o.mutants.map((m, i) => [m.id, i]));
  mutants.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  clean.sort((a, b) => a.label.localeCompare(b.label));
  const killed = mutants.filter((m) => m.verdict.status === 'killed').length;
  const survivors = mutants.filter((m) => m.verdict.status !== 'killed').map((m) => m.id);
  const collateral = mutants.filter((m) => m.verdict.collateral.length).map((m) => m.id);
  return {
    schemaVersion: 1, startedAt: new Date(started).toISOString(), wallMs: Date.now() - started,
    parallel: o.parallel, workers: o.workers, rateWindowSeconds: o.window, selection: o.full || !o.clean ? 'full' : 'coverage',
    score: { killed, total: mutants.length }, clean, mutants, survivors, collateral,
    // A mutant that fails a clause beyond its own and its declared overlaps is a check (or a mutant) that judges too much.
    ok: survivors.length === 0 && collateral.length === 0 && clean.every((c) => c.verdict.ok),
  };
}

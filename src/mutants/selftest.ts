/**
 * `conformance selftest`: the suites judged by known-good and known-bad targets. Clean runs
 * (the reference server as specified, self-hosted and cloud, plus any edition/release a
 * mutant needs) must pass everything; each mutant of the catalog must fail its clause and
 * nothing else. Runs go through a bounded pool of child `conformance run`s, each against
 * its own embedded servers (own ports, so per-IP rate keys never collide across runs).
 *
 * Speed: the clean runs (first) record which check reaches which fault switch (coverage.ts);
 * a mutant then runs only the checks that reach its faults, and every other check keeps its
 * clean verdict; mutants whose checks are disjoint share a run (batch.ts); once a check of a
 * mutant fails, its later checks of that clause are skipped (the runner's --fail-fast-scopes:
 * they would repeat what the first says, at a Playwright worker restart each). `full: true`
 * runs every check against every mutant instead, a run each, every check to its end.
 */
import { join } from 'node:path';
import type { Results } from '../reports/results-schema.js';
import { NEWEST_VERSION, type Edition } from '../spec/index.js';
import { CODE_ROOT } from '../spec/layout.js';
import type { Mutant } from './catalog.js';
import { contamination, decidedInBatch, formBatches, mayShare, memberResults } from './batch.js';
import { runConformance, type RunResult } from './child-run.js';
import { grepForTitles, mergeCoverage, sharedStateFiles, type Coverage } from './coverage.js';
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
  /** Mutants whose checks are disjoint share a run (batch.ts); false: a run each. */
  batch: boolean;
  log: (line: string) => void;
}

interface Combo {
  edition: Edition;
  apiVersion: string;
}
const comboKey = (c: Combo) => `${c.edition}-${c.apiVersion}`;

interface RunInfo {
  exitCode: number | null;
  durationMs: number;
  reportDir: string;
  problem?: string;
}
export interface CleanRunReport extends RunInfo, Combo {
  label: string;
  verdict: CleanVerdict;
  checks: number;
}
export interface MutantReport extends RunInfo, Combo {
  id: string;
  clause: string;
  faults: readonly string[];
  description: string;
  verdict: MutantVerdict;
  /** Checks run against the mutant: all, or those that reach its faults (with the reason when all). */
  ran: { checks: number | 'all'; why?: string };
  /** The clause's outcome in the clean run of the same edition and release: a survivor whose clause the clean run never passed is a coverage gap. */
  cleanOutcome?: string;
  /** Runs it took: an undecided verdict (timing on a loaded machine) is tried once more. */
  attempts: number;
  /** The batched run that judged it (durationMs is that run's), when it shared one. */
  batch?: string;
}

export interface SelftestReport {
  schemaVersion: 1;
  startedAt: string;
  wallMs: number;
  parallel: number;
  workers: number;
  rateWindowSeconds: number;
  selection: 'coverage' | 'full';
  /** `warned`: mutants whose only effect is assertion warnings (counted apart, not survivors). */
  score: { killed: number; warned: number; total: number };
  clean: CleanRunReport[];
  mutants: MutantReport[];
  survivors: string[];
  collateral: string[];
  ok: boolean;
}

const DEFAULT_COMBOS: Combo[] = [
  { edition: 'self-hosted', apiVersion: NEWEST_VERSION },
  { edition: 'cloud', apiVersion: NEWEST_VERSION },
];

function comboOf(m: Mutant): Combo {
  return {
    edition: m.serverOptions?.edition ?? 'self-hosted',
    apiVersion: m.serverOptions?.apiVersion ?? NEWEST_VERSION,
  };
}

const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

interface CleanState {
  results?: Results;
  coverage?: Coverage;
}
interface Planned {
  m: Mutant;
  combo: Combo;
  base: CleanState;
  plan: ReturnType<typeof planRun>;
}

const SUITES = join(CODE_ROOT, 'suites');

/** What the pool runs: a clean run, or the run of one mutant or of a batch of them. */
type Job = { combo: Combo } | { group: Planned[] };

/**
 * The clauses a clean run judges: all at a default combo; at another release or edition only
 * the clauses of the mutants held to it (and those they also fail) — a whole run more would
 * cost the selftest a minute, and those mutants' faults sit in their clauses' operations.
 */
function clausesAt(combo: Combo, mutants: readonly Mutant[]): { clauses?: string[] } {
  if (DEFAULT_COMBOS.some((c) => comboKey(c) === comboKey(combo))) return {};
  return {
    clauses: [
      ...new Set(
        mutants
          .filter((m) => comboKey(comboOf(m)) === comboKey(combo))
          .flatMap((m) => [m.clause, ...(m.alsoFails ?? [])]),
      ),
    ],
  };
}

export async function selftest(o: SelftestOptions): Promise<SelftestReport> {
  const started = Date.now();
  const sharedFiles = sharedStateFiles(SUITES);
  const combos = new Map<string, Combo>();
  // The whole catalog: both default combos; a subset: only the clean runs its mutants need.
  if (o.clean)
    for (const c of [...(o.subset ? [] : DEFAULT_COMBOS), ...o.mutants.map(comboOf)]) combos.set(comboKey(c), c);
  const clean: CleanRunReport[] = [];
  const mutants: MutantReport[] = [];
  const cleanStates = new Map<string, CleanState>();
  let done = 0;
  const total = combos.size + o.mutants.length;
  const run = (
    label: string,
    faults: readonly string[],
    combo: Combo,
    extra: { grep?: string; clauses?: string[]; coverageFile?: string; failFastScopes?: Record<string, string> } = {},
  ): Promise<RunResult & { reportDir: string }> => {
    const reportDir = join(o.reportDir, 'runs', label);
    return runConformance({
      faults,
      ...combo,
      reportDir,
      logFile: join(o.reportDir, 'logs', `${label}.log`),
      workers: o.workers,
      window: o.window,
      timeoutMs: o.runTimeoutMs,
      ...extra,
    }).then((r) => ({ ...r, reportDir }));
  };

  const cleanJob = async (combo: Combo) => {
    const label = `clean-${comboKey(combo)}`;
    const coverageOf = (l: string) => (o.full ? {} : { coverageFile: join(o.reportDir, 'runs', `${l}.coverage.json`) });
    const r = await run(label, [], combo, { ...coverageOf(label), ...clausesAt(combo, o.mutants) });
    const coverage = [coverageOf(label).coverageFile];
    let results = r.results;
    let verdict = judgeClean(results);
    let durationMs = r.durationMs;
    // Checks left undecided (timing on a loaded machine) get one more try, alone.
    const undecided = results?.tests.filter((t) => t.outcome === 'error').map((t) => t.title) ?? [];
    if (results && !verdict.ok && verdict.broken.every((b) => b.outcome === 'error') && undecided.length) {
      o.log(`      ${label}: ${undecided.length} undecided check(s) — one more try`);
      // Its coverage too: a check stopped early (a rate check on a loaded machine) may reach more this time.
      const again = await run(`${label}.2`, [], combo, {
        grep: grepForTitles(undecided),
        clauses: clausesOf(undecided),
        ...coverageOf(`${label}.2`),
      });
      coverage.push(coverageOf(`${label}.2`).coverageFile);
      durationMs += again.durationMs;
      if (again.results) {
        results = mergeResults(results, again.results);
        verdict = judgeClean(results);
      }
    }
    clean.push({
      label,
      ...combo,
      exitCode: r.exitCode,
      durationMs,
      reportDir: r.reportDir,
      problem: r.problem,
      verdict,
      checks: results?.tests.length ?? 0,
    });
    cleanStates.set(comboKey(combo), {
      results,
      coverage: o.full ? undefined : mergeCoverage(coverage.map((f) => (f ? readCoverage(f) : undefined))),
    });
    o.log(
      `[${++done}/${total}] ${verdict.ok ? 'clean ok ' : 'CLEAN BROKEN'} ${label} (${secs(durationMs)})${verdict.ok ? '' : `: ${verdict.broken.map((b) => `${b.clause} ${b.outcome}`).join(', ')}`}${r.problem ? ` — ${r.problem}` : ''}`,
    );
  };
  const report = (p: Planned, r: RunInfo, verdict: MutantVerdict, attempts: number, batch?: string) => {
    mutants.push({
      id: p.m.id,
      clause: p.m.clause,
      faults: p.m.faults,
      description: p.m.description,
      ...p.combo,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      reportDir: r.reportDir,
      problem: r.problem,
      verdict,
      ran: p.plan.ran,
      attempts,
      ...(batch ? { batch } : {}),
    });
    const extra = verdict.collateral.length
      ? ` — also broke ${verdict.collateral.map((c) => `${c.clause} (${c.outcome})`).join(', ')}`
      : '';
    const checks = p.plan.ran.checks === 'all' ? 'all checks' : `${p.plan.ran.checks} check(s)`;
    o.log(
      `[${++done}/${total}] ${verdict.status.padEnd(9)} ${p.m.clause} ${p.m.id} (${checks}, ${batch ? `with ${batch}` : secs(r.durationMs)})${extra}${r.problem ? ` — ${r.problem}` : ''}`,
    );
  };

  /**
   * Each mutant's checks as a scope of its own: its verdict needs, per clause, whether one of
   * its checks failed, so the runner skips the repeats (src/harness/fail-fast.ts). --full runs
   * every check to its end.
   */
  const scopes = (group: readonly Planned[]): Record<string, string> | undefined => {
    if (o.full) return undefined;
    const map: Record<string, string> = {};
    for (const p of group) {
      const titles =
        p.plan.selection.kind === 'some' ? p.plan.selection.titles : (p.base.results?.tests.map((t) => t.title) ?? []);
      for (const t of titles) map[t] = p.m.id;
    }
    return map;
  };

  const solo = async (p: Planned) => {
    const { selection, grep, clauses } = p.plan;
    const attempt = async (label: string) => {
      const r: RunResult & { reportDir: string } =
        selection.kind === 'none'
          ? { exitCode: null, durationMs: 0, timedOut: false, results: p.base.results, reportDir: '' }
          : await run(label, p.m.faults, p.combo, { grep, clauses, failFastScopes: scopes([p]) });
      const results =
        r.results && selection.kind === 'some' && p.base.results ? mergeResults(p.base.results, r.results) : r.results;
      return { r, verdict: judgeMutant(p.m, results, p.base.results) };
    };
    let { r, verdict } = await attempt(p.m.id);
    let attempts = 1;
    const spent = r.durationMs;
    if (
      (verdict.status === 'undecided' || (verdict.status === 'no-results' && !r.timedOut)) &&
      selection.kind !== 'none'
    ) {
      o.log(`      ${p.m.id}: ${verdict.status} — one more try`);
      ({ r, verdict } = await attempt(`${p.m.id}.2`));
      attempts = 2;
    }
    report(p, { ...r, durationMs: spent + (attempts > 1 ? r.durationMs : 0) }, verdict, attempts);
  };

  // Several mutants in one run (batch.ts): a member is kept only with a clean kill (or warning) its own checks decided.
  const together = async (group: Planned[], label: string) => {
    const titles = group.flatMap((p) => (p.plan.selection.kind === 'some' ? p.plan.selection.titles : []));
    const coverageFile = join(o.reportDir, 'runs', `${label}.coverage.json`);
    const r = await run(label, [...new Set(group.flatMap((p) => p.m.faults))], group[0]!.combo, {
      grep: grepForTitles(titles),
      clauses: clausesOf(titles),
      coverageFile,
      failFastScopes: scopes(group),
    });
    const cov = readCoverage(coverageFile);
    const again: Planned[] = [];
    for (const p of group) {
      const own = p.plan.selection.kind === 'some' ? p.plan.selection.titles : [];
      const tainted = contamination(
        cov,
        { faults: p.m.faults, titles: own },
        group.filter((q) => q !== p).map((q) => q.m),
      );
      const verdict =
        r.results && p.base.results
          ? judgeMutant(p.m, memberResults(p.base.results, r.results, own), p.base.results)
          : undefined;
      const clear = verdict && decidedInBatch(verdict, r.results, own);
      if (!tainted && clear) report(p, r, verdict, 1, label);
      else {
        o.log(`      ${p.m.id}: ${tainted ?? `${verdict?.status ?? 'no results'} in ${label}`} — run alone`);
        again.push(p);
      }
    }
    for (const p of again) await solo(p);
  };

  const plan = (m: Mutant): Planned => {
    const combo = comboOf(m);
    const base = cleanStates.get(comboKey(combo)) ?? {};
    return {
      m,
      combo,
      base,
      plan: planRun(m, o.full ? undefined : base, sharedFiles, o.full ? 'full selftest' : 'no clean coverage'),
    };
  };
  /** The runs of these mutants (all of one edition and release, or all without clean runs): batched where they can share one. */
  const jobsOf = (list: readonly Mutant[]): Job[] => {
    const planned = list.map(plan);
    const batchable = planned.filter(
      (p) => o.batch && p.plan.selection.kind === 'some' && p.base.coverage && mayShare(p.m.faults),
    );
    const groups = formBatches(
      batchable.map((p) => ({
        item: p,
        key: comboKey(p.combo),
        faults: p.m.faults,
        titles: p.plan.selection.kind === 'some' ? p.plan.selection.titles : [],
      })),
    ).map((g) => g.map((b) => b.item));
    return [...planned.filter((p) => !batchable.includes(p)).map((p) => [p]), ...groups].map((group) => ({ group }));
  };

  // The clean runs first (their coverage selects each mutant's checks and lets mutants share
  // runs); a clean run that ends queues the runs of its edition and release's mutants at once.
  // Then longest first (every check, then the most checks), so no long run is left for the end.
  const weight = (p: Planned) => (p.plan.ran.checks === 'all' ? Infinity : p.plan.ran.checks);
  const before = (a: Job, b: Job) => {
    if ('combo' in a || 'combo' in b) return Number('combo' in b) - Number('combo' in a);
    return Math.max(...b.group.map(weight)) - Math.max(...a.group.map(weight)) || b.group.length - a.group.length;
  };
  let batches = 0;
  await pool<Job>(
    // Without clean runs there is no coverage: every mutant runs in full, a run each.
    o.clean ? [...combos.values()].map((combo) => ({ combo })) : jobsOf(o.mutants),
    o.parallel,
    async (job, add) => {
      if ('combo' in job) {
        await cleanJob(job.combo);
        add(jobsOf(o.mutants.filter((m) => comboKey(comboOf(m)) === comboKey(job.combo))));
      } else if (job.group.length === 1) await solo(job.group[0]!);
      else await together(job.group, `batch-${++batches}`);
    },
    before,
  );

  const cleanBy = new Map(clean.map((c) => [comboKey(c), c]));
  for (const m of mutants) m.cleanOutcome = cleanBy.get(comboKey(m))?.verdict.clauses?.[m.clause];
  const order = new Map(o.mutants.map((m, i) => [m.id, i]));
  mutants.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  clean.sort((a, b) => a.label.localeCompare(b.label));
  const killed = mutants.filter((m) => m.verdict.status === 'killed').length;
  const warned = mutants.filter((m) => m.verdict.status === 'warned').length;
  const survivors = mutants
    .filter((m) => m.verdict.status !== 'killed' && m.verdict.status !== 'warned')
    .map((m) => m.id);
  const collateral = mutants.filter((m) => m.verdict.collateral.length).map((m) => m.id);
  return {
    schemaVersion: 1,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    parallel: o.parallel,
    workers: o.workers,
    rateWindowSeconds: o.window,
    selection: o.full || !o.clean ? 'full' : 'coverage',
    score: { killed, warned, total: mutants.length },
    clean,
    mutants,
    survivors,
    collateral,
    // A mutant that fails a clause beyond its own and its declared overlaps is a check (or a mutant) that judges too much.
    ok: survivors.length === 0 && collateral.length === 0 && clean.every((c) => c.verdict.ok),
  };
}

/**
 * Mutants run together: one child run whose reference server carries the faults of several
 * mutants, each judged on its own checks only. Sound because the clean run's coverage says
 * which checks reach which fault: mutants whose selected checks are disjoint never meet each
 * other's faults along the clean run's paths. A mutant's faults may still lead a check onto a
 * path the clean run never took; the batched run records coverage too, and a mutant whose
 * checks reached another member's fault there — or whose verdict a run alone might change
 * (decidedInBatch) — is run again alone, so every verdict that counts is the one a run of its
 * own gives.
 */
import type { Results } from '../reports/results-schema.js';
import { readAnywhere, selectChecks, type Coverage } from './coverage.js';
import { SEEN_THROUGH_CACHE, SETUP_INERT, type FaultName } from '../server/faults.js';
import { mergeResults, type MutantVerdict } from './verdict.js';

interface Batchable<T> {
  item: T;
  key: string;
  faults: readonly string[];
  titles: readonly string[];
}

/**
 * Whether a mutant with `faults` may share a run. Not a cache fault: the shared run records
 * coverage, which bypasses the response cache it is seen through. Nor one of the faults whose
 * reach in run setup is inert (SETUP_INERT): which check meets them depends on which one first
 * fetches the worker's base token or in which rate window a call falls, so in a shared run
 * they meet other members' checks at random and send those members to runs of their own.
 */
export const mayShare = (faults: readonly string[]): boolean =>
  !faults.some((f) => SEEN_THROUGH_CACHE.has(f as FaultName) || SETUP_INERT.has(f as FaultName));

/** Bounds of one batch: long runs balance badly over the pool, and a contaminated batch costs its members a second run. */
const MAX_MEMBERS = 12;
const MAX_CHECKS = 150;

/**
 * Greedy packing, largest selection first: a mutant joins the first batch of its edition and
 * release whose checks it shares none of, within the bounds; else it opens one.
 */
export function formBatches<T>(list: readonly Batchable<T>[]): Batchable<T>[][] {
  const batches: { key: string; titles: Set<string>; members: Batchable<T>[] }[] = [];
  for (const b of [...list].sort((x, y) => y.titles.length - x.titles.length)) {
    const home = batches.find(
      (g) =>
        g.key === b.key &&
        g.members.length < MAX_MEMBERS &&
        g.titles.size + b.titles.length <= MAX_CHECKS &&
        b.titles.every((t) => !g.titles.has(t)),
    );
    if (home) {
      home.members.push(b);
      for (const t of b.titles) home.titles.add(t);
    } else batches.push({ key: b.key, titles: new Set(b.titles), members: [b] });
  }
  return batches.map((g) => g.members);
}

/**
 * Why `member`'s checks cannot be judged from the batched run, or undefined when they can:
 * in that run (coverage `cov`) one of them reached another member's fault, or some fault was
 * reached outside any check, or there is no coverage to tell. A fault the run never read
 * contaminates nothing.
 */
export function contamination(
  cov: Coverage | undefined,
  member: { faults: readonly string[]; titles: readonly string[] },
  others: readonly { faults: readonly string[] }[],
): string | undefined {
  if (!cov) return 'the batched run recorded no coverage';
  const mine = new Set(member.titles);
  for (const o of others) {
    // Never read in the shared run (a rate switch read only at a limit nobody reached): it met no check.
    if (!readAnywhere(cov, o.faults)) continue;
    const sel = selectChecks(cov, o.faults);
    if (sel.kind === 'all') return `another member's fault: ${sel.reason}`;
    if (sel.kind === 'some') {
      const met = sel.titles.find((t) => mine.has(t));
      if (met) return `its check "${met}" reached another member's fault (${o.faults.join(', ')})`;
    }
  }
  return undefined;
}

/** The member's view of a batched run: its own checks from the run, every other check as the clean run judged it. */
export function memberResults(clean: Results, batch: Results, titles: readonly string[]): Results {
  const own = new Set(titles);
  return mergeResults(clean, { ...batch, tests: batch.tests.filter((t) => own.has(t.title)) });
}

/**
 * Whether a member's verdict from the shared run stands, or it runs again alone: it must be a
 * kill (or a warning: the mutant's only effect is assertion warnings on its own checks) that
 * fails no other clause, and any of its own checks left undecided must have stopped on a
 * fixture the check could not make — the member's own fault at work (BASE-6's mutants leave
 * SHAPE-8's big-data row unmade), met the same way alone. Another cause (timing, a timeout on a
 * loaded shared run) may turn out otherwise in a run of its own.
 */
export function decidedInBatch(verdict: MutantVerdict, batch: Results | undefined, own: readonly string[]): boolean {
  if (verdict.status !== 'killed' && verdict.status !== 'warned') return false;
  if (verdict.collateral.length) return false;
  if (!verdict.undecidedElsewhere.length) return true;
  const mine = new Set(own);
  const undecided = batch?.tests.filter((t) => t.outcome === 'error' && mine.has(t.title)) ?? [];
  return undecided.length > 0 && undecided.every((t) => t.cause === 'fixture');
}

/**
 * Judging one selftest run from its results.json: a clean run must pass every clause (skips
 * allowed); a mutant is killed when its clause fails, and whatever else it broke (fail or
 * error outside its clause and its declared overlaps) is reported as collateral: a failure
 * as a break, an error apart (the harness could not decide: usually timing on a loaded machine).
 */
import { assertionWarningCount, clauseTable } from '../reports/outcomes.js';
import type { Results } from '../reports/results-schema.js';
import type { Mutant } from './catalog.js';

/** `warned`: the mutant's only effect on its clause is assertion warnings (evidence only inferred): not a kill, counted apart. */
export type MutantStatus = 'killed' | 'warned' | 'survived' | 'undecided' | 'no-results';

export interface ClauseBreak {
  clause: string;
  outcome: string;
  message?: string;
}

export interface MutantVerdict {
  status: MutantStatus;
  /** Outcome of the mutant's clause in this run. */
  clauseOutcome: string;
  /** Unrelated clauses that failed or errored. */
  collateral: ClauseBreak[];
  /** Unrelated clauses that ended as error where the clean run decided them. */
  undecidedElsewhere: ClauseBreak[];
  /** Declared overlaps that did not fail (information only). */
  overlapsMissed: string[];
  /** First failure message of the mutant's clause, as evidence of the kill. */
  evidence?: string;
}

const broken = (o: string) => o === 'fail' || o === 'error';

function firstMessage(r: Results, clause: string, outcomes: readonly string[]): string | undefined {
  const t = r.tests.find((x) => x.clause === clause && outcomes.includes(x.outcome) && x.message);
  return t ? `${t.title}: ${t.message!.split('\n').find((l) => l.trim()) ?? ''}`.slice(0, 300) : undefined;
}

/** `clean`: the clean run of the same edition and release — what it broke already is its problem, not the mutant's. */
export function judgeMutant(m: Mutant, r: Results | undefined, clean?: Results): MutantVerdict {
  if (!r)
    return { status: 'no-results', clauseOutcome: 'none', collateral: [], undecidedElsewhere: [], overlapsMissed: [] };
  const outcomeOf = (id: string) => r.clauses.find((c) => c.id === id)?.outcome ?? 'not covered';
  const own = outcomeOf(m.clause);
  const expected = new Set<string>([m.clause, ...(m.alsoFails ?? [])]);
  const brokenClean = new Set((clean?.clauses ?? []).filter((c) => broken(c.outcome)).map((c) => c.id));
  const changed = r.clauses
    .filter((c) => !expected.has(c.id) && !brokenClean.has(c.id) && broken(c.outcome))
    .map((c) => ({ clause: c.id, outcome: c.outcome, message: firstMessage(r, c.id, [c.outcome]) }));
  const collateral = changed.filter((c) => c.outcome === 'fail');
  const undecidedElsewhere = changed.filter((c) => c.outcome === 'error');
  const overlapsMissed = (m.alsoFails ?? []).filter((id) => outcomeOf(id) !== 'fail');
  const warnings = (x: Results | undefined) => x?.clauses.find((c) => c.id === m.clause)?.assertionWarnings ?? 0;
  const status: MutantStatus =
    own === 'fail' ? 'killed' : own === 'error' ? 'undecided' : warnings(r) > warnings(clean) ? 'warned' : 'survived';
  return {
    status,
    clauseOutcome: own,
    collateral,
    undecidedElsewhere,
    overlapsMissed,
    evidence: firstMessage(r, m.clause, own === 'fail' ? ['fail'] : ['error', 'skip', 'pass']),
  };
}

export interface CleanVerdict {
  ok: boolean;
  broken: ClauseBreak[];
  totals?: Results['totals'];
  /** Every clause's outcome, to tell a survivor whose clause the clean run never exercised. */
  clauses?: Record<string, string>;
}

export function judgeClean(r: Results | undefined): CleanVerdict {
  if (!r) return { ok: false, broken: [{ clause: '(run)', outcome: 'no results' }] };
  const list: ClauseBreak[] = r.clauses
    .filter((c) => broken(c.outcome))
    .map((c) => ({ clause: c.id, outcome: c.outcome, message: firstMessage(r, c.id, ['fail', 'error']) }));
  // A clean reference server owes no assertion warning either.
  list.push(
    ...r.clauses
      .filter((c) => !broken(c.outcome) && c.assertionWarnings)
      .map((c) => ({
        clause: c.id,
        outcome: `${c.assertionWarnings} assertion warning(s)`,
        message: firstMessage(r, c.id, ['pass', 'skip']),
      })),
  );
  return {
    ok: list.length === 0,
    broken: list,
    totals: r.totals,
    clauses: Object.fromEntries(r.clauses.map((c) => [c.id, c.outcome])),
  };
}

/**
 * A coverage-selected mutant run completed by the clean run: the checks it ran, plus every
 * other check with its clean outcome (those never reached the mutant's faults).
 */
export function mergeResults(clean: Results, subset: Results): Results {
  const key = (t: Results['tests'][number]) => `${t.project}\u0000${t.title}`;
  const ran = new Set(subset.tests.map(key));
  const tests = [...subset.tests, ...clean.tests.filter((t) => !ran.has(key(t)))];
  const totals = {
    pass: 0,
    fail: 0,
    skip: 0,
    error: 0,
    tests: tests.length,
    assertionWarnings: assertionWarningCount(tests),
  };
  for (const t of tests) totals[t.outcome]++;
  return { ...subset, totals, tests, clauses: clauseTable(tests) };
}

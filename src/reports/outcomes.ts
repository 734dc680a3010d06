/**
 * From checks to clauses, and the vacuous-pass guard: a family whose calls were mostly
 * refused (401/403/429/5xx nobody asked for) passes nothing — its passes become errors.
 */
import { CLAUSES } from '../spec/index.js';
import type { Results, TestResultT } from './results-schema.js';

export type Outcome = TestResultT['outcome'];

/** Share of unasked refusals above which a family's passes are not believed. */
export const VACUOUS_SHARE = 0.5;
const VACUOUS_MIN_CALLS = 5;

export function applyVacuousGuard(tests: TestResultT[]): void {
  const byFamily = new Map<string, { calls: number; refused: number }>();
  for (const t of tests) {
    if (!t.family) continue;
    const f = byFamily.get(t.family) ?? { calls: 0, refused: 0 };
    f.calls += t.calls ?? 0;
    f.refused += t.refused ?? 0;
    byFamily.set(t.family, f);
  }
  for (const [family, f] of byFamily) {
    if (f.calls < VACUOUS_MIN_CALLS || f.refused / f.calls <= VACUOUS_SHARE) continue;
    for (const t of tests.filter((x) => x.family === family && x.outcome === 'pass')) {
      const message = `vacuous-pass guard: ${f.refused} of ${f.calls} calls of the ${family} family were refused (401/403/429/5xx) without the check asking for it; its passes prove nothing`;
      t.outcome = 'error';
      t.cause = 'vacuous-pass';
      t.errors = [{ cause: 'vacuous-pass', message }];
      t.message = message;
    }
  }
}

export function clauseTable(tests: TestResultT[]): Results['clauses'] {
  return CLAUSES.map((c) => {
    const mine = tests.filter((t) => t.clause === c.id);
    const n = (o: Outcome) => mine.filter((t) => t.outcome === o).length;
    const tally = { pass: n('pass'), fail: n('fail'), skip: n('skip'), error: n('error') };
    const outcome = tally.fail ? 'fail' : tally.error ? 'error' : tally.pass ? 'pass' : tally.skip ? 'skip' : 'not covered';
    const assertionWarnings = mine.reduce((n, t) => n + (t.assertionWarnings?.length ?? 0), 0);
    return { id: c.id, family: c.family, text: c.text, source: c.source, outcome, tests: tally, assertionWarnings };
  });
}

/** Assertion warnings over all checks (violated assertions whose evidence is only inferred). */
export const assertionWarningCount = (tests: readonly TestResultT[]): number => tests.reduce((n, t) => n + (t.assertionWarnings?.length ?? 0), 0);

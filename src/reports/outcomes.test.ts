/** The outcome rules: checks to clauses, the vacuous-pass guard. (Outcomes of single checks: src/harness/verdict.test.ts.) */
import { expect, test } from '@playwright/test';
import { applyVacuousGuard, clauseTable, VACUOUS_SHARE } from './outcomes.js';
import type { TestResultT } from './results-schema.js';

const check = (family: string, outcome: TestResultT['outcome'], calls: number, refused: number, n = 1): TestResultT => ({
  title: `${family}-${n} check`, clause: `${family}-${n}`, basis: 'spec', family, project: 'functional', file: 'x.spec.ts', outcome, durationMs: 1, calls, refused,
});

test('vacuous-pass guard: a family whose calls were mostly refused unasked passes nothing', () => {
  const tests = [check('RATE', 'pass', 10, 9, 1), check('RATE', 'pass', 10, 8, 2), check('RATE', 'fail', 2, 2, 3), check('ROUTE', 'pass', 10, 0, 1)];
  applyVacuousGuard(tests);
  expect(tests.map((t) => t.outcome)).toEqual(['error', 'error', 'fail', 'pass']);
  expect(tests[0]!.message).toMatch(/vacuous-pass guard: 19 of 22 calls of the RATE family were refused/);
  expect(tests[0]!.cause).toBe('vacuous-pass');
});

test('vacuous-pass guard: at or below the share, or with too few calls, passes stand', () => {
  const half = [check('AUTH', 'pass', 10, 10 * VACUOUS_SHARE)];
  applyVacuousGuard(half);
  expect(half[0]!.outcome).toBe('pass');
  const few = [check('SQL', 'pass', 4, 4)];
  applyVacuousGuard(few);
  expect(few[0]!.outcome, 'four refused calls are too few to judge a family').toBe('pass');
  const expected = [check('AUTH', 'pass', 10, 0)];
  applyVacuousGuard(expected);
  expect(expected[0]!.outcome, 'refusals a check asked for are not counted (refused = 0)').toBe('pass');
});

test('clause table: fail outranks error outranks pass outranks skip; no check = not covered', () => {
  const rows = clauseTable([check('ROUTE', 'pass', 1, 0, 1), check('ROUTE', 'error', 1, 0, 1), check('ROUTE', 'skip', 0, 0, 2), check('ROUTE', 'fail', 1, 0, 3), check('ROUTE', 'pass', 1, 0, 3)]);
  const by = (id: string) => rows.find((r) => r.id === id)!;
  expect(by('ROUTE-1').outcome).toBe('error');
  expect(by('ROUTE-1').tests).toEqual({ pass: 1, fail: 0, skip: 0, error: 1 });
  expect(by('ROUTE-2').outcome).toBe('skip');
  expect(by('ROUTE-3').outcome).toBe('fail');
  expect(by('ROUTE-4').outcome).toBe('not covered');
});

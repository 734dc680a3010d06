/**
 * Mutants sharing a run (src/mutants/batch.ts): packed only when their checks are disjoint
 * and their edition and release agree; a member whose checks met another member's fault in
 * the shared run is told apart; each member is judged on its own checks only.
 */
import { expect, test } from '@playwright/test';
import { contamination, decidedInBatch, formBatches, mayShare, memberResults } from '../src/mutants/batch.js';
import { UNTAGGED, type Coverage } from '../src/mutants/coverage.js';
import { judgeMutant } from '../src/mutants/verdict.js';
import { fakeResults } from './helpers/reports.js';
import { m } from '../src/mutants/mutant.js';

const b = (item: string, titles: string[], key = 'self-hosted-6.2', faults = [item]) => ({ item, key, faults, titles });

test('batches: disjoint checks of one edition and release share a run; an overlap or another release opens a new one', () => {
  const groups = formBatches([
    b('a', ['SHAPE-1 x', 'SHAPE-1 y']),
    b('b', ['SQL-1 q']),
    b('c', ['SHAPE-1 y']), // shares a check with a
    b('d', ['ROUTE-1 r'], 'cloud-6.2'), // another combination
    b('e', ['SIZE-1 s']),
  ]).map((g) => g.map((x) => x.item).sort());
  expect(groups).toEqual([['a', 'b', 'e'], ['c'], ['d']]);
});

test('batches are bounded: at most 12 members', () => {
  const groups = formBatches(Array.from({ length: 20 }, (_, i) => b(`m${i}`, [`SQL-1 check ${i}`])));
  expect(groups.map((g) => g.length)).toEqual([12, 8]);
});

const cov = (faults: Record<string, string[]>): Coverage => ({ schemaVersion: 1, faults, requests: {} });

test("contamination: a member whose check reached another member's fault in the shared run is run alone", () => {
  const me = { faults: ['lax-types'], titles: ['SHAPE-7 a'] };
  expect(
    contamination(cov({ 'SHAPE-7 a': ['lax-types'], 'SQL-1 q': ['sql-splice'] }), me, [{ faults: ['sql-splice'] }]),
  ).toBeUndefined();
  expect(contamination(cov({ 'SHAPE-7 a': ['lax-types', 'sql-splice'] }), me, [{ faults: ['sql-splice'] }])).toContain(
    'SHAPE-7 a',
  );
  expect(contamination(cov({ [UNTAGGED]: ['sql-splice'] }), me, [{ faults: ['sql-splice'] }])).toContain(
    'outside any check',
  );
  expect(contamination(undefined, me, [])).toContain('no coverage');
  // A switch the shared run never read met no check; one read only at start-up by a server run setup called did.
  expect(contamination(cov({ 'SHAPE-7 a': ['lax-types'] }), me, [{ faults: ['window-never-resets'] }])).toBeUndefined();
  const startup = { ...cov({}), servers: [{ startup: ['ignore-config'], tags: [UNTAGGED] }] };
  expect(contamination(startup, me, [{ faults: ['ignore-config'] }])).toContain('start-up');
});

test('a mutant seen only through the response cache, or met at random (SETUP_INERT), never shares a run', () => {
  expect(mayShare(['stale-cache'])).toBe(false); // a shared run records coverage, which bypasses the cache
  expect(mayShare(['base-token-names-dtable-server'])).toBe(false); // met by whichever check first fetches a base token
  expect(mayShare(['lax-types'])).toBe(true);
});

test("a member is judged on its own checks: another member's failures are not its collateral", () => {
  const clean = fakeResults([
    ['SHAPE-7', 'SHAPE-7 a', 'pass'],
    ['SQL-1', 'SQL-1 q', 'pass'],
    ['ROUTE-1', 'ROUTE-1 r', 'pass'],
  ]);
  const shared = fakeResults([
    ['SHAPE-7', 'SHAPE-7 a', 'fail'],
    ['SQL-1', 'SQL-1 q', 'fail'],
  ]);
  const lax = m('SHAPE-7', 'lax-types', ['lax-types'], 'x');
  const verdict = judgeMutant(lax, memberResults(clean, shared, ['SHAPE-7 a']), clean);
  expect(verdict).toMatchObject({ status: 'killed', collateral: [] });
  const splice = m('SQL-1', 'sql-splice', ['sql-splice'], 'x');
  expect(judgeMutant(splice, memberResults(clean, shared, ['SQL-1 q']), clean)).toMatchObject({
    status: 'killed',
    collateral: [],
  });
  // Without its own checks in the shared run, a member keeps the clean verdicts: it survived.
  expect(judgeMutant(lax, memberResults(clean, shared, []), clean).status).toBe('survived');
});

test("a member's verdict from the shared run stands only when a run alone would say the same", () => {
  const clean = fakeResults([
    ['BASE-6', 'BASE-6 b', 'pass'],
    ['SHAPE-8', 'SHAPE-8 s', 'pass'],
    ['ROUTE-1', 'ROUTE-1 r', 'pass'],
  ]);
  const mutant = m('BASE-6', 'big-rows-to-normal', ['big-rows-to-normal'], 'x');
  const own = ['BASE-6 b', 'SHAPE-8 s'];
  const shared = (shape: 'pass' | 'error', cause?: string, route: 'pass' | 'fail' = 'pass') => {
    const r = fakeResults([
      ['BASE-6', 'BASE-6 b', 'fail'],
      ['SHAPE-8', 'SHAPE-8 s', shape],
      ['ROUTE-1', 'ROUTE-1 r', route],
    ]);
    r.tests[1]!.cause = cause;
    return r;
  };
  const decided = (batch: ReturnType<typeof shared>, titles = own) =>
    decidedInBatch(judgeMutant(mutant, memberResults(clean, batch, titles), clean), batch, titles);
  expect(decided(shared('pass'))).toBe(true);
  // Its own check stopped on a fixture its fault made impossible: alone it would stop the same way.
  expect(decided(shared('error', 'fixture'))).toBe(true);
  // Stopped by timing (a loaded shared run): a run alone may decide it.
  expect(decided(shared('error', 'timing'))).toBe(false);
  // Another clause failed among its own checks: collateral, run alone.
  expect(decided(shared('pass', undefined, 'fail'), [...own, 'ROUTE-1 r'])).toBe(false);
  // Not killed at all.
  expect(decided(shared('pass'), ['SHAPE-8 s'])).toBe(false);
});

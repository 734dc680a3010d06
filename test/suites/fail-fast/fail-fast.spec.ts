/**
 * Test-only suite (run by test/cli-fail-fast.test.ts through `conformance run` with
 * CONFHARNESS_SUITES_DIR, one worker, so in file order): checks of three scopes and three
 * clauses, for `--fail-fast-scopes`, and for the worker a scoped run keeps after a failed
 * check (its shared world remade, a new worker after an undecided check).
 */
import { clause, expect, test, ev, withWorld } from '../../../src/harness/test.js';
import { Undecided } from '../../../src/harness/outcome.js';

/** Set by the check that fails after changing its world: true in the worker that ran it. */
let failedHere = false;
const worldTest = withWorld('fail-fast: world', () => ({ changed: false }));

const ping = { path: '/ping/', auth: 'none' } as const;

test(...clause('ROUTE-5', 'fail-fast: a1 fails', ev.spec('1, 5.1')), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

test(...clause('ROUTE-5', 'fail-fast: a2 would fail', ev.spec('1, 5.1')), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

test(...clause('ROUTE-5', 'fail-fast: a3 would pass', ev.spec('1, 5.1')), async ({ target }) => {
  expect((await target.call(ping)).status).toBe(200);
});

test(...clause('ROUTE-5', 'fail-fast: b1 fails', ev.spec('1, 5.1')), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

test(...clause('ROUTE-4', 'fail-fast: a4 passes', ev.spec('1')), async ({ target }) => {
  expect((await target.call(ping)).status).toBe(200);
});

worldTest(...clause('ROUTE-5', 'fail-fast: w1 fails after changing its world', ev.spec('1, 5.1')), ({ world }) => {
  world.changed = true;
  failedHere = true;
  expect(world.changed, 'deliberate failure').toBe(false);
});

worldTest(...clause('ROUTE-4', 'fail-fast: w2 sees a fresh world', ev.spec('1')), ({ world }) => {
  expect(world.changed, 'the world a failed check changed is remade').toBe(false);
});

test(...clause('ROUTE-5', 'fail-fast: w3 runs in the worker of the failed check', ev.spec('1, 5.1')), () => {
  expect(failedHere, 'the worker was kept').toBe(true);
});

test(...clause('ROUTE-6', 'fail-fast: a5 undecided', ev.spec('4.1, 9')), async ({ target }) => {
  await target.call(ping);
  throw new Undecided('bad-json', 'deliberate: the body could not be read');
});

test(...clause('ROUTE-6', 'fail-fast: a6 passes after an undecided one', ev.spec('4.1, 9')), async ({ target }) => {
  expect((await target.call(ping)).status).toBe(200);
});

test(...clause('ROUTE-6', 'fail-fast: w4 runs in a new worker after an undecided check', ev.spec('4.1, 9')), () => {
  expect(failedHere, 'an undecided check ends its worker').toBe(false);
});

test(...clause('ROUTE-5', 'fail-fast: unscoped fails', ev.spec('1, 5.1')), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

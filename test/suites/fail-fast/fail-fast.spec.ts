/**
 * Test-only suite (run by test/cli-fail-fast.test.ts through `conformance run` with
 * CONFHARNESS_SUITES_DIR, one worker, so in file order): checks of two scopes and three
 * clauses, for `--fail-fast-scopes`.
 */
import { clause, expect, test, ev } from '../../../src/harness/test.js';
import { Undecided } from '../../../src/harness/outcome.js';

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

test(...clause('ROUTE-6', 'fail-fast: a5 undecided', ev.spec('4.1, 9')), async ({ target }) => {
  await target.call(ping);
  throw new Undecided('bad-json', 'deliberate: the body could not be read');
});

test(...clause('ROUTE-6', 'fail-fast: a6 passes after an undecided one', ev.spec('4.1, 9')), async ({ target }) => {
  expect((await target.call(ping)).status).toBe(200);
});

test(...clause('ROUTE-5', 'fail-fast: unscoped fails', ev.spec('1, 5.1')), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

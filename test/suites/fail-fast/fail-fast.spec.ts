/**
 * Test-only suite (run by test/cli-fail-fast.test.ts through `conformance run` with
 * CONFHARNESS_SUITES_DIR, one worker, so in file order): checks of two scopes and three
 * clauses, for `--fail-fast-scopes`.
 */
import { clause, expect, test } from '../../../src/harness/test.js';
import { Undecided } from '../../../src/harness/outcome.js';

const ping = { path: '/ping/', auth: 'none' } as const;

test(...clause('ROUTE-5', 'fail-fast: a1 fails', 'spec'), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

test(...clause('ROUTE-5', 'fail-fast: a2 would fail', 'spec'), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

test(...clause('ROUTE-5', 'fail-fast: a3 would pass', 'spec'), async ({ target }) => {
  expect((await target.call(ping)).status).toBe(200);
});

test(...clause('ROUTE-5', 'fail-fast: b1 fails', 'spec'), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

test(...clause('ROUTE-4', 'fail-fast: a4 passes', 'spec'), async ({ target }) => {
  expect((await target.call(ping)).status).toBe(200);
});

test(...clause('ROUTE-6', 'fail-fast: a5 undecided', 'spec'), async ({ target }) => {
  await target.call(ping);
  throw new Undecided('bad-json', 'deliberate: the body could not be read');
});

test(...clause('ROUTE-6', 'fail-fast: a6 passes after an undecided one', 'spec'), async ({ target }) => {
  expect((await target.call(ping)).status).toBe(200);
});

test(...clause('ROUTE-5', 'fail-fast: unscoped fails', 'spec'), async ({ target }) => {
  expect((await target.call(ping)).status, 'deliberate failure').toBe(418);
});

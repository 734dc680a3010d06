/**
 * Test-only suite (run by test/cli-outcomes.test.ts through `conformance run` with
 * CONFHARNESS_SUITES_DIR): one check per outcome, so every output can be checked to keep
 * pass, fail, error and skip apart. Select with --grep 'selftest: (pass|fail|…)'.
 */
import { clause, expect, test } from '../../../src/harness/test.js';
import { Undecided } from '../../../src/harness/outcome.js';

test(...clause('ROUTE-4', 'selftest: pass', 'spec'), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status).toBe(200);
});

test(...clause('ROUTE-5', 'selftest: fail', 'spec'), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status, 'deliberate failure: ping must answer 418').toBe(418);
});

test(...clause('ROUTE-6', 'selftest: error', 'spec'), async ({ target }) => {
  await target.call({ path: '/ping/', auth: 'none' });
  throw new Undecided('bad-json', 'deliberate: the body could not be read');
});

test(...clause('ROUTE-7', 'selftest: skip', 'spec'), async () => {
  test.skip(true, 'needs a second base (deliberate skip)');
});

test(...clause('ROUTE-3', 'selftest: timeout', 'spec'), async ({ target }) => {
  test.setTimeout(1_500);
  await target.call({ path: '/ping/', auth: 'none' });
  await new Promise((r) => setTimeout(r, 10_000));
});

// The vacuous-pass guard: a check of the SIZE family that "passes" while every call it made was refused.
test(...clause('SIZE-1', 'selftest: vacuous', 'spec'), async ({ target }) => {
  for (let i = 0; i < 6; i++) await target.call({ path: '/api/v2.1/dtable/items-search/', query: { query_str: 'x' }, auth: { raw: 'Token not-a-valid-token' } });
  expect(true).toBe(true);
});

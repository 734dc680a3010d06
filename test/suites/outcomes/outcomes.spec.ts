/**
 * Test-only suite (run by test/cli-outcomes.test.ts through `conformance run` with
 * CONFHARNESS_SUITES_DIR): one check per outcome, so every output can be checked to keep
 * pass, fail, error and skip apart. Select with --grep 'selftest: (pass|fail|…)'.
 */
import { clause, expect, test, ev } from '../../../src/harness/test.js';
import { Undecided } from '../../../src/harness/outcome.js';
import { fixtureTables } from '../../../src/harness/state.js';

test(...clause('ROUTE-4', 'selftest: pass', ev.spec('1')), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status).toBe(200);
});

test(...clause('ROUTE-5', 'selftest: fail', ev.spec('1, 5.1')), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status, 'deliberate failure: ping must answer 418').toBe(418);
});

test(...clause('ROUTE-6', 'selftest: error', ev.spec('4.1, 9')), async ({ target }) => {
  await target.call({ path: '/ping/', auth: 'none' });
  throw new Undecided('bad-json', 'deliberate: the body could not be read');
});

test(...clause('ROUTE-7', 'selftest: skip', ev.spec('4.1')), async () => {
  test.skip(true, 'needs a second base (deliberate skip)');
});

test(...clause('ROUTE-3', 'selftest: timeout', ev.spec('1')), async ({ target }) => {
  test.setTimeout(1_500);
  await target.call({ path: '/ping/', auth: 'none' });
  await new Promise((r) => setTimeout(r, 10_000));
});

// The vacuous-pass guard: a check of the SIZE family that "passes" while every call it made was refused.
test(...clause('SIZE-1', 'selftest: vacuous', ev.spec('8.5')), async ({ target }) => {
  for (let i = 0; i < 6; i++)
    await target.call({
      path: '/api/v2.1/dtable/items-search/',
      query: { query_str: 'x' },
      auth: { raw: 'Token not-a-valid-token' },
    });
  expect(true).toBe(true);
});

// Outcomes are data, not text: a harness bug is an error, a violation stays a failure whatever else happens.
test(...clause('SIZE-2', 'selftest: type-error', ev.spec('8.5')), async ({ target }) => {
  await target.call({ path: '/ping/', auth: 'none' });
  const notAnObject = undefined as unknown as { field: string };
  expect(notAnObject.field).toBe('x'); // a TypeError thrown by the check itself, before any assertion
});

test(...clause('SIZE-3', 'selftest: soft-then-timeout', ev.spec('8.5')), async ({ target }) => {
  test.setTimeout(1_500);
  await target.call({ path: '/ping/', auth: 'none' });
  expect.soft(1, 'deliberate soft violation: one must be two').toBe(2);
  await new Promise((r) => setTimeout(r, 10_000));
});

test(...clause('SIZE-4', 'selftest: marker-echo', ev.spec('8.5')), async ({ target }) => {
  // A body that echoes the old outcome marker must not turn the target's failure into "undecided".
  const body = 'HARNESS-ERROR[reset] Undecided: harness could not decide (reset)';
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(`${r.text} ${body}`, `deliberate failure whose message carries the target's text: ${body}`).toBe('pong');
});

test(...clause('SIZE-5', 'selftest: fixture', ev.spec('8.5')), async ({ state }) => {
  fixtureTables({ ...state, fixtures: undefined, fixturesProblem: 'deliberate: the target refused the fixture table' });
});

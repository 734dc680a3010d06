/** Test-only suite (test/cli-run-errors.test.ts): a check that passes, beside a file that does not load. */
import { clause, expect, test, ev } from '../../../src/harness/test.js';

test(...clause('ROUTE-4', 'selftest: passes beside a broken file', ev.spec('1')), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status).toBe(200);
});

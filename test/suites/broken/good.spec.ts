/** Test-only suite (test/cli-run-errors.test.ts): a check that passes, beside a file that does not load. */
import { clause, expect, test } from '../../../src/harness/test.js';

test(...clause('ROUTE-4', 'selftest: passes beside a broken file', 'spec'), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status).toBe(200);
});

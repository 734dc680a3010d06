/** Test-only suite (test/cli-run-errors.test.ts): a check whose worker process is killed mid-run. */
import { clause, expect, test } from '../../../src/harness/test.js';

test(...clause('SQL-2', 'selftest: worker killed', 'spec'), async ({ target }) => {
  await target.call({ path: '/ping/', auth: 'none' });
  process.kill(process.pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 5_000));
});

test(...clause('ROUTE-4', 'selftest: passes after a crash', 'spec'), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status).toBe(200);
});

/** Test-only suite (test/cli-run-errors.test.ts): a check whose worker process is killed mid-run. */
import { clause, expect, test, ev } from '../../../src/harness/test.js';

test(...clause('SQL-2', 'selftest: worker killed', ev.spec('9 (4.1)')), async ({ target }) => {
  await target.call({ path: '/ping/', auth: 'none' });
  process.kill(process.pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 5_000));
});

test(...clause('ROUTE-4', 'selftest: passes after a crash', ev.spec('1')), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status).toBe(200);
});

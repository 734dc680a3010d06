/** Test-only suite (test/cli-variations.test.ts): a check whose restore of account state fails. */
import { restored } from '../../../src/harness/restore.js';
import { clause, expect, test, ev } from '../../../src/harness/test.js';

test(...clause('ACCT-5', 'selftest: restore fails', ev.spec('4.2')), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect(r.status).toBe(200);
  await restored('the deliberate probe setting put back', () =>
    target.call({ method: 'PUT', path: '/api/v2.1/no-such-setting/', auth: 'account', expect: [404] }),
  );
});

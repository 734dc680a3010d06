/**
 * Test-only suite (run by test/cli-secrets.test.ts): checks that do everything a careless
 * check could do with a secret — print it, assert on it, throw it, attach it, annotate
 * with it, skip with it, send it in a header — with the descriptor's credentials and with
 * tokens the run obtains on its own. No artefact and no terminal line may show any of them.
 */
import { clause, expect, test, ev } from '../../../src/harness/test.js';

test(
  ...clause('ROUTE-4', 'selftest: secrets printed, attached, annotated, asserted', ev.spec('1')),
  async ({ target, state }) => {
    const d = state.target;
    const baseToken = await target.baseToken(0);
    const all = [d.password ?? '', d.account_token ?? '', ...d.bases.map((b) => b.api_token), baseToken].join(' ');
    console.log(`stdout: ${all}`);
    console.error(`stderr: ${all}`);
    process.stdout.write(Buffer.from(`stdout buffer: ${all}\n`));
    await test.info().attach('leak.txt', { body: all, contentType: 'text/plain' });
    await test.info().attach('leak.bin', { body: Buffer.from(all), contentType: 'application/octet-stream' });
    test.info().annotations.push({ type: 'note', description: all });
    await target.call({ path: '/ping/', auth: 'none', headers: { 'x-debug': baseToken } });
    expect.soft(all, `soft assertion: ${all}`).toBe('');
    expect(all, `assertion: ${all}`).toBe('');
  },
);

test(
  ...clause('ROUTE-5', 'selftest: a token the check obtains itself, thrown', ev.spec('1, 5.1')),
  async ({ target }) => {
    // A fresh base token through the API (not through Target.baseToken): learnt from the response field.
    const r = await target.call({ path: '/api/v2.1/dtable/app-access-token/', auth: { api: 1 } });
    const fresh = r.json<{ access_token: string }>().access_token;
    throw new Error(`fresh base token ${fresh} and again ${fresh}`);
  },
);

test(
  ...clause('ROUTE-6', 'selftest: an account token from username and password, in a message', ev.spec('4.1, 9')),
  async ({ target, state }) => {
    const r = await target.call({
      method: 'POST',
      path: '/api2/auth-token/',
      form: { username: state.target.username!, password: state.target.password! },
    });
    const token = r.json<{ token: string }>().token;
    expect(`${token}`, `account token ${token}`).toHaveLength(0);
  },
);

test(...clause('ROUTE-7', 'selftest: skipped with a secret in the reason', ev.spec('4.1')), async ({ state }) => {
  test.skip(true, `skip reason with ${state.target.bases[0]!.api_token}`);
});

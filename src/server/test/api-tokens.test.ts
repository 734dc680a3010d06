/** The API token's life cycle (AUTH-5): create, list, update the permission, delete; the temporary token. */
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { TEMP_API_TOKEN_SECONDS } from '../routes/api-tokens.js';
import { Acct, multipart } from './account-kit.js';
import { call, expectClientError } from './kit.js';

let a: Acct;
let now = Date.now();
test.beforeAll(async () => {
  a = await Acct.start({ clock: () => now });
});
test.afterAll(async () => {
  await a.close();
});

const base = () => a.creds.bases[0]!;
const tokens = () => `/api/v2.1/workspace/1/dtable/${encodeURIComponent(base().name)}/api-tokens/`;
const shaped = (id: string, body: unknown) => {
  const r = RESPONSES[id]!.safeParse(body);
  expect(r.success, `${id}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
  return body as any;
};

async function baseTokenOf(apiToken: string): Promise<string> {
  const r = await call(a.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: apiToken });
  expect(r.status, r.text).toBe(200);
  return r.body.access_token;
}
const gw = (token: string, method: string, sub: string, json?: unknown) =>
  call(a.url, method, `/api-gateway/api/v2/dtables/${base().uuid}/${sub}`, { token, json });

test('AUTH-5 a token created rw and updated to r mints base tokens that read but do not write; deleted, it opens nothing', async () => {
  const created = await a.call('POST', tokens(), a.admin, { form: { app_name: 'lifecycle', permission: 'rw' } });
  expect(created.status, created.text).toBe(201);
  const t = shaped('createApiToken', created.body);
  expect(
    (
      await gw(await baseTokenOf(t.api_token), 'POST', 'tables/', {
        table_name: 'Lifecycle',
        columns: [{ column_name: 'Name', column_type: 'text' }],
      })
    ).status,
  ).toBe(200);

  const updated = await multipart(a.url, 'PUT', `${tokens()}lifecycle/`, a.admin, { permission: 'r' });
  expect(updated.status, updated.text).toBe(200);
  expect(shaped('updateApiToken', updated.body)).toMatchObject({
    app_name: 'lifecycle',
    api_token: t.api_token,
    permission: 'r',
  });
  const listed = shaped('listApiTokens', await a.ok('GET', tokens(), a.admin));
  expect(listed.api_tokens.find((x: { app_name: string }) => x.app_name === 'lifecycle')?.permission).toBe('r');
  const ro = await baseTokenOf(t.api_token);
  expect((await gw(ro, 'GET', 'rows/?table_name=Lifecycle')).status).toBe(200);
  expectClientError(await gw(ro, 'POST', 'rows/', { table_name: 'Lifecycle', rows: [{ Name: 'x' }] }), 403);
  expect((await gw(ro, 'GET', 'rows/?table_name=Lifecycle')).body.rows).toEqual([]);
  // Form bodies as well as multipart; back to rw writes again.
  expect((await a.call('PUT', `${tokens()}lifecycle/`, a.admin, { form: { permission: 'rw' } })).body.permission).toBe(
    'rw',
  );
  expect(
    (await gw(await baseTokenOf(t.api_token), 'POST', 'rows/', { table_name: 'Lifecycle', rows: [{ Name: 'x' }] }))
      .status,
  ).toBe(200);

  expect(shaped('deleteApiToken', await a.ok('DELETE', `${tokens()}lifecycle/`, a.admin))).toEqual({ success: true });
  expectClientError(await call(a.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: t.api_token }), 403);
});

test('AUTH-5 Update API-Token refuses a bad permission, an unknown token and another team, changing nothing', async () => {
  await a.call('POST', tokens(), a.admin, { form: { app_name: 'steady', permission: 'rw' } });
  for (const permission of ['', 'admin', 'R'])
    expectClientError(await multipart(a.url, 'PUT', `${tokens()}steady/`, a.admin, { permission }), 400);
  expectClientError(await multipart(a.url, 'PUT', `${tokens()}steady/`, a.admin, {}), 400);
  expectClientError(await multipart(a.url, 'PUT', `${tokens()}nobody/`, a.admin, { permission: 'r' }), 404);
  expectClientError(await multipart(a.url, 'PUT', `${tokens()}steady/`, a.other, { permission: 'r' }), 403);
  expectClientError(await multipart(a.url, 'PUT', `${tokens()}steady/`, undefined, { permission: 'r' }), 403);
  const listed = await a.ok('GET', tokens(), a.admin);
  expect(listed.api_tokens.find((x: { app_name: string }) => x.app_name === 'steady')?.permission).toBe('rw');
});

test('AUTH-5 a temporary API token opens its base for an hour, for its user; it is not listed', async () => {
  const r = await a.ok(
    'GET',
    `/api/v2.1/workspace/1/dtable/${encodeURIComponent(base().name)}/temp-api-token/`,
    a.admin,
  );
  const temp = shaped('createTempApiToken', r).api_token as string;
  const access = await call(a.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: temp });
  expect(access.status, access.text).toBe(200);
  expect(access.body.dtable_uuid).toBe(base().uuid);
  expect((await gw(access.body.access_token, 'GET', 'metadata/')).status).toBe(200);
  expect(
    (await a.ok('GET', tokens(), a.admin)).api_tokens.map((x: { api_token: string }) => x.api_token),
  ).not.toContain(temp);
  now += TEMP_API_TOKEN_SECONDS * 1000 + 1;
  try {
    expectClientError(await call(a.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: temp }), 403);
  } finally {
    now = Date.now();
  }
  expectClientError(await a.get('/api/v2.1/workspace/1/dtable/nope/temp-api-token/'), 404);
  expectClientError(
    await a.get(`/api/v2.1/workspace/1/dtable/${encodeURIComponent(base().name)}/temp-api-token/`, a.other),
    403,
  );
});

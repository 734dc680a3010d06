/** Credentials (§5, api-shapes §1): AUTH-1..4 and ROUTE-5. */
import { expect, test } from '@playwright/test';
import { ENDPOINTS, fillPath, offeredAt, type Endpoint } from '../../spec/index.js';
import { call, expectClientError, serves, uniq, fileServer } from './kit.js';

let now = Date.now();
const kit = fileServer({ clock: () => now });

const creds = () => kit.srv.ctx.creds;
const ws = () => kit.srv.descriptor.workspace_id!;
const accessTokenPath = (name = kit.base.name, wsId: number = ws()) =>
  `/api/v2.1/workspace/${wsId}/dtable/${encodeURIComponent(name)}/access-token/`;

test('AUTH-1 /api2/auth-token/ returns an account token for valid credentials and refuses invalid ones', async () => {
  const { email, password } = creds().admin;
  const ok = await call(kit.url, 'POST', '/api2/auth-token/', { form: { username: email, password } });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body.token).toMatch(/^[0-9a-f]{40}$/);
  for (const form of [
    { username: email, password: 'wrong' },
    { username: 'nobody@example.com', password },
    { username: email },
    {},
  ]) {
    const r = await call(kit.url, 'POST', '/api2/auth-token/', { form: form as Record<string, string> });
    expectClientError(r, 400);
    expect(r.body.non_field_errors).toEqual(['Unable to login with provided credentials.']);
  }
});

test('ROUTE-5 the account token from /api2/auth-token/ opens account operations', async () => {
  const { email, password } = creds().member;
  const token = (await call(kit.url, 'POST', '/api2/auth-token/', { form: { username: email, password } })).body
    .token as string;
  expect(token).toBe(creds().member.token);
  const r = await call(kit.url, 'GET', accessTokenPath(), { token });
  expect(r.status, r.text).toBe(200);
  expect(r.body.dtable_uuid).toBe(kit.base.uuid);
});

test('AUTH-2 Authorization: Bearer is accepted for account and base tokens, as is Token', async () => {
  for (const scheme of ['Bearer', 'Token'] as const) {
    const acc = await call(kit.url, 'GET', accessTokenPath(), { token: creds().admin.token, scheme });
    expect(acc.status, `${scheme}: ${acc.text}`).toBe(200);
    const rows = await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: acc.body.access_token, scheme });
    expect(rows.status, `${scheme}: ${rows.text}`).toBe(200);
    const app = await call(kit.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: kit.base.api_token, scheme });
    expect(app.status).toBe(200);
  }
  const basic = await fetch(`${kit.url}${kit.gw}/metadata/`, {
    headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
  });
  expect(basic.status).toBe(403);
});

test("AUTH-3 a base token from an API token has the real service's shape and opens its base", async () => {
  const r = await call(kit.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: kit.base.api_token });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({
    app_name: 'conformance',
    dtable_uuid: kit.base.uuid,
    dtable_name: kit.base.name,
    workspace_id: ws(),
    use_api_gateway: true,
  });
  expect(r.body.dtable_server).toBe(`${kit.url}/api-gateway/`);
  const m = await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: r.body.access_token });
  expect(m.status).toBe(200);
  expectClientError(await call(kit.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: 'f'.repeat(40) }), 403);
});

test('AUTH-3 a base token from an account token; unknown workspace or base is a 404', async () => {
  const r = await call(kit.url, 'GET', accessTokenPath(), { token: creds().admin.token });
  expect(r.status).toBe(200);
  expect(Object.keys(r.body).sort()).toEqual(['access_token', 'dtable_uuid']);
  const t = uniq('Via Account');
  const c = await call(kit.url, 'POST', `${kit.gw}/tables/`, { token: r.body.access_token, json: { table_name: t } });
  expect(c.status, c.text).toBe(200);
  expectClientError(await call(kit.url, 'GET', accessTokenPath('No Such Base'), { token: creds().admin.token }), 404);
  expectClientError(
    await call(kit.url, 'GET', accessTokenPath(kit.base.name, 99_999), { token: creds().admin.token }),
    404,
  );
  // A user of another team cannot mint a token for this team's base.
  expectClientError(await call(kit.url, 'GET', accessTokenPath(), { token: creds().otherAdmin.token }), 403);
});

test('AUTH-3 base tokens expire: `exp` sets the lifetime, an expired token gets 403 Token expired.', async () => {
  const short = await kit.baseToken(kit.base.api_token, '1h');
  const long = await kit.baseToken(kit.base.api_token);
  expect((await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: short })).status).toBe(200);
  now += 2 * 3600 * 1000;
  try {
    const r = await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: short });
    expect(expectClientError(r, 403)).toBe('Token expired.');
    expect(r.body, 'clients read error_msg (api-shapes §1.7)').toEqual({ error_msg: 'Token expired.' });
    expect((await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: long })).status).toBe(200);
    now += 3 * 24 * 3600 * 1000;
    expectClientError(await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: long }), 403);
  } finally {
    now = Date.now();
  }
  for (const exp of ['soon', '-1h', '0'])
    expectClientError(
      await call(kit.url, 'GET', `/api/v2.1/dtable/app-access-token/?exp=${exp}`, { token: kit.base.api_token }),
      400,
    );
});

/** The credential-needing endpoints of the families this server part implements (and registers). */
function guarded(): Endpoint[] {
  const v = kit.srv.descriptor.api_version;
  return ENDPOINTS.filter(
    (e) =>
      ['gateway', 'base-v1', 'auth'].includes(e.family) &&
      e.credential !== 'none' &&
      e.credential !== 'external-link' &&
      offeredAt(e, v) &&
      serves(kit.srv, e),
  );
}

function pathOf(e: Endpoint, baseUuid = kit.base.uuid): string {
  return fillPath(e.path, {
    base_uuid: baseUuid,
    workspace_id: ws(),
    base_name: kit.base.name,
    row_id: 'AAAAAAAAAAAAAAAAAAAAAA',
    app_name: 'conformance',
    view_name: 'Default View',
    comment_id: 1,
    notification_id: 1,
    op_id: 1,
  });
}

test('AUTH-4 every guarded endpoint refuses a call without credentials or with a bad token (401/403)', async () => {
  const list = guarded();
  expect(list.length).toBeGreaterThan(15);
  for (const e of list) {
    for (const token of [undefined, 'garbage', 'f'.repeat(40)]) {
      const r = await call(kit.url, e.method, pathOf(e), { token, ...(e.method === 'GET' ? {} : { json: {} }) });
      expect([401, 403], `${e.method} ${e.path} with ${token ?? 'no token'}: ${r.status} ${r.text}`).toContain(
        r.status,
      );
      expectClientError(r);
    }
  }
  // The real service's bodies: gateway `error_message`, account `detail`.
  expect((await call(kit.url, 'GET', `${kit.gw}/metadata/`)).body).toEqual({ error_message: 'invalid token' });
  expect((await call(kit.url, 'GET', accessTokenPath())).body).toEqual({
    detail: 'Authentication credentials were not provided.',
  });
  expect(await call(kit.url, 'GET', accessTokenPath(), { token: 'garbage' })).toMatchObject({
    status: 401,
    body: { detail: 'Invalid token' },
  });
});

test('AUTH-4 a base token for one base opens no other base', async () => {
  const other = kit.srv.descriptor.bases[1]!;
  for (const e of guarded().filter((x) => x.credential === 'base-token')) {
    const r = await call(kit.url, e.method, pathOf(e, other.uuid), {
      token: kit.token,
      ...(e.method === 'GET' ? {} : { json: { table_name: 'x' } }),
    });
    expect(r.status, `${e.method} ${e.path}: ${r.text}`).toBe(403);
    expectClientError(r);
  }
  const own = await call(kit.url, 'GET', `/api-gateway/api/v2/dtables/${other.uuid}/metadata/`, {
    token: await kit.baseToken(other.api_token),
  });
  expect(own.status).toBe(200);
  // An account token is no base token, and an API token is no base token either.
  expectClientError(await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: creds().admin.token }), 403);
  expectClientError(await call(kit.url, 'GET', `${kit.gw}/metadata/`, { token: kit.base.api_token }), 403);
});

test('AUTH-4 a read-only API token mints a base token that reads but does not write', async () => {
  const t = uniq('ReadOnly Base');
  await kit.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
  const created = await call(
    kit.url,
    'POST',
    `/api/v2.1/workspace/${ws()}/dtable/${encodeURIComponent(kit.base.name)}/api-tokens/`,
    { token: creds().admin.token, form: { app_name: uniq('reader'), permission: 'r' } },
  );
  expect(created.status, created.text).toBe(201);
  const ro = await kit.baseToken(created.body.api_token);
  expect(
    (await call(kit.url, 'GET', `${kit.gw}/rows/?table_name=${encodeURIComponent(t)}`, { token: ro })).status,
  ).toBe(200);
  for (const [method, path, json] of [
    ['POST', 'rows/', { table_name: t, rows: [{ Name: 'x' }] }],
    ['POST', 'sql/', { sql: `SELECT * FROM \`${t}\`` }],
    ['DELETE', 'tables/', { table_name: t }],
  ] as const) {
    expectClientError(await call(kit.url, method, `${kit.gw}/${path}`, { token: ro, json }), 403);
  }
  expect(await kit.list(t)).toEqual([]);
});

/**
 * Bad input and isolation on the account family (AUTH-4): every endpoint refuses missing,
 * malformed and out-of-range parameters with a 4xx and an error body, never a 5xx; a team
 * admin sees only their own team, a regular user no admin endpoint, a base token one base.
 */
import { expect, test } from '@playwright/test';
import { ENDPOINTS, fillPath } from '../../spec/index.js';
import { Acct, multipart } from './account-kit.js';
import { call, expectClientError, Kit, serves, type CallOptions, type Res } from './kit.js';

let a: Acct;
let k: Kit;
let app = '';
let readOnlyApi = '';
test.beforeAll(async () => {
  a = await Acct.start();
  k = new Kit(a.srv);
  k.token = await k.baseToken(k.base.api_token);
  await k.createTable('T', [{ column_name: 'Name', column_type: 'text' }]);
  app = (a.srv.ctx.db.prepare('SELECT token FROM apps WHERE dtable_uuid = ?').get(k.base.uuid) as { token: string })
    .token;
  readOnlyApi = (
    await a.call('POST', `/api/v2.1/workspace/1/dtable/${encodeURIComponent(k.base.name)}/api-tokens/`, a.admin, {
      form: { app_name: 'ro', permission: 'r' },
    })
  ).body.api_token;
});
test.afterAll(async () => {
  await a.close();
});

const WS = '/api/v2.1/workspace/1';
const BASE = () => encodeURIComponent(k.base.name);
type Case = [what: string, run: () => Promise<Res>, status?: number];
const req =
  (method: string, path: string, token: () => string, o: Omit<CallOptions, 'token'> = {}) =>
  () =>
    a.call(method, path, token(), o);
const admin = () => a.admin;
const api = () => k.base.api_token;

const CASES: Case[] = [
  ['updateTeamInfo: nothing to update', req('PUT', '/api/v2.1/org/admin/info/', admin, { form: {} }), 400],
  ['updateTeamInfo: empty name', req('PUT', '/api/v2.1/org/admin/info/', admin, { form: { new_org_name: ' ' } }), 400],
  [
    'updateTeamInfo: name too long',
    req('PUT', '/api/v2.1/org/admin/info/', admin, { json: { new_org_name: 'x'.repeat(300) } }),
    400,
  ],
  ['updateTeamInfo: body is an array', req('PUT', '/api/v2.1/org/admin/info/', admin, { json: [1] }), 400],
  [
    'updateTeamInfo: automation limit not a number',
    req('PUT', '/api/v2.1/org/admin/info/', admin, { json: { monthly_automation_limit_per_user: 'ten' } }),
    400,
  ],
  [
    'updateTeam: org id not a number',
    req('PUT', '/api/v2.1/admin/organizations/abc/', admin, { json: { org_name: 'x' } }),
    400,
  ],
  [
    'updateTeam: unknown org',
    req('PUT', '/api/v2.1/admin/organizations/999/', admin, { json: { org_name: 'x' } }),
    404,
  ],
  ['updateTeam: unknown plan', req('PUT', '/api/v2.1/admin/organizations/1/', admin, { json: { role: 'gold' } }), 400],
  [
    'updateTeam: max_user_number 0',
    req('PUT', '/api/v2.1/admin/organizations/1/', admin, { json: { max_user_number: 0 } }),
    400,
  ],
  [
    'updateTeam: fractional row_limit',
    req('PUT', '/api/v2.1/admin/organizations/1/', admin, { json: { row_limit: 1.5 } }),
    400,
  ],
  ['updateTeam: nothing to update', req('PUT', '/api/v2.1/admin/organizations/1/', admin, { json: {} }), 400],
  [
    'updateTeam: an empty list beside a valid field is refused, not dropped',
    req('PUT', '/api/v2.1/admin/organizations/1/', admin, { json: { org_name: 'x', row_limit: [] } }),
    400,
  ],
  [
    'updateTeamInfo: a NUL in the name',
    req('PUT', '/api/v2.1/org/admin/info/', admin, { json: { new_org_name: 'a\u0000b' } }),
    400,
  ],
  [
    'addUserToGroups: group_ids a lone number',
    () => a.call('POST', `/api/v2.1/admin/users/${a.creds.member.id}/groups/`, a.admin, { json: { group_ids: 1 } }),
    400,
  ],
  [
    'createApiToken: a 10,000-character app_name',
    () => a.call('POST', `${WS}/dtable/${BASE()}/api-tokens/`, a.admin, { json: { app_name: 'x'.repeat(10_000) } }),
    400,
  ],
  [
    'authToken: username not a string',
    req('POST', '/api2/auth-token/', () => '', { json: { username: 5, password: 'x' } }),
    400,
  ],
  [
    'updateTeam: malformed JSON',
    req('PUT', '/api/v2.1/admin/organizations/1/', admin, { raw: '{"org_name":', contentType: 'application/json' }),
    400,
  ],
  ['getTeamUser: unknown user', req('GET', '/api/v2.1/org/1/admin/users/nobody@auth.local/', admin), 404],
  [
    'updateTeamUser: nothing to update',
    () => a.call('PUT', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`, a.admin, { form: {} }),
    400,
  ],
  [
    'updateTeamUser: is_active not a boolean',
    () => a.call('PUT', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`, a.admin, { form: { is_active: 'maybe' } }),
    400,
  ],
  [
    'updateTeamUser: contact_email not an address',
    () =>
      a.call('PUT', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`, a.admin, { form: { contact_email: 'nope' } }),
    400,
  ],
  [
    'updateTeamUser: negative quota',
    () => a.call('PUT', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`, a.admin, { form: { quota_total: '-5' } }),
    400,
  ],
  ['addTeamUser: no fields', req('POST', '/api/v2.1/org/1/admin/users/', admin, { form: {} }), 400],
  [
    'addTeamUser: bad email',
    req('POST', '/api/v2.1/org/1/admin/users/', admin, { form: { email: 'bad', password: 'x' } }),
    400,
  ],
  ['addTeamUser: no password', req('POST', '/api/v2.1/org/1/admin/users/', admin, { form: { email: 'a@b.co' } }), 400],
  [
    'updateUser: unknown user',
    req('PUT', '/api/v2.1/admin/users/nobody@auth.local/', admin, { json: { name: 'x' } }),
    404,
  ],
  [
    'updateUser: nothing to update',
    () => a.call('PUT', `/api/v2.1/admin/users/${a.creds.member.id}/`, a.admin, { json: {} }),
    400,
  ],
  [
    'updateUser: is_staff not a boolean',
    () => a.call('PUT', `/api/v2.1/admin/users/${a.creds.member.id}/`, a.admin, { json: { is_staff: 'x' } }),
    400,
  ],
  [
    'updateUser: row_limit not a number',
    () => a.call('PUT', `/api/v2.1/admin/users/${a.creds.member.id}/`, a.admin, { json: { row_limit: 'many' } }),
    400,
  ],
  [
    'listTeamOperations: unknown operation_group',
    req('GET', '/api/v2.1/org/1/admin/admin-logs/?operation_group=everything', admin),
    400,
  ],
  ['listTeamOperations: start not a date', req('GET', '/api/v2.1/org/1/admin/admin-logs/?start=yesterday', admin), 400],
  ['listTeamOperations: 30 February', req('GET', '/api/v2.1/org/1/admin/admin-logs/?start=2025-02-30', admin), 400],
  [
    'listTeamOperations: start after end',
    req('GET', '/api/v2.1/org/1/admin/admin-logs/?start=2025-03-01&end=2025-02-01', admin),
    400,
  ],
  ['listTeamOperations: page 0', req('GET', '/api/v2.1/org/1/admin/admin-logs/?page=0', admin), 400],
  [
    'listTeamOperations: per_page too large',
    req('GET', '/api/v2.1/org/1/admin/admin-logs/?per_page=100000', admin),
    400,
  ],
  [
    'listTeamLogins: unknown login_status',
    req('GET', '/api/v2.1/org/1/admin/login-logs/?login_status=maybe', admin),
    400,
  ],
  ['listTeamLogins: end not a date', req('GET', '/api/v2.1/org/1/admin/login-logs/?end=13/01/2025', admin), 400],
  ['setTeamLogo: no file', () => multipart(a.url, 'POST', '/api/v2.1/org/1/admin/org-logo/', a.admin, {}), 400],
  [
    'setTeamLogo: not an image',
    () =>
      multipart(a.url, 'POST', '/api/v2.1/org/1/admin/org-logo/', a.admin, {}, { file: { name: 'a.txt', data: 'x' } }),
    400,
  ],
  ['setTeamLogo: JSON body', req('POST', '/api/v2.1/org/1/admin/org-logo/', admin, { json: { file: 'x.png' } }), 400],
  [
    'setTeamLogo: larger than the upload limit',
    () =>
      multipart(
        a.url,
        'POST',
        '/api/v2.1/org/1/admin/org-logo/',
        a.admin,
        {},
        { file: { name: 'a.png', data: new Uint8Array(5 * 1024 * 1024) } },
      ),
    413,
  ],
  [
    'setTeamLogo: empty file',
    () =>
      multipart(a.url, 'POST', '/api/v2.1/org/1/admin/org-logo/', a.admin, {}, { file: { name: 'a.png', data: '' } }),
    400,
  ],
  [
    'addUserToGroups: unknown user',
    req('POST', '/api/v2.1/admin/users/nobody@auth.local/groups/', admin, { json: { group_ids: [1] } }),
    404,
  ],
  [
    'addUserToGroups: no groups',
    () => a.call('POST', `/api/v2.1/admin/users/${a.creds.member.id}/groups/`, a.admin, { json: {} }),
    400,
  ],
  [
    'addUserToGroups: empty list',
    () => a.call('POST', `/api/v2.1/admin/users/${a.creds.member.id}/groups/`, a.admin, { json: { group_ids: [] } }),
    400,
  ],
  [
    'addUserToGroups: group id not a number',
    () => a.call('POST', `/api/v2.1/admin/users/${a.creds.member.id}/groups/`, a.admin, { json: { group_ids: ['a'] } }),
    400,
  ],
  ['itemsSearch: no query_str', req('GET', '/api/v2.1/dtable/items-search/', admin), 400],
  [
    'itemsSearch: unknown query_type',
    req('GET', '/api/v2.1/dtable/items-search/?query_str=a&query_type=table', admin),
    400,
  ],
  [
    'externalAppStatus: no is_inactive',
    () => a.call('PUT', `/api/v2.1/external-apps/${app}/status/`, a.admin, { json: {} }),
    400,
  ],
  [
    'externalAppStatus: is_inactive not a boolean',
    () => a.call('PUT', `/api/v2.1/external-apps/${app}/status/`, a.admin, { json: { is_inactive: 'x' } }),
    400,
  ],
  [
    'externalAppStatus: unknown app',
    req('PUT', '/api/v2.1/external-apps/nope/status/', admin, { json: { is_inactive: true } }),
    404,
  ],
  ['searchUserByOrgId: no org_id', req('GET', '/api/v2.1/admin/search-user-by-org-id/?query=a', admin), 400],
  [
    'searchUserByOrgId: org_id not a number',
    req('GET', '/api/v2.1/admin/search-user-by-org-id/?org_id=abc', admin),
    400,
  ],
  ['searchUserByOrgId: unknown org', req('GET', '/api/v2.1/admin/search-user-by-org-id/?org_id=999', admin), 404],
  ['searchUserByOrgId: limit 0', req('GET', '/api/v2.1/admin/search-user-by-org-id/?org_id=1&limit=0', admin), 400],
  [
    'exportBase: unknown base',
    req('GET', '/api/v2.1/admin/dtables/00000000-0000-0000-0000-000000000000/synchronous-export/export-dtable/', admin),
    404,
  ],
  [
    'exportBase: ignore_asset not a boolean',
    () =>
      a.call('GET', `/api/v2.1/admin/dtables/${k.base.uuid}/synchronous-export/export-dtable/?ignore_asset=2`, a.admin),
    400,
  ],
  ['exportBaseUser: no dtable_name', req('GET', `${WS}/synchronous-export/export-dtable/`, admin), 400],
  ['exportBaseUser: unknown base', req('GET', `${WS}/synchronous-export/export-dtable/?dtable_name=nope`, admin), 404],
  [
    'exportBaseUser: workspace not a number',
    req('GET', '/api/v2.1/workspace/abc/synchronous-export/export-dtable/?dtable_name=x', admin),
    400,
  ],
  [
    'exportBaseUser: unknown workspace',
    req('GET', '/api/v2.1/workspace/999/synchronous-export/export-dtable/?dtable_name=x', admin),
    404,
  ],
  [
    'convertBigDataViewToExcel: no table_id',
    () => a.call('GET', `${WS}/dtable/${BASE()}/convert-big-data-view-to-excel/?view_id=0000`, a.admin),
    400,
  ],
  [
    'convertBigDataViewToExcel: no view_id',
    () => a.call('GET', `${WS}/dtable/${BASE()}/convert-big-data-view-to-excel/?table_id=0000`, a.admin),
    400,
  ],
  [
    'convertBigDataViewToExcel: unknown table',
    () => a.call('GET', `${WS}/dtable/${BASE()}/convert-big-data-view-to-excel/?table_id=zzzz&view_id=0000`, a.admin),
    404,
  ],
  [
    'convertBigDataViewToExcel: unknown base',
    req('GET', `${WS}/dtable/nope/convert-big-data-view-to-excel/?table_id=0000&view_id=0000`, admin),
    404,
  ],
  [
    'appendExcelCsvToTable: no file',
    () =>
      multipart(a.url, 'POST', `${WS}/synchronous-import/append-excel-csv-to-table/`, a.admin, {
        dtable_uuid: k.base.uuid,
        table_name: 'T',
      }),
    400,
  ],
  [
    'appendExcelCsvToTable: JSON body',
    () =>
      a.call('POST', `${WS}/synchronous-import/append-excel-csv-to-table/`, a.admin, {
        json: { dtable_uuid: k.base.uuid, table_name: 'T' },
      }),
    400,
  ],
  [
    'appendExcelCsvToTable: unterminated quote',
    () =>
      multipart(
        a.url,
        'POST',
        `${WS}/synchronous-import/append-excel-csv-to-table/`,
        a.admin,
        { dtable_uuid: k.base.uuid, table_name: 'T' },
        { file: { name: 'a.csv', data: 'Name\n"open' } },
      ),
    400,
  ],
  [
    'appendExcelCsvToTable: no matching column',
    () =>
      multipart(
        a.url,
        'POST',
        `${WS}/synchronous-import/append-excel-csv-to-table/`,
        a.admin,
        { dtable_uuid: k.base.uuid, table_name: 'T' },
        { file: { name: 'a.csv', data: 'Other\nx' } },
      ),
    400,
  ],
  [
    'appendExcelCsvToTable: unknown workspace',
    () =>
      multipart(
        a.url,
        'POST',
        '/api/v2.1/workspace/999/synchronous-import/append-excel-csv-to-table/',
        a.admin,
        { dtable_uuid: k.base.uuid, table_name: 'T' },
        { file: { name: 'a.csv', data: 'Name\nx' } },
      ),
    404,
  ],
  [
    'addAppUsers: no users_info',
    () => a.call('POST', `/api/v2.1/universal-apps/${app}/app-users/batch/`, a.admin, { json: {} }),
    400,
  ],
  [
    'addAppUsers: users_info not JSON',
    () => a.call('POST', `/api/v2.1/universal-apps/${app}/app-users/batch/`, a.admin, { form: { users_info: '[{' } }),
    400,
  ],
  [
    'addAppUsers: entry without email',
    () => a.call('POST', `/api/v2.1/universal-apps/${app}/app-users/batch/`, a.admin, { json: { users_info: [{}] } }),
    400,
  ],
  [
    'addAppUsers: role_id not a number',
    () =>
      a.call('POST', `/api/v2.1/universal-apps/${app}/app-users/batch/`, a.admin, {
        json: { users_info: [{ email: 'x', role_id: 'a' }] },
      }),
    400,
  ],
  [
    'addAppUsers: too many users',
    () =>
      a.call('POST', `/api/v2.1/universal-apps/${app}/app-users/batch/`, a.admin, {
        json: { users_info: Array.from({ length: 101 }, (_, i) => ({ email: `u${i}` })) },
      }),
    400,
  ],
  [
    'addAppUsers: unknown app',
    req('POST', '/api/v2.1/universal-apps/nope/app-users/batch/', admin, { json: { users_info: [{ email: 'x' }] } }),
    404,
  ],
  ['listAppUsers: page -1', () => a.call('GET', `/api/v2.1/universal-apps/${app}/app-users/?page=-1`, a.admin), 400],
  ['listAppUsers: unknown app', req('GET', '/api/v2.1/universal-apps/nope/app-users/', admin), 404],
  ['listAppInviteLinks: unknown app', req('GET', '/api/v2.1/universal-apps/nope/invite-links/', admin), 404],
  [
    'customFolderContent: path escapes the folder',
    req('GET', '/api/v2.1/dtable/custom/app-asset-dir/?path=/a/../../x', api),
    400,
  ],
  ['customFolderContent: unknown folder', req('GET', '/api/v2.1/dtable/custom/app-asset-dir/?path=/nope', api), 404],
  [
    'customFileMetadata: name with a slash',
    req('GET', '/api/v2.1/dtable/custom/app-asset-file/?path=/&name=a/b', api),
    400,
  ],
  [
    'customFileMetadata: unknown file',
    req('GET', '/api/v2.1/dtable/custom/app-asset-file/?path=/&name=none.txt', api),
    404,
  ],
  [
    'customUploadLink: path escapes the folder',
    req('GET', '/api/v2.1/dtable/custom/app-upload-link/?path=/..', api),
    400,
  ],
  [
    'customUploadLink: read-only API token',
    () => a.call('GET', '/api/v2.1/dtable/custom/app-upload-link/?path=/', readOnlyApi),
    403,
  ],
  ['customDownloadLink: no path', req('GET', '/api/v2.1/dtable/custom/app-download-link/', api), 400],
  ['customDownloadLink: the folder itself', req('GET', '/api/v2.1/dtable/custom/app-download-link/?path=/', api), 400],
  ['customFileMetadata: no path', req('GET', '/api/v2.1/dtable/custom/app-asset-file/?name=a.txt', api), 400],
  [
    'customDownloadLink: path escapes the folder',
    req('GET', '/api/v2.1/dtable/custom/app-download-link/?path=../x', api),
    400,
  ],
  [
    'createWebhook: not an http URL',
    () => a.call('POST', `${WS}/dtable/${BASE()}/webhooks/`, a.admin, { json: { url: 'javascript:alert(1)' } }),
    400,
  ],
  [
    'createWebhook: secret not a string',
    () => a.call('POST', `${WS}/dtable/${BASE()}/webhooks/`, a.admin, { json: { url: 'http://x/', secret: 5 } }),
    400,
  ],
  [
    'createWebhook: secret with a lone surrogate',
    () =>
      a.call('POST', `${WS}/dtable/${BASE()}/webhooks/`, a.admin, { json: { url: 'http://x/', secret: 'a\ud800' } }),
    400,
  ],
  ['listWebhooks: unknown base', req('GET', `${WS}/dtable/nope/webhooks/`, admin), 404],
  ['deleteWebhook: id not a number', () => a.call('DELETE', `${WS}/dtable/${BASE()}/webhooks/x/`, a.admin), 400],
];

for (const [what, run, status] of CASES) {
  test(`AUTH-4 bad input: ${what} → ${status ?? '4xx'} with an error body`, async () => {
    expectClientError(await run(), status);
  });
}

test('AUTH-4 a multipart body cut short is refused whole: its complete parts are not applied', async () => {
  const B = 'cut';
  const name = `--${B}\r\nContent-Disposition: form-data; name="new_org_name"\r\n\r\nNever applied\r\n`;
  for (const body of [
    name,
    `${name}--${B}\r\n`,
    `${name}--${B}\r\nContent-Disposition: form-data; name="x"\r\n\r\ncut`,
  ]) {
    const r = await a.call('PUT', '/api/v2.1/org/admin/info/', a.admin, {
      raw: body,
      contentType: `multipart/form-data; boundary=${B}`,
    });
    expect(expectClientError(r, 400)).toMatch(/closing boundary/);
  }
  expect((await a.get('/api/v2.1/org/admin/info/')).body.org_name).not.toBe('Never applied');
});

/** Every account endpoint of the table the server registers, with example path parameters. */
function accountEndpoints() {
  const params = {
    org_id: 1,
    user_id: a.creds.member.id,
    username: a.creds.member.id,
    workspace_id: 1,
    base_name: k.base.name,
    base_uuid: k.base.uuid,
    app_token: app,
    webhook_id: 1,
  };
  return ENDPOINTS.filter((e) => e.family === 'account' && serves(a.srv, e)).map((e) => ({
    e,
    path: fillPath(e.path, params),
  }));
}

test('AUTH-4 every account endpoint refuses a call without credentials (403) or with a garbage token (401), with an error body', async () => {
  for (const { e, path } of accountEndpoints()) {
    expectClientError(await call(a.url, e.method, path), e.credential === 'api-token' ? 403 : 403);
    // Account tokens get 401 for a garbage token; API and base tokens (rows-comments-num/) 403.
    expectClientError(
      await call(a.url, e.method, path, { token: 'garbage' }),
      e.credential === 'api-token' || e.credential === 'base-token' ? 403 : 401,
    );
  }
});

test('AUTH-4 no account endpoint answers a 5xx to garbage bodies and parameters', async () => {
  const tokens = [a.admin, k.base.api_token];
  for (const { e, path } of accountEndpoints()) {
    for (const token of tokens) {
      const garbage = `${path}?page=%FF&per_page=-1&org_id=1e99&limit=NaN&start=0&end=%00&path=%2e%2e&name=&ignore_asset=[]&table_id=&view_id=`;
      for (const o of [
        { raw: '{"a":', contentType: 'application/json' },
        { raw: '\u0000\u0001', contentType: 'multipart/form-data; boundary=x' },
        { json: { users_info: 'x', group_ids: {}, is_inactive: [], url: 1 } },
        {},
      ] as CallOptions[]) {
        const r = await call(a.url, e.method, e.method === 'GET' ? garbage : path, {
          token,
          ...(e.method === 'GET' ? {} : o),
        });
        expect(r.status, `${e.method} ${path}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  }
});

test('AUTH-4 isolation: a team admin on another team, a user on admin endpoints, a base token on another base → 403', async () => {
  const otherTeam = [
    ['GET', '/api/v2.1/org/1/admin/admin-logs/'],
    ['GET', '/api/v2.1/org/1/admin/login-logs/'],
    ['GET', '/api/v2.1/org/1/admin/org-logo/'],
    ['POST', '/api/v2.1/org/1/admin/org-logo/'],
    ['DELETE', '/api/v2.1/org/1/admin/org-logo/'],
    ['GET', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`],
    ['PUT', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`],
    ['POST', '/api/v2.1/org/1/admin/users/'],
  ] as const;
  for (const [m, p] of otherTeam)
    expectClientError(await a.call(m, p, a.other, m === 'GET' ? {} : { form: { name: 'x' } }), 403);
  // The system admin is team admin of team 1 only.
  expectClientError(await a.get('/api/v2.1/org/2/admin/admin-logs/'), 403);
  for (const e of ENDPOINTS.filter(
    (x) => x.family === 'account' && (x.credential === 'admin' || x.credential === 'team-admin') && serves(a.srv, x),
  )) {
    const path = fillPath(e.path, {
      org_id: 1,
      user_id: a.creds.admin.id,
      username: a.creds.admin.id,
      base_uuid: k.base.uuid,
    });
    expectClientError(
      await a.call(e.method, path, a.member, e.method === 'GET' ? {} : { json: { org_name: 'x' } }),
      403,
    );
  }
  // A base token for base A opens no other base.
  const other = a.srv.descriptor.bases[1]!.uuid;
  expectClientError(
    await call(a.url, 'GET', `/api-gateway/api/v2/dtables/${other}/rows/?table_name=T`, { token: k.token }),
    403,
  );
  expectClientError(
    await call(a.url, 'POST', `/api/v1/dtables/${other}/archive-view/`, {
      token: k.token,
      json: { table_name: 'T', view_name: 'Default View' },
    }),
    403,
  );
  // An account token of team 2 reaches no base, app or webhook of team 1.
  expectClientError(await a.call('GET', `${WS}/dtable/${BASE()}/webhooks/`, a.other), 403);
  expectClientError(await a.call('GET', `/api/v2.1/universal-apps/${app}/app-users/`, a.other), 403);
  expectClientError(await a.call('GET', `${WS}/synchronous-export/export-dtable/?dtable_name=${BASE()}`, a.other), 403);
});

/** The team and user operations of the account family (ACCT-1..5) against a real reference server. */
import { expect, test } from '@playwright/test';
import { SEED_PNG } from '../store/account/seed.js';
import { Acct, multipart } from './account-kit.js';
import { expectClientError } from './kit.js';

let a: Acct;
test.beforeAll(async () => {
  a = await Acct.start();
});
test.afterAll(async () => {
  await a.close();
});

const TEAM_INFO_FIELDS = [
  'org_id',
  'org_name',
  'storage_quota',
  'storage_usage',
  'member_quota',
  'member_usage',
  'active_members',
  'row_usage',
  'row_total',
  'role',
  'big_data_row_limit',
  'big_data_storage_quota',
  'big_data_total_rows',
  'big_data_total_storage',
  'api_calls_count',
  'api_calls_limit',
  'automation_count',
  'automation_limit',
  'scripts_running_limit',
  'scripts_running_count',
  'ai_cost',
  'ai_credit',
];

test('ACCT-1 Get Team Info answers usage and limits with scripts_running_limit (6.2)', async () => {
  const info = await a.ok('GET', '/api/v2.1/org/admin/info/', a.admin);
  expect(Object.keys(info).sort()).toEqual([...TEAM_INFO_FIELDS].sort());
  expect(info).toMatchObject({
    org_id: 1,
    org_name: 'Conformance Team',
    member_usage: 2,
    api_calls_limit: -1,
    role: 'org_enterprise',
  });
  expect(info.scripts_running_total).toBeUndefined();
  for (const k of TEAM_INFO_FIELDS.filter((x) => !['org_name', 'role'].includes(x)))
    expect(Number.isInteger(info[k]), k).toBe(true);
  expect(info.storage_usage).toBe(a.srv.descriptor.bases.length * SEED_PNG.length); // one seeded asset per base
});

test('ACCT-2 Update Team (system admin) takes plan, limits and monthly_automation_limit_per_user', async () => {
  const t = await a.ok('PUT', '/api/v2.1/admin/organizations/2/', a.admin, {
    json: {
      org_name: 'Renamed',
      role: 'org_plus',
      max_user_number: 20,
      row_limit: 5000,
      monthly_automation_limit_per_user: 50,
    },
  });
  expect(t).toMatchObject({
    org_id: 2,
    org_name: 'Renamed',
    role: 'org_plus',
    max_user_number: 20,
    row_limit: 5000,
    monthly_automation_limit_per_user: 50,
  });
  for (const k of [
    'ctime',
    'org_url_prefix',
    'creator_email',
    'creator_name',
    'creator_contact_email',
    'quota',
    'storage_usage',
    'storage_quota',
    'rows_count',
  ])
    expect(t, k).toHaveProperty(k);
  const info = await a.ok('GET', '/api/v2.1/org/admin/info/', a.other);
  expect(info).toMatchObject({
    org_name: 'Renamed',
    role: 'org_plus',
    member_quota: 20,
    row_total: 5000,
    automation_limit: 50,
  });
});

test('Update Team (team admin) renames the team; an empty update is refused', async () => {
  expect(
    await a.ok('PUT', '/api/v2.1/org/admin/info/', a.admin, { form: { new_org_name: 'Conformance Team' } }),
  ).toEqual({ success: true });
  const r = await multipart(a.url, 'PUT', '/api/v2.1/org/admin/info/', a.admin, { new_org_name: 'Conformance Team' });
  expect(r.status, r.text).toBe(200);
  expectClientError(await a.call('PUT', '/api/v2.1/org/admin/info/', a.admin, { form: {} }), 400);
});

test('ACCT-3 Get User (team admin) has is_active and is_org_admin', async () => {
  const u = await a.ok('GET', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`, a.admin);
  expect(u).toMatchObject({
    email: a.creds.member.id,
    contact_email: 'member@example.com',
    is_active: true,
    is_org_admin: false,
  });
  for (const k of [
    'name',
    'quota_usage',
    'quota_total',
    'avatar_url',
    'id_in_org',
    'has_default_device',
    'is_force_2fa',
  ])
    expect(u, k).toHaveProperty(k);
  expect((await a.ok('GET', '/api/v2.1/org/1/admin/users/admin@example.com/', a.admin)).is_org_admin).toBe(true);
  expectClientError(await a.get('/api/v2.1/org/1/admin/users/nobody@auth.local/'), 404);
});

test('ACCT-2 Update User as team admin and as system admin accept monthly_automation_limit_per_user', async () => {
  const u = await a.ok('PUT', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`, a.admin, {
    form: { name: 'Member Renamed', id_in_org: 'M-1', monthly_automation_limit_per_user: '10' },
  });
  expect(u).toMatchObject({
    name: 'Member Renamed',
    id_in_org: 'M-1',
    monthly_automation_limit_per_user: 10,
    is_active: true,
  });
  for (const k of [
    'email',
    'contact_email',
    'quota_usage',
    'quota_total',
    'id',
    'ctime',
    'last_login',
    'self_usage',
    'quota',
  ])
    expect(u, k).toHaveProperty(k);
  const s = await a.ok('PUT', `/api/v2.1/admin/users/${a.creds.member.id}/`, a.admin, {
    json: { monthly_automation_limit_per_user: 20, unit: 'QA', row_limit: 1000 },
  });
  expect(s).toMatchObject({
    email: a.creds.member.id,
    monthly_automation_limit_per_user: 20,
    unit: 'QA',
    row_limit: 1000,
    is_staff: false,
  });
});

test('Update User deactivates a user: their account token stops working, and again', async () => {
  const srv = await Acct.start();
  try {
    await srv.ok('PUT', `/api/v2.1/admin/users/${srv.creds.member.id}/`, srv.admin, { json: { is_active: false } });
    expect((await srv.get('/api/v2.1/universal-apps/', srv.member)).status).toBe(401);
    expect((await srv.ok('GET', `/api/v2.1/org/1/admin/users/${srv.creds.member.id}/`, srv.admin)).is_active).toBe(
      false,
    );
    await srv.ok('PUT', `/api/v2.1/org/1/admin/users/${srv.creds.member.id}/`, srv.admin, {
      form: { is_active: 'true' },
    });
    expect((await srv.get('/api/v2.1/universal-apps/', srv.member)).status).toBe(200);
  } finally {
    await srv.close();
  }
});

test('Add User (team admin) creates a member who can log in; a full team refuses with 403', async () => {
  const u = await a.ok('POST', '/api/v2.1/org/2/admin/users/', a.other, {
    form: { email: 'new@example.com', name: 'New', password: 'secret-pass' },
  });
  expect(u).toMatchObject({ name: 'New', contact_email: 'new@example.com', is_active: true });
  const login = await a.call('POST', '/api2/auth-token/', undefined, {
    form: { username: 'new@example.com', password: 'secret-pass' },
  });
  expect(login.status, login.text).toBe(200);
  const viaMultipart = await multipart(a.url, 'POST', '/api2/auth-token/', undefined, {
    username: 'new@example.com',
    password: 'secret-pass',
  });
  expect(viaMultipart.body, viaMultipart.text).toEqual(login.body);
  expectClientError(
    await a.call('POST', '/api/v2.1/org/2/admin/users/', a.other, {
      form: { email: 'new@example.com', password: 'x' },
    }),
    400,
  );
  await a.ok('PUT', '/api/v2.1/admin/organizations/2/', a.admin, { json: { max_user_number: 2 } });
  const full = await a.call('POST', '/api/v2.1/org/2/admin/users/', a.other, {
    form: { email: 'third@example.com', password: 'x' },
  });
  expect(full.status).toBe(403);
  expect(full.body).toEqual({ error_msg: 'The number of users exceeds the limit.' });
});

test('ACCT-4 List Team Operations filters by operation_group, start and end, and records real operations', async () => {
  const all = await a.ok('GET', '/api/v2.1/org/1/admin/admin-logs/?per_page=100', a.admin);
  expect(all.total_count).toBeGreaterThanOrEqual(6);
  for (const l of all.logs)
    for (const k of ['email', 'name', 'operation', 'detail', 'datetime']) expect(l, k).toHaveProperty(k);
  const groups = await a.ok('GET', '/api/v2.1/org/1/admin/admin-logs/?operation_group=group&per_page=100', a.admin);
  expect(groups.logs.length).toBeGreaterThan(0);
  expect(groups.logs.every((l: { operation_group: string }) => l.operation_group === 'group')).toBe(true);
  const feb = await a.ok('GET', '/api/v2.1/org/1/admin/admin-logs/?start=2025-02-01&end=2025-02-28', a.admin);
  expect(feb.logs.map((l: { operation: string }) => l.operation).sort()).toEqual(['base_create', 'group_member_add']);
  const febBase = await a.ok(
    'GET',
    '/api/v2.1/org/1/admin/admin-logs/?start=2025-02-01T00:00:00&end=2025-02-28&operation_group=base',
    a.admin,
  );
  expect(febBase.logs.map((l: { operation: string }) => l.operation)).toEqual(['base_create']);
  const page = await a.ok('GET', '/api/v2.1/org/1/admin/admin-logs/?per_page=2&page=2', a.admin);
  expect(page.logs).toHaveLength(2);
  // A real operation: the update-user test above ran first in this file.
  expect(
    all.logs.some((l: { operation: string; datetime: string }) => l.operation === 'user_update' && l.datetime > '2026'),
  ).toBe(true);
});

test('ACCT-4 List Team Logins filters by login_status (and status), start and end, and records real logins', async () => {
  const bad = await a.call('POST', '/api2/auth-token/', undefined, {
    form: { username: 'member@example.com', password: 'wrong' },
  });
  expect(bad.status).toBe(400);
  const failures = await a.ok('GET', '/api/v2.1/org/1/admin/login-logs/?login_status=failure&per_page=100', a.admin);
  expect(failures.login_list.every((l: { login_success: boolean }) => l.login_success === false)).toBe(true);
  expect(failures.login_list[0]).toMatchObject({
    email: a.creds.member.id,
    login_ip: '127.0.0.1',
    login_success: false,
  });
  for (const k of ['login_time', 'login_ip', 'login_success', 'email', 'name', 'contact_email'])
    expect(failures.login_list[0], k).toHaveProperty(k);
  const ok = await a.ok(
    'GET',
    '/api/v2.1/org/1/admin/login-logs/?status=success&start=2025-01-01&end=2025-03-31',
    a.admin,
  );
  expect(ok.login_list.map((l: { login_time: string }) => l.login_time.slice(0, 10))).toEqual([
    '2025-02-12',
    '2025-01-11',
  ]);
  expect(ok.total_count).toBe(2);
});

test('ACCT-5 team logo: set, get the same bytes back, delete', async () => {
  const set = await multipart(
    a.url,
    'POST',
    '/api/v2.1/org/1/admin/org-logo/',
    a.admin,
    {},
    { file: { name: 'logo.png', data: SEED_PNG, type: 'image/png' } },
  );
  expect(set.status, set.text).toBe(200);
  expect(set.body.logo_path).toMatch(/^avatars\/org-logo\/1\/[0-9a-f-]+\.png$/);
  expect(await a.ok('GET', '/api/v2.1/org/1/admin/org-logo/', a.admin)).toEqual({ logo_path: set.body.logo_path });
  const img = await a.bytes('/api/v2.1/org/1/admin/org-logo/', a.admin, { accept: 'image/*' });
  expect(img.status).toBe(200);
  expect(img.type).toBe('image/png');
  expect(img.data.equals(SEED_PNG)).toBe(true);
  expect(await a.ok('DELETE', '/api/v2.1/org/1/admin/org-logo/', a.admin)).toEqual({ success: true });
  expect(await a.ok('GET', '/api/v2.1/org/1/admin/org-logo/', a.admin)).toEqual({ logo_path: null });
  expect((await a.bytes('/api/v2.1/org/1/admin/org-logo/', a.admin, { accept: 'image/png' })).status).toBe(404);
  expectClientError(
    await multipart(
      a.url,
      'POST',
      '/api/v2.1/org/1/admin/org-logo/',
      a.admin,
      {},
      { file: { name: 'logo.exe', data: 'MZ' } },
    ),
    400,
  );
  expectClientError(
    await multipart(a.url, 'POST', '/api/v2.1/org/1/admin/org-logo/', a.admin, { file: 'not a file' }),
    400,
  );
});

test('Add a user to several groups; search users of a team; plugin installation counts', async () => {
  const r = await a.ok('POST', `/api/v2.1/admin/users/${a.creds.member.id}/groups/`, a.admin, {
    json: { group_ids: [2, 1, 99] },
  });
  expect(r.success).toEqual([{ group_id: 2, group_name: 'Reviewers' }]);
  expect(r.failed.map((f: { group_id: number }) => f.group_id)).toEqual([1, 99]);
  const form = await a.ok('POST', `/api/v2.1/admin/users/${a.creds.otherAdmin.id}/groups/`, a.admin, {
    form: { group_ids: '1,2' },
  });
  expect(form.success).toHaveLength(2);
  const users = await a.ok('GET', '/api/v2.1/admin/search-user-by-org-id/?org_id=1&query=admin', a.admin);
  expect(users.users).toEqual([
    { email: a.creds.admin.id, avatar_url: '', name: 'Conformance Admin', contact_email: 'admin@example.com' },
  ]);
  expect((await a.ok('GET', '/api/v2.1/admin/search-user-by-org-id/?org_id=1&limit=1', a.admin)).users).toHaveLength(1);
  const plugins = await a.ok('GET', '/api/v2.1/admin/plugins-install-count/', a.admin);
  expect(plugins.count).toBe(3);
  expect(Object.keys(plugins.plugins_install_count_list[0]).sort()).toEqual([
    'count',
    'created_at',
    'id',
    'plugin_name',
    'updated_at',
  ]);
});

/** Apps, search, custom folders, export, convert-to-Excel and CSV/Excel append of the account family (ACCT-6, ACCT-7). */
import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { BOTH_READERS } from '../../spec/index.js';
import { SEED_ASSET_PATH, SEED_PNG } from '../store/account/seed.js';
import { taskById } from '../store/account/tasks.js';
import { Acct, multipart, unzip } from './account-kit.js';
import { expectClientError, Kit, type Res } from './kit.js';

let a: Acct;
let k: Kit;
test.beforeAll(async () => {
  a = await Acct.start();
  k = new Kit(a.srv);
  k.token = await k.baseToken(k.base.api_token);
  await k.createTable('People', [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Age', column_type: 'number' },
    { column_name: 'Member', column_type: 'checkbox' },
    { column_name: 'Tags', column_type: 'multiple-select' },
  ]);
  await k.append('People', [
    { Name: 'Ada', Age: 36, Member: true, Tags: ['math'] },
    { Name: 'Alan', Age: 41 },
  ]);
});
test.afterAll(async () => {
  await a.close();
});

const ws = '/api/v2.1/workspace/1';
const appToken = () =>
  (a.srv.ctx.db.prepare('SELECT token FROM apps WHERE dtable_uuid = ?').get(k.base.uuid) as { token: string }).token;

test('ACCT-6 external app status switches an app inactive and active again', async () => {
  const off = await a.ok('PUT', `/api/v2.1/external-apps/${appToken()}/status/`, a.admin, {
    json: { is_inactive: true },
  });
  expect(off.external_app).toMatchObject({ token: appToken(), dtable_uuid: k.base.uuid, inactive: true });
  for (const f of [
    'id',
    'app_type',
    'app_config',
    'created_at',
    'external_app_url',
    'visit_times',
    'creator',
    'can_anonymous_access',
  ])
    expect(off.external_app, f).toHaveProperty(f);
  const on = await a.ok('PUT', `/api/v2.1/external-apps/${appToken()}/status/`, a.admin, {
    form: { is_inactive: 'false' },
  });
  expect(on.external_app.inactive).toBe(false);
  expectClientError(
    await a.call('PUT', `/api/v2.1/external-apps/${appToken()}/status/`, a.admin, { json: { is_inactive: 'maybe' } }),
    400,
  );
  expectClientError(
    await a.call('PUT', '/api/v2.1/external-apps/nope/status/', a.admin, { json: { is_inactive: true } }),
    404,
  );
  expectClientError(
    await a.call('PUT', `/api/v2.1/external-apps/${appToken()}/status/`, a.other, { json: { is_inactive: true } }),
    403,
  );
});

test('universal apps: list, add app users in a batch, list them, list invite links', async () => {
  const apps = await a.ok('GET', '/api/v2.1/universal-apps/', a.admin);
  expect(apps.my_managed_apps.length).toBe(a.srv.descriptor.bases.length); // one seeded app per base
  expect(apps.can_use_apps).toEqual([]);
  const mine = apps.my_managed_apps.find((x: { dtable_uuid: string }) => x.dtable_uuid === k.base.uuid);
  for (const f of [
    'app_user_id',
    'app_id',
    'app_name',
    'app_token',
    'app_config',
    'role_name',
    'permission',
    'dtable_uuid',
    'dtable_name',
    'workspace_id',
    'link',
    'edit_link',
    'joined_at',
  ])
    expect(mine, f).toHaveProperty(f);
  expect(typeof mine.app_config).toBe('string');
  const add = await a.ok('POST', `/api/v2.1/universal-apps/${mine.app_token}/app-users/batch/`, a.admin, {
    json: { users_info: [{ email: a.creds.otherAdmin.id, role_id: 2 }, { email: 'ghost@auth.local' }] },
  });
  expect(add.success).toHaveLength(1);
  expect(add.success[0]).toMatchObject({
    email: a.creds.otherAdmin.id,
    role_id: 2,
    role_name: 'editor',
    role_permission: 'rw',
    is_active: true,
  });
  expect(add.failed).toEqual([{ email: 'ghost@auth.local', error_msg: 'User not found.' }]);
  const again = await a.ok('POST', `/api/v2.1/universal-apps/${mine.app_token}/app-users/batch/`, a.admin, {
    json: { users_info: [{ email: 'other-admin@example.com' }] },
  });
  expect(again.failed).toHaveLength(1);
  const users = await a.ok('GET', `/api/v2.1/universal-apps/${mine.app_token}/app-users/`, a.admin);
  expect(users.total_count).toBe(1);
  for (const f of [
    'id',
    'email',
    'created_at',
    'is_active',
    'name',
    'app_name',
    'role_id',
    'role_name',
    'role_permission',
    'avatar_url',
  ])
    expect(users.app_users[0], f).toHaveProperty(f);
  const links = await a.ok('GET', `/api/v2.1/universal-apps/${mine.app_token}/invite-links/`, a.admin);
  expect(links.app_share_links).toHaveLength(1);
  for (const f of [
    'username',
    'token',
    'link',
    'app_name',
    'app_id',
    'expire_date',
    'ctime',
    'is_protected',
    'role_name',
    'role_permission',
    'role_id',
  ])
    expect(links.app_share_links[0], f).toHaveProperty(f);
  // The new app user can use the app now, without managing it.
  expect(
    (await a.ok('GET', '/api/v2.1/universal-apps/', a.other)).can_use_apps.map(
      (x: { app_token: string }) => x.app_token,
    ),
  ).toEqual([mine.app_token]);
});

test('items search finds bases and apps of the user by name', async () => {
  const all = await a.ok('GET', '/api/v2.1/dtable/items-search/?query_str=Conformance%20A', a.admin);
  expect(all.results.map((r: { type: string; name: string }) => `${r.type}:${r.name}`).sort()).toEqual([
    'app:Conformance A App',
    'base:Conformance A',
  ]);
  for (const f of ['id', 'workspace_id', 'uuid', 'name', 'created_at', 'updated_at', 'group_name', 'type', 'starred'])
    expect(all.results[0], f).toHaveProperty(f);
  expect(
    (await a.ok('GET', '/api/v2.1/dtable/items-search/?query_str=Conformance&query_type=base', a.admin)).results,
  ).toHaveLength(a.srv.descriptor.bases.length);
  expect((await a.ok('GET', '/api/v2.1/dtable/items-search/?query_str=Conformance', a.other)).results).toEqual([]);
});

/** The link answer reads the same at the top level (the Python client) and inside `dirent` (the API description's example). */
function bothReaders(id: 'customUploadLink' | 'customDownloadLink', answer: Record<string, unknown>) {
  const dirent = answer.dirent as Record<string, unknown>;
  for (const f of BOTH_READERS[id].fields) {
    expect(typeof answer[f], `${id}: ${f} at the top level (${BOTH_READERS[id].topLevel.cite})`).toBe('string');
    expect(dirent?.[f], `${id}: ${f} inside dirent, the same (${BOTH_READERS[id].dirent.cite})`).toBe(answer[f]);
  }
}

test('custom folder: upload through the upload link, list, file metadata, download the same bytes', async () => {
  const api = k.base.api_token;
  const answer = await a.ok('GET', '/api/v2.1/dtable/custom/app-upload-link/?path=/reports', api);
  bothReaders('customUploadLink', answer);
  const link = answer.dirent;
  expect(link).toMatchObject({
    parent_path: `/asset/${k.base.uuid}/custom`,
    relative_path: '/reports',
    workspace_id: 1,
  });
  expect(link.upload_link).toMatch(/\/seafhttp\/upload-api\/[0-9a-f-]{36}$/);
  const up = await multipart(
    a.url,
    'POST',
    link.upload_link.slice(a.url.length) + '?ret-json=1',
    undefined,
    { parent_dir: link.parent_path, relative_path: link.relative_path, replace: '0' },
    { file: { name: 'q1.txt', data: 'quarter one' } },
  );
  expect(up.status, up.text).toBe(200);
  expect(up.body[0]).toMatchObject({ name: 'q1.txt', size: 11 });
  expect(await a.ok('GET', '/api/v2.1/dtable/custom/app-asset-dir/?path=/', api)).toEqual({
    dir: [{ name: 'reports' }],
    file: [],
  });
  expect(await a.ok('GET', '/api/v2.1/dtable/custom/app-asset-dir/?path=/reports', api)).toEqual({
    dir: [],
    file: [{ name: 'q1.txt' }],
  });
  const meta = await a.ok('GET', '/api/v2.1/dtable/custom/app-asset-file/?path=/reports&name=q1.txt', api);
  expect(meta.dirent).toMatchObject({ obj_name: 'q1.txt', file_size: 11 });
  const dlAnswer = await a.ok('GET', '/api/v2.1/dtable/custom/app-download-link/?path=/reports/q1.txt', api);
  bothReaders('customDownloadLink', dlAnswer);
  const dl = dlAnswer.dirent;
  const file = await a.bytes(dl.download_link.slice(a.url.length), undefined);
  expect(file.data.toString()).toBe('quarter one');
  expectClientError(await a.call('GET', '/api/v2.1/dtable/custom/app-download-link/?path=/reports/none.txt', api), 404);
  expectClientError(await a.call('GET', '/api/v2.1/dtable/custom/app-asset-dir/?path=/../../etc', api), 400);
  expectClientError(await a.call('GET', '/api/v2.1/dtable/custom/app-asset-dir/?path=/', a.admin), 403);
  // The link writes into its own folder only, and needs the parent_dir it named.
  expectClientError(
    await multipart(
      a.url,
      'POST',
      link.upload_link.slice(a.url.length),
      undefined,
      { relative_path: 'images' },
      { file: { name: 'x.txt', data: 'x' } },
    ),
    400,
  );
  expectClientError(
    await multipart(
      a.url,
      'POST',
      link.upload_link.slice(a.url.length),
      undefined,
      { parent_dir: link.parent_path, relative_path: 'images' },
      { file: { name: 'x.txt', data: 'x' } },
    ),
    400,
  );
  // Delete a Base Asset (Custom Folder): gone from the listing and from its download link.
  expect(await a.ok('DELETE', '/api/v2.1/dtable/custom/app-asset-file/?path=/reports/q1.txt', api)).toEqual({
    success: true,
  });
  expect(await a.ok('GET', '/api/v2.1/dtable/custom/app-asset-dir/?path=/', api)).toEqual({ dir: [], file: [] });
  expect((await a.bytes(dl.download_link.slice(a.url.length), undefined)).status).toBe(404);
  expectClientError(await a.call('DELETE', '/api/v2.1/dtable/custom/app-asset-file/?path=/reports/q1.txt', api), 404);
});

test('ACCT-7 export a base as a zip with its assets, and without them (ignore_asset=true)', async () => {
  for (const path of [
    `/api/v2.1/admin/dtables/${k.base.uuid}/synchronous-export/export-dtable/`,
    `${ws}/synchronous-export/export-dtable/?dtable_name=${encodeURIComponent(k.base.name)}`,
  ]) {
    const full = await a.bytes(path, a.admin);
    expect(full.status).toBe(200);
    expect(full.type).toBe('application/zip');
    const files = unzip(full.data);
    expect(files.get(`assets/${SEED_ASSET_PATH}`)?.equals(SEED_PNG)).toBe(true);
    const meta = JSON.parse(files.get('metadata.json')!.toString());
    expect(meta.tables.map((t: { name: string }) => t.name)).toEqual(['People']);
    const rows = JSON.parse(files.get('rows.json')!.toString());
    expect(rows.tables[0].rows).toHaveLength(2);
    const sep = path.includes('?') ? '&' : '?';
    const bare = unzip((await a.bytes(`${path}${sep}ignore_asset=true`, a.admin)).data);
    expect([...bare.keys()].sort()).toEqual(['metadata.json', 'rows.json']);
  }
  expectClientError(
    await a.get(`/api/v2.1/admin/dtables/${k.base.uuid}/synchronous-export/export-dtable/?ignore_asset=perhaps`),
    400,
  );
  expectClientError(
    await a.get(`/api/v2.1/admin/dtables/${k.base.uuid}/synchronous-export/export-dtable/`, a.member),
    403,
  );
});

test('convert a view to Excel: answers a task id; the task is recorded and produces the workbook', async () => {
  const t = await k.table('People');
  const r = await a.ok(
    'GET',
    `${ws}/dtable/${encodeURIComponent(k.base.name)}/convert-big-data-view-to-excel/?table_id=${t._id}&view_id=${t.views[0]._id}`,
    a.admin,
  );
  expect(r.task_id).toMatch(/^\d{13,}$/);
  await expect.poll(() => taskById(a.srv.ctx.db, r.task_id)?.status).toBe('success');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(taskById(a.srv.ctx.db, r.task_id)!.result! as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([undefined, 'Name', 'Age', 'Member', 'Tags']);
  expect(sheet.getRow(2).values).toEqual([undefined, 'Ada', 36, true, 'math']);
  expect(sheet.rowCount).toBe(3);
  expectClientError(
    await a.get(
      `${ws}/dtable/${encodeURIComponent(k.base.name)}/convert-big-data-view-to-excel/?table_id=${t._id}&view_id=nope`,
    ),
    404,
  );
});

test('append a CSV file and an Excel file to a table; the rows API checks and limits apply', async () => {
  const path = `${ws}/synchronous-import/append-excel-csv-to-table/`;
  const toPeople = { dtable_uuid: k.base.uuid, table_name: 'People' };
  const append = (name: string, data: string | Buffer, fields: Record<string, string> = toPeople, token = a.admin) =>
    multipart(a.url, 'POST', path, token, fields, { file: { name, data } });
  const csv = 'Name,Age,Member,Tags,Unknown\n"Grace, RA",85,yes,"navy, cobol",x\nLinus,,0,,\n';
  const r = await append('people.csv', csv);
  expect(r.status, r.text).toBe(200);
  expect(r.body).toMatchObject({ success: true, inserted_row_count: 2 });
  const rows = await k.list('People');
  expect(rows.find((x) => x.Name === 'Grace, RA')).toMatchObject({ Age: 85, Member: true, Tags: ['navy', 'cobol'] });
  expect(rows.find((x) => x.Name === 'Linus')).toMatchObject({ Age: null, Member: false });

  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('S');
  sheet.addRow(['Name', 'Age']);
  sheet.addRow(['Barbara', 60]);
  const x = await append('more.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
  expect(x.status, x.text).toBe(200);
  expect((await k.list('People')).find((r) => r.Name === 'Barbara')?.Age).toBe(60);

  // Refused, and nothing appended: a wrong cell type, more rows than one call may add, files
  // that are not CSV or Excel, an unknown table, no base, a user without access.
  const before = await k.count('People');
  const big = 'Name\n' + Array.from({ length: 1001 }, (_, i) => `r${i}`).join('\n');
  const refused: [() => Promise<Res>, number][] = [
    [() => append('bad.csv', 'Name,Age\nA,1\nB,old\n'), 400],
    [() => append('big.csv', big), 400],
    [() => append('x.pdf', '%PDF'), 400],
    [() => append('x.xlsx', 'not a zip'), 400],
    [() => append('a.csv', 'Name\nA', { dtable_uuid: k.base.uuid, table_name: 'Nope' }), 404],
    [() => append('a.csv', 'Name\nA', { table_name: 'People' }), 400],
    [() => append('a.csv', 'Name\nA', toPeople, a.other), 403],
  ];
  for (const [call, status] of refused) expectClientError(await call(), status);
  expect(await k.count('People')).toBe(before);
});

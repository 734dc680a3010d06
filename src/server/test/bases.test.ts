/** Finding and managing bases (ACCT-8): account info, workspaces, create, copy, delete; a copy survives a restart. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { Acct, multipart } from './account-kit.js';
import { call, expectClientError, Kit } from './kit.js';

let a: Acct;
test.beforeAll(async () => {
  a = await Acct.start();
});
test.afterAll(async () => {
  await a.close();
});

const shaped = (id: string, body: unknown) => {
  const r = RESPONSES[id]!.safeParse(body);
  expect(r.success, `${id}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
  return body as any;
};

/** A base token of a base by name in workspace 1, through a fresh API token. */
async function open(acct: Acct, name: string): Promise<{ kit: Kit; api: string }> {
  const t = await acct.call(
    'POST',
    `/api/v2.1/workspace/1/dtable/${encodeURIComponent(name)}/api-tokens/`,
    acct.admin,
    { form: { app_name: 'tests', permission: 'rw' } },
  );
  expect(t.status, t.text).toBe(201);
  const access = await call(acct.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: t.body.api_token });
  const kit = new Kit(acct.srv, { name, uuid: access.body.dtable_uuid, api_token: t.body.api_token });
  kit.token = access.body.access_token;
  return { kit, api: t.body.api_token };
}

test('ACCT-8 account info: the documented fields, the user id as email', async () => {
  const info = shaped('getAccountInfo', await a.ok('GET', '/api2/account/info/', a.admin));
  expect(info).toMatchObject({
    email: a.creds.admin.id,
    contact_email: 'admin@example.com',
    name: 'Conformance Admin',
    is_staff: true,
    org_id: 1,
    is_org_staff: 1,
  });
  expect((await a.ok('GET', '/api2/account/info/', a.member)).is_staff).toBe(false);
  expectClientError(await a.get('/api2/account/info/', 'garbage'), 401);
});

test("ACCT-8 list workspaces: starred, shared, then the user's group workspace with its bases; detail=false leaves the bases out", async () => {
  const list = shaped('listWorkspaces', await a.ok('GET', '/api/v2.1/workspaces/', a.admin)).workspace_list;
  expect(list.slice(0, 2).map((w: { id: unknown; type: string }) => [w.id, w.type])).toEqual([
    ['', 'starred'],
    ['', 'shared'],
  ]);
  const group = list.find((w: { id: unknown }) => w.id === 1);
  expect(group).toMatchObject({ type: 'group', group_id: 1, name: 'Conformance Group', group_member_count: 2 });
  expect(group.table_list.map((b: { uuid: string }) => b.uuid).sort()).toEqual(a.creds.bases.map((b) => b.uuid).sort());
  expect(group.table_list[0]).toMatchObject({
    workspace_id: 1,
    creator: 'Conformance Admin',
    icon: null,
    starred: false,
  });
  expect(list.some((w: { id: unknown }) => w.id === 2)).toBe(false); // the other team's
  const bare = await a.ok('GET', '/api/v2.1/workspaces/?detail=false', a.admin);
  expect(bare.workspace_list.every((w: object) => Object.keys(w).sort().join() === 'id,name,type')).toBe(true);
  expect(
    (await a.ok('GET', '/api/v2.1/workspaces/', a.member)).workspace_list.some((w: { id: unknown }) => w.id === 1),
  ).toBe(true);
  expect(
    (await a.ok('GET', '/api/v2.1/workspaces/', a.other)).workspace_list.map((w: { id: unknown }) => w.id),
  ).toEqual(['', '', 2]);
});

test('ACCT-8 create a base, use it, copy it with its tables and rows, delete both: their tokens stop working', async () => {
  const made = await multipart(a.url, 'POST', '/api/v2.1/dtables/', a.admin, {
    name: 'Fresh',
    workspace_id: '1',
    icon: 'icon-worksheet',
    color: '#E91E63',
  });
  expect(made.status, made.text).toBe(201);
  expect(shaped('createBase', made.body).table).toMatchObject({
    name: 'Fresh',
    workspace_id: 1,
    icon: 'icon-worksheet',
    color: '#E91E63',
    is_encrypted: false,
    in_storage: true,
  });
  const fresh = await open(a, 'Fresh');
  expect((await fresh.kit.metadata()).tables).toEqual([]);
  await fresh.kit.createTable('Things', [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Other', column_type: 'text' },
  ]);
  await fresh.kit.createTable('Owners', [{ column_name: 'Who', column_type: 'text' }]);
  const link = await fresh.kit.addColumn('Things', {
    column_name: 'Owner',
    column_type: 'link',
    column_data: { other_table: 'Owners' },
  });
  const [thing] = await fresh.kit.append('Things', [{ Name: 'lamp' }]);
  const [owner] = await fresh.kit.append('Owners', [{ Who: 'Ada' }]);
  await fresh.kit.gwCall('POST', 'links/', {
    json: {
      table_name: 'Things',
      other_table_name: 'Owners',
      link_id: link.data.link_id,
      other_rows_ids_map: { [thing!]: [owner] },
    },
  });

  const copied = shaped(
    'copyBaseFromWorkspace',
    await a.ok('POST', '/api/v2.1/dtable-copy/', a.admin, {
      form: { src_workspace_id: '1', name: 'Fresh', dst_workspace_id: '1' },
    }),
  );
  expect(copied.dtable).toMatchObject({ name: 'Fresh (1)', workspace_id: 1, icon: 'icon-worksheet' });
  const copy = await open(a, 'Fresh (1)');
  expect(copy.kit.base.uuid).toBe(copied.dtable.uuid);
  expect((await copy.kit.metadata()).tables.map((t) => t.name)).toEqual(['Things', 'Owners']);
  expect(await copy.kit.list('Things')).toEqual([
    expect.objectContaining({ _id: thing, Name: 'lamp', Owner: [{ row_id: owner, display_value: 'Ada' }] }),
  ]);
  // The copy is a base of its own: a write to it leaves the original alone.
  await copy.kit.append('Things', [{ Name: 'chair' }]);
  expect(await fresh.kit.count('Things')).toBe(1);

  const dbs = [fresh, copy].map((b) => a.srv.ctx.store.base(b.kit.base.uuid)!.db);
  for (const [name, b] of [
    ['Fresh', fresh],
    ['Fresh (1)', copy],
  ] as const) {
    expect(
      shaped('deleteBase', await a.ok('DELETE', '/api/v2.1/workspace/1/dtable/', a.admin, { json: { name } })),
    ).toEqual({ success: true });
    expectClientError(await call(a.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: b.api }), 403);
    expectClientError(await b.kit.gwCall('GET', 'metadata/'), 403);
  }
  // Each base's own database (its rows, links, structure) is closed and gone with it.
  expect(dbs.map((d) => d.open)).toEqual([false, false]);
  expect([fresh, copy].map((b) => a.srv.ctx.store.base(b.kit.base.uuid))).toEqual([undefined, undefined]);
  expect(
    (await a.ok('GET', '/api/v2.1/workspaces/', a.admin)).workspace_list.find((w: { id: unknown }) => w.id === 1)
      .table_list,
  ).toHaveLength(a.srv.descriptor.bases.length);
});

test("ACCT-8 create base the Python client's way (owner): the user's own workspace, or a group's", async () => {
  const mine = await a.call('POST', '/api/v2.1/dtables/', a.member, {
    form: { name: 'Private', owner: a.creds.member.id },
  });
  expect(mine.status, mine.text).toBe(201);
  const ws = mine.body.table.workspace_id;
  const list = (await a.ok('GET', '/api/v2.1/workspaces/', a.member)).workspace_list;
  expect(list.find((w: { id: unknown }) => w.id === ws)).toMatchObject({
    type: 'personal',
    owner_type: 'Personal',
    table_list: [expect.objectContaining({ name: 'Private' })],
  });
  const group = await a.call('POST', '/api/v2.1/dtables/', a.member, {
    form: { name: 'Team Base', owner: '1@seafile_group' },
  });
  expect(group.body.table?.workspace_id, group.text).toBe(1);
  // Delete Base as the OpenAPI sends it: multipart `name`.
  expect(
    (await multipart(a.url, 'DELETE', '/api/v2.1/workspace/1/dtable/', a.admin, { name: 'Team Base' })).body,
  ).toEqual({ success: true });
});

test('ACCT-8 bad calls are refused with nothing written', async () => {
  const count = () => (a.srv.ctx.db.prepare('SELECT count(*) AS n FROM bases').get() as { n: number }).n;
  const workspaces = () => (a.srv.ctx.db.prepare('SELECT count(*) AS n FROM workspaces').get() as { n: number }).n;
  const [bases, spaces] = [count(), workspaces()];
  const post = (form: Record<string, string>, token = a.admin) => a.call('POST', '/api/v2.1/dtables/', token, { form });
  expectClientError(await post({ workspace_id: '1' }), 400);
  expectClientError(await post({ name: 'a/b', workspace_id: '1' }), 400);
  expectClientError(await post({ name: 'x', workspace_id: 'one' }), 400);
  expectClientError(await post({ name: 'x', workspace_id: '999' }), 404);
  expectClientError(await post({ name: 'x', workspace_id: '2' }, a.member), 403); // another team's (a system admin may use every workspace)
  expectClientError(await post({ name: 'x', owner: '99@seafile_group' }), 404);
  expectClientError(await post({ name: 'x', owner: a.creds.member.id }), 403);
  expectClientError(await post({ name: a.creds.bases[0]!.name, workspace_id: '1' }), 409);
  expectClientError(await post({ name: 'x', workspace_id: '1', icon: 'i'.repeat(100) }), 400);
  const copy = (form: Record<string, string>, token = a.admin) =>
    a.call('POST', '/api/v2.1/dtable-copy/', token, { form });
  expectClientError(await copy({ src_workspace_id: '1', dst_workspace_id: '1' }), 400);
  expectClientError(await copy({ src_workspace_id: '1', name: 'nope', dst_workspace_id: '1' }), 404);
  expectClientError(
    await copy({ src_workspace_id: '1', name: a.creds.bases[0]!.name, dst_workspace_id: '2' }, a.member),
    403,
  );
  expectClientError(await a.call('DELETE', '/api/v2.1/workspace/1/dtable/', a.admin, { form: {} }), 400);
  expectClientError(await a.call('DELETE', '/api/v2.1/workspace/1/dtable/', a.admin, { form: { name: 'nope' } }), 404);
  expectClientError(
    await a.call('DELETE', '/api/v2.1/workspace/1/dtable/', a.other, { form: { name: a.creds.bases[0]!.name } }),
    403,
  );
  expect([count(), workspaces()]).toEqual([bases, spaces]);
});

test('ACCT-8 a created and a copied base, a temporary API token and an upload link survive a restart on the same --data file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-bases-'));
  try {
    const file = join(dir, 'bases.sqlite');
    const first = await Acct.start({ dataFile: file });
    let uuid: string;
    let temp: string;
    let link: { upload_link: string; parent_path: string; file_relative_path: string };
    try {
      expect(
        (await first.call('POST', '/api/v2.1/dtables/', first.admin, { form: { name: 'Kept', workspace_id: '1' } }))
          .status,
      ).toBe(201);
      const kept = await open(first, 'Kept');
      await kept.kit.createTable('T', [{ column_name: 'Name', column_type: 'text' }]);
      await kept.kit.append('T', [{ Name: 'kept' }]);
      uuid = (
        await first.ok('POST', '/api/v2.1/dtable-copy/', first.admin, {
          form: { src_workspace_id: '1', name: 'Kept', dst_workspace_id: '1' },
        })
      ).dtable.uuid;
      temp = (await first.ok('GET', '/api/v2.1/workspace/1/dtable/Kept/temp-api-token/', first.admin)).api_token;
      link = await first.ok('GET', '/api/v2.1/dtable/app-upload-link/', kept.api);
    } finally {
      await first.close();
    }
    const second = await Acct.start({ dataFile: file });
    try {
      const copy = await open(second, 'Kept (1)');
      expect(copy.kit.base.uuid).toBe(uuid!);
      expect((await copy.kit.list('T')).map((r) => r.Name)).toEqual(['kept']);
      expect((await call(second.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: temp! })).status).toBe(200);
      const up = await multipart(
        second.url,
        'POST',
        new URL(link!.upload_link).pathname,
        undefined,
        { parent_dir: link!.parent_path, relative_path: link!.file_relative_path },
        { file: { name: 'after.txt', data: 'restart' } },
      );
      expect(up.status, up.text).toBe(200);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

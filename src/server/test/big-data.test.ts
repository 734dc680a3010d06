/**
 * The big-data store (BASE-6): add-archived-rows, archive-view, unarchive, SQL over both
 * stores, the operation log and its restore; answers parsed with the documented shapes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { expectClientError, Kit, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

const parse = (id: string, body: unknown) => RESPONSES[id as keyof typeof RESPONSES]!.parse(body);
const names = (rows: Record<string, unknown>[]) => rows.map((r) => r.Name).sort();

async function table(rows: Record<string, unknown>[] = []) {
  const t = uniq('Big');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
  ]);
  const ids = rows.length ? await kit.append(t, rows) : [];
  return { t, ids, id: (await kit.table(t))._id };
}

const addBig = (t: string, rows: unknown) =>
  kit.gwCall('POST', 'add-archived-rows/', { json: { table_name: t, rows } });
const ops = async () =>
  parse('getBaseBigDataOperations', (await kit.gwCall('GET', 'db-operations/?per_page=1000')).body) as {
    operations: { id: number; op_type: string; operation: string }[];
  };

test('BASE-6 add-archived-rows: SQL counts the rows, the row list does not show them, SELECT * reads _archived', async () => {
  const { t } = await table([{ Name: 'normal', N: 1 }]);
  const r = await addBig(t, [
    { Name: 'big 1', N: 10 },
    { Name: 'big 2', N: 20 },
  ]);
  expect(r.status, r.text).toBe(200);
  expect(parse('addBigDataRows', r.body)).toEqual({ inserted_row_count: 2 });
  expect(names(await kit.list(t))).toEqual(['normal']);
  expect(await kit.count(t)).toBe(3);
  const all = (await kit.sql(`SELECT * FROM \`${t}\``)).results;
  expect(all.map((x) => [x.Name, x._archived]).sort()).toEqual([
    ['big 1', true],
    ['big 2', true],
    ['normal', false],
  ]);
  expect((await kit.sql(`SELECT Name FROM \`${t}\` WHERE N >= ? ORDER BY N DESC LIMIT 1`, [5])).results).toEqual([
    { Name: 'big 2' },
  ]);
});

test('BASE-6 SQL with server_only: true reads the normal store only (OA62 querySQL)', async () => {
  const { t } = await table([{ Name: 'normal', N: 1 }]);
  expect((await addBig(t, [{ Name: 'big', N: 10 }])).status).toBe(200);
  const sql = (server_only?: boolean) =>
    kit.gwCall('POST', 'sql/', { json: { sql: `SELECT Name FROM \`${t}\``, convert_keys: true, server_only } });
  const read = async (server_only?: boolean) =>
    names((await sql(server_only)).body.results as Record<string, unknown>[]);
  expect(await read(true)).toEqual(['normal']);
  expect(await read(false)).toEqual(['big', 'normal']);
  expect(await read()).toEqual(['big', 'normal']);
});

test('BASE-6 add-archived-rows refuses bad input with nothing written', async () => {
  const { t } = await table();
  const before = (await ops()).operations.length;
  expectClientError(await addBig(t, { Name: 'not a list' }), 400);
  expectClientError(await addBig(t, [{ Name: 'ok' }, { N: 'not a number' }]), 400);
  expectClientError(
    await addBig(
      t,
      Array.from({ length: 1001 }, () => ({ Name: 'x' })),
    ),
    400,
  );
  expectClientError(
    await kit.gwCall('POST', 'add-archived-rows/', { json: { table_name: 'No Such Table', rows: [] } }),
    404,
  );
  expect(await kit.count(t)).toBe(0);
  expect((await ops()).operations.length).toBe(before);
});

test("BASE-6 archive-view moves exactly the view's rows; SQL UPDATE and DELETE reach them; unarchive brings them back", async () => {
  const { t, ids, id } = await table([
    { Name: 'keep', N: 1 },
    { Name: 'move 1', N: 11 },
    { Name: 'move 2', N: 12 },
  ]);
  await kit.gwCall('POST', 'views/', {
    json: { table_name: t, name: 'Big', filters: [{ column_name: 'N', filter_predicate: 'greater', filter_term: 10 }] },
  });
  const cachedList = await kit.list(t);
  expect(cachedList).toHaveLength(3);
  const a = await kit.gwCall('POST', 'archive-view/', { json: { table_name: t, view_name: 'Big' } });
  expect(a.status, a.text).toBe(200);
  parse('archiveViewGateway', a.body);
  // The list answer of before (cached by base version) is not served again.
  expect(names(await kit.list(t))).toEqual(['keep']);
  expect(await kit.count(t)).toBe(3);
  expect((await kit.sql(`UPDATE \`${t}\` SET N = 99 WHERE Name = 'move 1'`)).affected_rows).toBe(1);
  expect((await kit.sql(`SELECT N FROM \`${t}\` WHERE Name = 'move 1'`)).results).toEqual([{ N: 99 }]);
  // A row of the normal store is no big-data row: nothing moves.
  expectClientError(await kit.gwCall('POST', 'unarchive/', { json: { table_id: id, row_ids: [ids[1], ids[0]] } }), 404);
  expect(names(await kit.list(t))).toEqual(['keep']);
  const u = await kit.gwCall('POST', 'unarchive/', { json: { table_id: id, row_ids: [ids[1]] } });
  expect(u.status, u.text).toBe(200);
  expect(parse('moveRowsToNormalBackend', u.body)).toMatchObject({ success: true });
  expect((await kit.list(t)).map((r) => [r.Name, r.N, r._archived])).toEqual([
    ['keep', 1, false],
    ['move 1', 99, false],
  ]);
  expect((await kit.sql(`DELETE FROM \`${t}\` WHERE N > 10`)).affected_rows).toBe(2);
  expect(await kit.count(t)).toBe(1);
});

test('BASE-6 db-operations logs big-data adds and deletes, newest first, paginated; restore undoes one, once', async () => {
  const { t } = await table();
  await addBig(t, [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }]);
  await kit.sql(`DELETE FROM \`${t}\` WHERE Name = 'b'`);
  const page1 = parse(
    'getBaseBigDataOperations',
    (await kit.gwCall('GET', 'db-operations/?page=1&per_page=2')).body,
  ) as { operations: { id: number; op_type: string; operation: string }[] };
  expect(page1.operations.map((o) => o.op_type)).toEqual(['delete_row', 'add_row']);
  const page2 = (await kit.gwCall('GET', 'db-operations/?page=2&per_page=2')).body as typeof page1;
  expect(page2.operations[0]!.id).toBeLessThan(page1.operations[1]!.id);
  expect(JSON.parse(page1.operations[0]!.operation).row_data['0000']).toBe('b');
  const del = page1.operations[0]!.id;
  const r = await kit.gwCall('PUT', `restore-operations/${del}/`);
  expect(r.status, r.text).toBe(200);
  parse('restoreBigDataOperations', r.body);
  expect((await kit.sql(`SELECT Name FROM \`${t}\` ORDER BY Name`)).results.map((x) => x.Name)).toEqual([
    'a',
    'b',
    'c',
  ]);
  expectClientError(await kit.gwCall('PUT', `restore-operations/${del}/`), 400);
  expectClientError(await kit.gwCall('PUT', 'restore-operations/999999/'), 404);
  expectClientError(await kit.gwCall('PUT', 'restore-operations/x/'), 400);
  expectClientError(await kit.gwCall('GET', 'db-operations/?page=0'), 400);
});

test('BASE-6 link cells show linked rows that moved to big data', async () => {
  const { t: other } = await table();
  const { t } = await table();
  const col = await kit.addColumn(t, { column_name: 'L', column_type: 'link', column_data: { other_table: other } });
  const [o] = await kit.append(other, [{ Name: 'linked', N: 50 }]);
  const [r] = await kit.append(t, [{ Name: 'row' }]);
  await kit.gwCall('POST', 'links/', {
    json: { table_name: t, other_table_name: other, link_id: col.data.link_id, other_rows_ids_map: { [r!]: [o] } },
  });
  await kit.gwCall('POST', 'views/', { json: { table_name: other, name: 'All' } });
  await kit.gwCall('POST', 'archive-view/', { json: { table_name: other, view_name: 'All' } });
  expect((await kit.list(t))[0]!.L).toEqual([{ row_id: o, display_value: 'linked' }]);
});

test('BASE-6 big-data rows survive a restart on the same --data file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-big-'));
  try {
    const file = join(dir, 'base.sqlite');
    const first = await Kit.start({ dataFile: file });
    try {
      await first.createTable('T', [{ column_name: 'Name', column_type: 'text' }]);
      await first.append('T', [{ Name: 'normal' }]);
      expect(
        (await first.gwCall('POST', 'add-archived-rows/', { json: { table_name: 'T', rows: [{ Name: 'big' }] } }))
          .status,
      ).toBe(200);
    } finally {
      await first.close();
    }
    const second = await Kit.start({ dataFile: file });
    try {
      expect((await second.list('T')).map((r) => r.Name)).toEqual(['normal']);
      expect((await second.sql('SELECT Name, _archived FROM T ORDER BY Name')).results).toEqual([
        { Name: 'big', _archived: true },
        { Name: 'normal', _archived: false },
      ]);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

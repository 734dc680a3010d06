/** BASE-4: table rename and duplicate; the structure changes survive a restart on a --data file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { expectClientError, Kit, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

const strip = (rows: Record<string, unknown>[]) =>
  rows.map(({ _id, _ctime, _mtime, _creator, _last_modifier, ...r }) => r);

test('BASE-4 a rename keeps rows, columns and views; clashes are refused', async () => {
  const t = uniq('Old');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
  ]);
  await kit.gwCall('POST', 'views/', { json: { table_name: t, name: 'V' } });
  await kit.append(t, [
    { Name: 'a', N: 1 },
    { Name: 'b', N: 2 },
  ]);
  const before = await kit.list(t);
  const to = uniq('New');
  const r = await kit.gwCall('PUT', 'tables/', { json: { table_name: t, new_table_name: to } });
  expect(RESPONSES.renameTable!.parse(r.body)).toEqual({ success: true });
  expect(await kit.list(to)).toEqual(before);
  expect((await kit.table(to)).views.map((v: { name: string }) => v.name)).toEqual(['Default View', 'V']);
  expectClientError(await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(t)}`), 404);
  expect((await kit.sql(`SELECT Name FROM \`${to}\``)).results).toEqual([{ Name: 'a' }, { Name: 'b' }]);
  const other = uniq('Other');
  await kit.createTable(other, []);
  expectClientError(await kit.gwCall('PUT', 'tables/', { json: { table_name: to, new_table_name: other } }), 400);
  expectClientError(await kit.gwCall('PUT', 'tables/', { json: { table_name: to, new_table_name: '' } }), 400);
  expectClientError(
    await kit.gwCall('PUT', 'tables/', { json: { table_name: uniq('Missing'), new_table_name: uniq('X') } }),
    404,
  );
});

test('BASE-4 a duplicate has the same columns and views, with the rows when asked', async () => {
  const t = uniq('Orig');
  const orig = await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Kind', column_type: 'single-select' },
    { column_name: 'No', column_type: 'auto-number' },
  ]);
  await kit.gwCall('POST', 'views/', {
    json: { table_name: t, name: 'Big', filters: [{ column_name: 'N', filter_predicate: 'greater', filter_term: 1 }] },
  });
  await kit.append(t, [
    { Name: 'a', N: 1, Kind: 'k1' },
    { Name: 'b', N: 2, Kind: 'k2' },
  ]);
  const r = await kit.gwCall('POST', 'tables/duplicate-table/', {
    json: { table_name: t, is_duplicate_records: true },
  });
  expect(r.status, r.text).toBe(200);
  const copy = RESPONSES.duplicateTable!.parse(r.body) as {
    _id: string;
    name: string;
    columns: { key: string; name: string; type: string }[];
  };
  expect(copy.name).toBe(`${t} (copy)`);
  expect(copy._id).not.toBe(orig._id);
  expect(copy.columns.map((c) => [c.key, c.name, c.type])).toEqual(orig.columns.map((c) => [c.key, c.name, c.type]));
  const rows = await kit.list(copy.name);
  expect(strip(rows)).toEqual(strip(await kit.list(t)));
  expect(rows.map((x) => x._id)).not.toContain((await kit.list(t))[0]!._id);
  expect((await kit.list(copy.name, { view_name: 'Big' })).map((x) => x.Name)).toEqual(['b']);
  // Writes to the copy leave the original alone; the auto-number continues in the copy.
  await kit.append(copy.name, [{ Name: 'c' }]);
  expect((await kit.list(copy.name))[2]!.No).toBe('0003');
  expect((await kit.list(t)).length).toBe(2);
  const empty = await kit.gwCall('POST', 'tables/duplicate-table/', {
    json: { table_name: t, is_duplicate_records: false },
  });
  expect(empty.body.name).toBe(`${t} (copy 2)`);
  expect(await kit.list(empty.body.name)).toEqual([]);
  expectClientError(await kit.gwCall('POST', 'tables/duplicate-table/', { json: { table_name: t } }), 400);
});

test('BASE-4 a duplicate with links links the same rows through a link of its own', async () => {
  const a = uniq('Authors');
  const b = uniq('Books');
  await kit.createTable(a, [{ column_name: 'Name', column_type: 'text' }]);
  await kit.createTable(b, [{ column_name: 'Title', column_type: 'text' }]);
  const link = await kit.addColumn(a, { column_name: 'Books', column_type: 'link', column_data: { other_table: b } });
  const [ann] = await kit.append(a, [{ Name: 'Ann' }]);
  const [book] = await kit.append(b, [{ Title: 'Tides' }]);
  await kit.gwCall('POST', 'links/', {
    json: { table_name: a, other_table_name: b, link_id: link.data.link_id, other_rows_ids_map: { [ann!]: [book] } },
  });
  const copy = (
    await kit.gwCall('POST', 'tables/duplicate-table/', { json: { table_name: a, is_duplicate_records: true } })
  ).body as { name: string; columns: { name: string; data: { link_id: string } }[] };
  const copied = copy.columns.find((c) => c.name === 'Books')!;
  expect(copied.data.link_id).not.toBe(link.data.link_id);
  expect((await kit.list(copy.name))[0]!.Books).toEqual([{ row_id: book, display_value: 'Tides' }]);
  const back = (await kit.list(b))[0]!;
  expect(back[a]).toEqual([{ row_id: ann, display_value: 'Ann' }]);
  expect(back[copy.name]).toEqual([{ row_id: expect.any(String), display_value: 'Ann' }]);
});

test('structure changes survive a restart on the same --data file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-structure-'));
  const file = join(dir, 'base.sqlite');
  try {
    const first = await Kit.start({ dataFile: file });
    try {
      await first.createTable('T', [
        { column_name: 'Name', column_type: 'text' },
        { column_name: 'V', column_type: 'text' },
        { column_name: 'K', column_type: 'single-select', column_data: { options: [{ name: 'a' }] } },
      ]);
      await first.append('T', [
        { Name: 'x', V: '5' },
        { Name: 'y', V: '9' },
      ]);
      await first.gwCall('PUT', 'columns/', {
        json: { op_type: 'modify_column_type', table_name: 'T', column: 'V', new_column_type: 'number' },
      });
      await first.gwCall('PUT', 'columns/', {
        json: { op_type: 'rename_column', table_name: 'T', column: 'V', new_column_name: 'W' },
      });
      await first.gwCall('POST', 'views/?table_name=T', {
        json: { name: 'Desc', sorts: [{ column_name: 'W', sort_type: 'down' }] },
      });
      await first.gwCall('PUT', 'tables/', { json: { table_name: 'T', new_table_name: 'U' } });
      await first.gwCall('POST', 'tables/duplicate-table/', { json: { table_name: 'U', is_duplicate_records: true } });
    } finally {
      await first.close();
    }
    const second = await Kit.start({ dataFile: file });
    try {
      expect((await second.list('U', { view_name: 'Desc' })).map((r) => [r.Name, r.W])).toEqual([
        ['y', 9],
        ['x', 5],
      ]);
      expect((await second.list('U (copy)')).map((r) => r.W)).toEqual([5, 9]);
      expect((await second.table('U')).columns.find((c) => c.name === 'K')!.data.options[0].id).toMatch(/^\d{6}$/);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The row list's kept JSON (store/kept-rows.ts): a list with a new query string over unchanged
 * data answers the bytes a fresh read gives, and no write of any kind leaves a later list stale.
 * Each list here carries a query parameter of its own, so the answers cached by URL never serve it.
 */
import { expect, test } from '@playwright/test';
import { uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

let fresh = 0;
/** The list's answer as text, never from the cache of answers by URL. */
async function listText(table: string, query: Record<string, string | number> = {}): Promise<string> {
  const q = new URLSearchParams({
    table_name: table,
    ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    fresh: String(++fresh),
  });
  const r = await kit.gwCall('GET', `rows/?${q}`);
  expect(r.status, r.text).toBe(200);
  return r.text;
}
const list = async (table: string, query: Record<string, string | number> = {}) =>
  (JSON.parse(await listText(table, { convert_keys: 'true', ...query })) as { rows: Record<string, any>[] }).rows;

/** A table of most stored types, a formula and a link, with 30 rows. */
async function mixed() {
  const t = uniq('Kept');
  const other = uniq('Kept other');
  await kit.createTable(other, [{ column_name: 'Title', column_type: 'text' }]);
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Due', column_type: 'date', column_data: { format: 'YYYY-MM-DD HH:mm' } },
    { column_name: 'Done', column_type: 'checkbox' },
    { column_name: 'State', column_type: 'single-select' },
    { column_name: 'Tags', column_type: 'multiple-select' },
    { column_name: 'Twice', column_type: 'formula', column_data: { formula: '{N} * 2' } },
  ]);
  const link = await kit.addColumn(t, {
    column_name: 'Other',
    column_type: 'link',
    column_data: { other_table: other },
  });
  const [target] = await kit.append(other, [{ Title: 'first' }]);
  const ids = await kit.append(
    t,
    Array.from({ length: 30 }, (_, i) => ({
      Name: `r${i}`,
      N: i % 7,
      Due: `2030-01-${String(1 + i).padStart(2, '0')} 10:30`,
      Done: i % 2 === 0,
      State: ['open', 'done'][i % 2],
      Tags: ['a', 'b'].slice(0, 1 + (i % 2)),
    })),
  );
  const r = await kit.gwCall('POST', 'links/', {
    json: {
      table_name: t,
      other_table_name: other,
      link_id: link.data.link_id,
      other_rows_ids_map: { [ids[0]!]: [target!] },
    },
  });
  expect(r.status, r.text).toBe(200);
  return { t, other, ids, target: target!, linkId: link.data.link_id as string };
}

test('a page read again under a new query string is the same bytes as a fresh read, for each list option', async () => {
  const { t } = await mixed();
  const view = await kit.gwCall('POST', 'views/', {
    json: {
      table_name: t,
      name: 'V',
      filters: [{ column_name: 'N', filter_predicate: 'greater', filter_term: 2 }],
      sorts: [{ column_name: 'N', sort_type: 'down' }],
      hidden_columns: ['Tags'],
    },
  });
  expect(view.status, view.text).toBe(200);
  const lists: Record<string, string>[] = [
    {},
    { convert_keys: 'true' },
    { view_name: 'V' },
    { view_name: 'V', convert_keys: 'true' },
    { order_by: 'N', direction: 'desc' },
  ];
  for (const options of lists) {
    // A page read first (nothing kept), then the whole list (partly kept), then the page again (all kept).
    const page = await listText(t, { ...options, start: 5, limit: 10 });
    const whole = JSON.parse(await listText(t, options)) as { rows: unknown[] };
    expect(page, JSON.stringify(options)).toBe(JSON.stringify({ rows: whole.rows.slice(5, 15) }));
    expect(await listText(t, { ...options, start: 5, limit: 10 }), JSON.stringify(options)).toBe(page);
  }
  const shown = await list(t, { view_name: 'V' });
  expect(shown.length).toBeGreaterThan(0);
  for (const r of shown) expect(r.N > 2 && !('Tags' in r), JSON.stringify(r)).toBe(true);
});

test('every kind of write shows in the next list', async () => {
  const { t, other, ids, target, linkId } = await mixed();
  const write = async (method: string, path: string, json: unknown) => {
    await list(t); // the rows kept just before the write
    const r = await kit.gwCall(method, path, { json });
    expect(r.status, `${path}: ${r.text}`).toBe(200);
    return list(t);
  };
  const row = (rows: Record<string, any>[], id: string) => rows.find((x) => x._id === id);
  expect(
    row(
      await write('PUT', 'rows/', { table_name: t, updates: [{ row_id: ids[1], row: { Name: 'updated' } }] }),
      ids[1]!,
    )!.Name,
  ).toBe('updated');
  expect((await write('POST', 'rows/', { table_name: t, rows: [{ Name: 'appended' }] })).at(-1)!.Name).toBe('appended');
  expect(row(await write('DELETE', 'rows/', { table_name: t, row_ids: [ids[2]] }), ids[2]!)).toBeUndefined();
  expect(
    row(await write('POST', 'sql/', { sql: `UPDATE \`${t}\` SET Name = 'by sql' WHERE Name = 'r3'` }), ids[3]!)!.Name,
  ).toBe('by sql');
  expect(row(await write('PUT', 'lock-rows/', { table_name: t, row_ids: [ids[4]] }), ids[4]!)!._locked).toBe(true);
  expect(
    row(
      await write('POST', 'links/', {
        table_name: t,
        other_table_name: other,
        link_id: linkId,
        other_rows_ids_map: { [ids[5]!]: [target] },
      }),
      ids[5]!,
    )!.Other,
  ).toEqual([{ row_id: target, display_value: 'first' }]);
  // A write to the linked table changes what the link cells show.
  expect(
    row(
      await write('PUT', 'rows/', { table_name: other, updates: [{ row_id: target, row: { Title: 'renamed' } }] }),
      ids[0]!,
    )!.Other,
  ).toEqual([{ row_id: target, display_value: 'renamed' }]);
  expect(
    row(
      await write('PUT', 'columns/', {
        op_type: 'rename_column',
        table_name: t,
        column: 'N',
        new_column_name: 'Number',
      }),
      ids[6]!,
    )!.Number,
  ).toBe(6);
  expect(
    row(
      await write('PUT', 'columns/', {
        op_type: 'modify_column_type',
        table_name: t,
        column: 'Done',
        new_column_type: 'text',
      }),
      ids[6]!,
    )!.Done,
  ).not.toBe(true);
  const state = (await kit.table(t)).columns
    .find((c) => c.name === 'State')!
    .data.options.find((o: { name: string }) => o.name === 'open');
  expect(
    row(
      await write('PUT', 'column-options/', {
        table_name: t,
        column: 'State',
        options: [{ id: state.id, name: 'opened' }],
      }),
      ids[6]!,
    )!.State,
  ).toBe('opened');
  expect(row(await write('DELETE', 'columns/', { table_name: t, column: 'Tags' }), ids[6]!)!.Tags).toBeUndefined();
  expect(
    row(await write('POST', 'columns/', { table_name: t, column_name: 'Added', column_type: 'text' }), ids[6]!),
  ).toHaveProperty('Added', null);
  await kit.gwCall('POST', 'views/', {
    json: { table_name: t, name: 'Big', filters: [{ column_name: 'Name', filter_predicate: 'is', filter_term: 'r7' }] },
  });
  expect(row(await write('POST', 'archive-view/', { table_name: t, view_name: 'Big' }), ids[7]!)).toBeUndefined();
  const call = async (method: string, path: string, json: unknown) =>
    expect((await kit.gwCall(method, path, { json })).status).toBe(200);
  const renamed = uniq('Kept renamed');
  await call('PUT', 'tables/', { table_name: t, new_table_name: renamed });
  expect(row(await list(renamed), ids[8]!)!.Name).toBe('r8');
  // A table deleted and made again under its name (and perhaps its id) lists the new table's rows only.
  await list(other);
  await call('DELETE', 'tables/', { table_name: other });
  await kit.createTable(other, [{ column_name: 'Title', column_type: 'text' }]);
  expect(await list(other)).toEqual([]);
});

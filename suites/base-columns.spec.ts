/**
 * BASE-2: column operations keep the data. Columns are listed (by view: its visible ones);
 * several are appended at once; a rename keeps every value under the new name; resize,
 * freeze and move change the layout only; a delete removes the column and its values, and
 * nothing else. Columns are named by key in the calls, as the official clients do.
 */
import { expectStatus } from '../src/harness/assert.js';
import { fixtureMissing } from '../src/harness/outcome.js';
import {
  byId,
  columnNamed,
  needsOperations,
  show,
  tableInfo,
  viewWith,
  type ColumnInfo,
} from '../src/harness/structure.js';
import { appendAll, listRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import type { Target } from '../src/harness/target.js';
import { clause, expect, test, ev } from '../src/harness/test.js';

const COLUMNS = [
  { column_name: 'Name', column_type: 'text' },
  { column_name: 'N', column_type: 'number' },
  { column_name: 'City', column_type: 'text' },
  { column_name: 'Done', column_type: 'checkbox' },
];
const ROWS = [
  { Name: 'Ann', N: 31, City: 'Oslo', Done: true },
  { Name: 'Bob', N: 42, City: 'Rome' },
  { Name: 'Cy', N: 7, City: 'Lima', Done: false },
];
const NAMES = COLUMNS.map((c) => c.column_name);

async function withTable(
  target: Target,
  label: string,
  fn: (t: Scratch, ids: string[]) => Promise<void>,
): Promise<void> {
  const t = await scratchTable(target, label, COLUMNS);
  try {
    const ids = await appendAll(target, t, ROWS);
    if (ids.length !== ROWS.length)
      throw fixtureMissing(`append answered ${ids.length} row ids for ${ROWS.length} rows`);
    await fn(t, ids);
  } finally {
    await t.drop();
  }
}

/** GET columns/ (a view's, when named): the column objects. */
async function listColumns(target: Target, t: Scratch, view?: string): Promise<ColumnInfo[]> {
  const r = await target.gw(t.base, 'GET', 'columns/', {
    query: { table_name: t.name, ...(view ? { view_name: view } : {}) },
  });
  expectStatus(r, 200, `list columns${view ? ` of view ${view}` : ''} (GET columns/)`);
  const cols = r.json<{ columns?: ColumnInfo[] }>().columns;
  expect(Array.isArray(cols), `list columns: the answer has no "columns" array: ${r.text.slice(0, 200)}`).toBe(true);
  return cols!;
}

const update = (target: Target, t: Scratch, json: Record<string, unknown>) =>
  target.gw(t.base, 'PUT', 'columns/', { json: { table_name: t.name, ...json } });

/** Every value of `columns` in the rows, by row id and column name. */
async function snapshot(target: Target, t: Scratch, columns: string[]): Promise<Record<string, unknown>> {
  const rows = await listRows(target, t);
  return Object.fromEntries(
    rows.map((r) => [String(r._id), Object.fromEntries(columns.map((c) => [c, r[c] ?? null]))]),
  );
}

test(
  ...clause(
    'BASE-2',
    "columns are listed in table order, and by view without the view's hidden column",
    ev.documented('OA62 base_operations#listColumns, insertColumn, appendColumns, updateColumn, deleteColumn'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'listColumns', 'createView', 'updateView');
    await withTable(target, 'col_list', async (t) => {
      const all = await listColumns(target, t);
      expect
        .soft(
          all.map((c) => c.name),
          'list columns: names and order',
        )
        .toEqual(NAMES);
      for (const c of all)
        expect
          .soft(
            typeof c.key === 'string' && typeof c.type === 'string',
            `list columns: column ${show(c.name)} lacks a key or type`,
          )
          .toBe(true);
      const city = all.find((c) => c.name === 'City')?.key ?? columnNamed(await tableInfo(target, t), 'City').key;
      await viewWith(target, t, 'no city', { hidden_columns: [city] });
      expect
        .soft(
          (await listColumns(target, t, 'no city')).map((c) => c.name),
          'list columns of a view hiding City: only its visible columns',
        )
        .toEqual(NAMES.filter((n) => n !== 'City'));
    });
  },
);

test(
  ...clause(
    'BASE-2',
    'several columns are appended at once and listed after the others',
    ev.documented('OA62 base_operations#listColumns, insertColumn, appendColumns, updateColumn, deleteColumn'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'appendColumns', 'listColumns');
    await withTable(target, 'col_batch', async (t) => {
      const r = await target.gw(t.base, 'POST', 'batch-append-columns/', {
        json: {
          table_name: t.name,
          columns: [
            { column_name: 'Extra', column_type: 'text' },
            { column_name: 'Score', column_type: 'number' },
          ],
        },
      });
      expectStatus(r, 200, 'append columns (POST batch-append-columns/)');
      expect
        .soft(
          (await listColumns(target, t)).map((c) => [c.name, c.type]),
          'list columns after appending Extra and Score',
        )
        .toEqual([...COLUMNS.map((c) => [c.column_name, c.column_type]), ['Extra', 'text'], ['Score', 'number']]);
    });
  },
);

test(
  ...clause(
    'BASE-2',
    'a rename keeps every value of the column under its new name',
    ev.documented('OA62 base_operations#listColumns, insertColumn, appendColumns, updateColumn, deleteColumn'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'updateColumn', 'listRows');
    await withTable(target, 'col_rename', async (t) => {
      const city = columnNamed(await tableInfo(target, t), 'City');
      const before = byId(await listRows(target, t), 'City');
      expectStatus(
        await update(target, t, { op_type: 'rename_column', column: city.key, new_column_name: 'Town' }),
        200,
        'rename column City to Town (PUT columns/ rename_column)',
      );
      const rows = await listRows(target, t);
      expect
        .soft(Object.fromEntries(byId(rows, 'Town')), 'values under the new name Town')
        .toEqual(Object.fromEntries(before));
      expect.soft(rows.filter((r) => 'City' in r).length, 'rows still carry the old name City').toBe(0);
      expect
        .soft(
          (await tableInfo(target, t)).columns.map((c) => c.name),
          'columns after the rename',
        )
        .toEqual(['Name', 'N', 'Town', 'Done']);
    });
  },
);

test(
  ...clause(
    'BASE-2',
    "resize, freeze and move change the column's layout and no value",
    ev.documented('OA62 base_operations#listColumns, insertColumn, appendColumns, updateColumn, deleteColumn'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'updateColumn', 'listRows');
    await withTable(target, 'col_layout', async (t) => {
      const info = await tableInfo(target, t);
      const [name, n, city] = ['Name', 'N', 'City'].map((c) => columnNamed(info, c));
      const before = await snapshot(target, t, NAMES);
      expectStatus(
        await update(target, t, { op_type: 'resize_column', column: n!.key, new_column_width: 321 }),
        200,
        'resize column N (PUT columns/ resize_column)',
      );
      expectStatus(
        await update(target, t, { op_type: 'freeze_column', column: name!.key, frozen: true }),
        200,
        'freeze column Name (PUT columns/ freeze_column)',
      );
      expectStatus(
        await update(target, t, { op_type: 'move_column', column: city!.key, target_column: name!.key }),
        200,
        'move column City to Name (PUT columns/ move_column)',
      );
      const after = await tableInfo(target, t);
      const col = (key: string) => after.columns.find((c) => c.key === key);
      expect.soft(col(n!.key)?.width, 'width of N after resize_column to 321').toBe(321);
      expect.soft(col(name!.key)?.frozen, 'frozen of Name after freeze_column').toBe(true);
      const order = after.columns.map((c) => c.name);
      const [at, target_] = [order.indexOf('City'), order.indexOf('Name')];
      expect
        .because(ev.documented('OA62 base_operations#updateColumn (move_column: column, target_column)'))
        .soft(Math.abs(at - target_), `City was moved to Name but the columns read ${show(order)}`)
        .toBe(1);
      expect
        .because(ev.inferred('OA62 updateColumn move_column moves one column; the order of the others is our reading'))
        .soft(
          order.filter((c) => c !== 'City'),
          'the columns not moved keep their order',
        )
        .toEqual(['Name', 'N', 'Done']);
      expect.soft(await snapshot(target, t, NAMES), 'values after resize, freeze and move').toEqual(before);
    });
  },
);

test(
  ...clause(
    'BASE-2',
    'a delete removes the column and its values, and only those',
    ev.documented('OA62 base_operations#listColumns, insertColumn, appendColumns, updateColumn, deleteColumn'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'deleteColumn', 'appendColumn', 'listColumns', 'listRows');
    await withTable(target, 'col_delete', async (t) => {
      const city = columnNamed(await tableInfo(target, t), 'City');
      const kept = ['Name', 'N', 'Done'];
      const before = await snapshot(target, t, kept);
      const r = await target.gw(t.base, 'DELETE', 'columns/', { json: { table_name: t.name, column: city.key } });
      expectStatus(r, 200, 'delete column City (DELETE columns/)');
      expect
        .soft(
          (await listColumns(target, t)).map((c) => c.name),
          'columns after deleting City',
        )
        .toEqual(kept);
      const rows = await listRows(target, t);
      expect.soft(rows.filter((row) => 'City' in row).length, 'rows still carry the deleted column City').toBe(0);
      expect.soft(await snapshot(target, t, kept), "the other columns' values after deleting City").toEqual(before);
      // A new column of the same name starts empty: the deleted values are gone, not hidden.
      const added = await target.gw(t.base, 'POST', 'columns/', {
        json: { table_name: t.name, column_name: 'City', column_type: 'text' },
      });
      if (added.status !== 200)
        throw fixtureMissing(`add a new column City: status ${added.status}: ${added.text.slice(0, 200)}`);
      expect
        .because(
          ev.inferred(
            "a deleted column's values do not come back under a new column of the same name: consistency, not documented",
          ),
        )
        .soft(
          (await listRows(target, t)).map((row) => row.City ?? null),
          "a new column named City reads the deleted column's values",
        )
        .toEqual(ROWS.map(() => null));
    });
  },
);

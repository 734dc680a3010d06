/**
 * BASE-4: a table rename keeps its rows and columns; a duplicated table has the same columns,
 * and the same rows when `is_duplicate_records` asks for them (none otherwise). The copy is
 * named by the service (`<name> (copy)` in the OpenAPI); the check takes the name it answers,
 * else the one new table metadata/ lists. Every table made here carries the run's prefix.
 */
import { randomBytes } from 'node:crypto';
import { expectClientError, expectStatus } from '../src/harness/assert.js';
import { fixtureMissing } from '../src/harness/outcome.js';
import { needsOperations, show, tablesOf, type TableInfo } from '../src/harness/structure.js';
import { appendAll, existingTable, listRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import type { Target } from '../src/harness/target.js';
import { clause, expect, test, ev } from '../src/harness/test.js';

const COLUMNS = [
  { column_name: 'Name', column_type: 'text' },
  { column_name: 'N', column_type: 'number' },
  { column_name: 'Kind', column_type: 'single-select' },
];
const ROWS = [
  { Name: 'a', N: 1, Kind: 'k1' },
  { Name: 'b', N: 2, Kind: 'k2' },
  { Name: 'c', N: 3 },
];

const shape = (info: TableInfo | undefined) => info?.columns.map((c) => [c.name, c.type]);
/** Rows as values only, sorted by Name: ids and times differ between a table and its copy. */
const values = (rows: Record<string, unknown>[]) =>
  rows
    .map((r) => [r.Name ?? null, r.N ?? null, r.Kind ?? null])
    .sort((x, y) => String(x[0]).localeCompare(String(y[0])));

async function original(target: Target, label: string): Promise<{ t: Scratch; info: TableInfo }> {
  const t = await scratchTable(target, label, COLUMNS);
  try {
    await appendAll(target, t, ROWS);
    const info = (await tablesOf(target, t.base)).find((x) => x.name === t.name);
    if (!info) throw fixtureMissing(`metadata/ does not list the table ${t.name} this check created`);
    return { t, info };
  } catch (e) {
    await t.drop();
    throw e;
  }
}

test(
  ...clause(
    'BASE-4',
    'a renamed table keeps its rows and columns under the new name',
    ev.documented('OA62 base_operations#renameTable, getMetadata, listRows'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'renameTable', 'listRows', 'getMetadata');
    const { t, info } = await original(target, 'tbl_rename');
    const renamed = existingTable(
      target,
      `${target.state.tablePrefix}tbl_renamed_${randomBytes(2).toString('hex')}`,
      t.base,
    );
    try {
      const before = await listRows(target, t);
      const r = await target.gw(t.base, 'PUT', 'tables/', {
        json: { table_name: t.name, new_table_name: renamed.name },
      });
      expectStatus(r, 200, 'rename table (PUT tables/)');
      const tables = await tablesOf(target, t.base);
      const now = tables.find((x) => x.name === renamed.name);
      expect(now !== undefined, `metadata/ does not list the table under its new name ${renamed.name}`).toBe(true);
      expect
        .soft(
          tables.some((x) => x.name === t.name),
          'metadata/ still lists the table under its old name',
        )
        .toBe(false);
      expect.soft(shape(now), 'columns of the renamed table').toEqual(shape(info));
      const after = await listRows(target, renamed);
      const byId = (rows: Record<string, unknown>[]) =>
        Object.fromEntries(rows.map((x) => [String(x._id), [x.Name ?? null, x.N ?? null, x.Kind ?? null]]));
      expect.soft(byId(after), 'rows of the renamed table (by row id)').toEqual(byId(before));
      expectClientError(
        await target.gw(t.base, 'GET', 'rows/', { query: { table_name: t.name }, expect: [400, 404] }),
        'list rows by the old table name',
        ev.inferred(
          'the gateway answer to a table name that no longer exists is not documented or recorded (api-shapes, gap 6); a 4xx is HTTP semantics',
        ),
      );
    } finally {
      await renamed.drop();
      await t.drop();
    }
  },
);

/** Duplicate `t`; the copy's handle (dropped by the caller) from the answer, else from metadata/. */
async function duplicate(
  target: Target,
  t: Scratch,
  withRows: boolean,
): Promise<{ copy: Scratch; info: TableInfo | undefined }> {
  const before = new Set((await tablesOf(target, t.base)).map((x) => x.name));
  const r = await target.gw(t.base, 'POST', 'tables/duplicate-table/', {
    json: { table_name: t.name, is_duplicate_records: withRows },
  });
  const tables = await tablesOf(target, t.base);
  // Other checks make tables meanwhile (parallel workers), all with the run's prefix: a new table
  // is this call's when it carries the original's (unique) name, or at least not another check's.
  const fresh = tables.filter((x) => !before.has(x.name));
  const derived = fresh.filter((x) => x.name.includes(t.name));
  const mine = fresh.filter((x) => x.name.includes(t.name) || !x.name.startsWith(target.state.tablePrefix));
  const answered = r.status === 200 ? r.json<{ name?: unknown }>().name : undefined;
  const name =
    typeof answered === 'string' && tables.some((x) => x.name === answered)
      ? answered
      : derived.length === 1
        ? derived[0]!.name
        : mine.length === 1
          ? mine[0]!.name
          : undefined;
  // Whatever it is called, a new table this call made is dropped with the check; other checks' tables are theirs.
  for (const x of derived) if (x.name !== name) await existingTable(target, x.name, t.base).drop();
  expectStatus(r, 200, `duplicate table (POST tables/duplicate-table/, is_duplicate_records ${withRows})`);
  if (!name) {
    if (mine.length > 1)
      throw fixtureMissing(
        `the copy is not named in the answer and cannot be told apart from ${mine.length} other new tables`,
      );
    expect(
      mine.map((x) => x.name),
      'metadata/ lists no new table after the duplicate',
    ).toHaveLength(1);
    throw fixtureMissing('no copy to look at');
  }
  return { copy: existingTable(target, name, t.base), info: tables.find((x) => x.name === name) };
}

for (const withRows of [true, false]) {
  test(
    ...clause(
      'BASE-4',
      `a duplicated table has the same columns and ${withRows ? 'the same rows (is_duplicate_records true)' : 'no rows (is_duplicate_records false)'}`,
      ev.documented('OA62 base_operations#duplicateTable (is_duplicate_records), getMetadata, listRows'),
    ),
    async ({ target, state }) => {
      needsOperations(state, 'duplicateTable', 'listRows', 'getMetadata');
      const { t, info } = await original(target, withRows ? 'tbl_dup' : 'tbl_dup0');
      let copy: Scratch | undefined;
      try {
        const made = await duplicate(target, t, withRows);
        copy = made.copy;
        expect.soft(copy.name, 'the copy must be a new table, not the original').not.toBe(t.name);
        expect.soft(shape(made.info), `columns of the copy ${show(copy.name)}`).toEqual(shape(info));
        const rows = await listRows(target, copy);
        expect.soft(values(rows), `rows of the copy ${show(copy.name)}`).toEqual(withRows ? values(ROWS) : []);
        expect
          .soft(values(await listRows(target, t)), 'rows of the original after the duplicate')
          .toEqual(values(ROWS));
      } finally {
        await copy?.drop();
        await t.drop();
      }
    },
  );
}

/**
 * The official client (CLIENT-1), part 1: authentication, the base's metadata, tables, views,
 * columns and select options, each called as the client's code and readme show
 * (src/spec/client-methods.ts) and its result checked against what was written. Rows, SQL and
 * links: client-rows.spec.ts.
 *
 * Each worker shares one authenticated client (opened inside its first check); each check
 * makes its own tables through the client's addTable and drops them when it ends.
 */
import {
  absent,
  inScope,
  keyOf,
  pick,
  rowsMade,
  tableInfo,
  tableName,
  withTable,
} from '../src/harness/official/checks.js';
import { failureOf } from '../src/harness/official/failures.js';
import type { ColumnInfo } from '../src/harness/official/sdk.js';
import { OfficialClient, SharedClient, violation } from '../src/harness/official/session.js';
import { existingTable } from '../src/harness/tables.js';
import { clause, expect, withWorld, ev } from '../src/harness/test.js';

const test = withWorld('client.spec.ts: official client', (target) => new SharedClient(target)).extend<{
  client: OfficialClient;
}>({
  // After `target`, so the check's recorder hears the authentication.
  client: [async ({ world, target: _target }, use) => use(await world.get()), { box: 'self' }],
});

const NAME = { column_name: 'Name', column_type: 'text' };
const names = (cols: readonly { name: string }[] | undefined) => (cols ?? []).map((x) => x.name);

test(
  ...clause(
    'CLIENT-1',
    "auth(): new Base({ server, APIToken }) gets a base token for the API token's base and is sent to the API gateway",
    ev.client('seatable-api (npm) lib/base.js Base.auth, getMetadata'),
  ),
  async ({ target }) => {
    const c = await OfficialClient.open(target).catch((e: unknown) => {
      const f = failureOf(e, 'auth() (GET /api/v2.1/dtable/app-access-token/)');
      if (f.kind === 'transport') throw f.undecided;
      return violation(f.message);
    });
    expect
      .soft(c.base.dtableUuid, "auth(): the answer's dtable_uuid is the base of the API token")
      .toBe(target.base(0).uuid);
    expect
      .soft(
        typeof c.base.accessToken === 'string' && c.base.accessToken.length > 0,
        'auth(): the answer carries an access_token',
      )
      .toBe(true);
    expect(
      c.base.apiGateway !== null,
      'auth(): the answer says use_api_gateway: true, so the client calls /api-gateway/ (else it would use dtable-server, removed in 5.3)',
    ).toBe(true);
    const meta = await c.call('getMetadata() with the token auth() got', (b) => b.getMetadata());
    expect(Array.isArray(meta.tables), "getMetadata() after auth(): the base's tables").toBe(true);
  },
);

test(
  ...clause(
    'CLIENT-1',
    "getMetadata, getTables and getTableByName list a table made by addTable with its columns; getResponseHeaders gives the last answer's headers",
    ev.client('seatable-api (npm) lib/base.js Base.getMetadata, getTables, getTableByName, getResponseHeaders'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'getMetadata', 'getTables', 'getTableByName', 'getResponseHeaders');
    await withTable(c, target, 'meta', [NAME, { column_name: 'N', column_type: 'number' }], async (t) => {
      const meta = await c.call('getMetadata()', (b) => b.getMetadata());
      expect
        .soft(
          names(meta.tables?.find((x) => x.name === t)?.columns),
          `getMetadata(): table ${t} with the columns addTable gave it`,
        )
        .toEqual(['Name', 'N']);
      const tables = await c.call('getTables()', (b) => b.getTables());
      expect.soft(names(tables), `getTables(): lists table ${t}`).toContain(t);
      const one = await c.call(`getTableByName(${t})`, (b) => b.getTableByName(t));
      expect
        .soft(one && 'columns' in one ? names(one.columns) : one, `getTableByName(${t}): the table with its columns`)
        .toEqual(['Name', 'N']);
      const none = await c.call('getTableByName(<a name no table has>)', (b) => b.getTableByName(`${t}_none`));
      expect
        .soft(
          absent(none),
          `getTableByName() of a name no table has: nothing (got ${JSON.stringify(none)?.slice(0, 100)})`,
        )
        .toBe(true);
      const headers = c.base.getResponseHeaders();
      expect
        .soft(
          headers !== null && typeof headers === 'object',
          'getResponseHeaders(): the headers of the last gateway answer',
        )
        .toBe(true);
      expect
        .soft(
          String(c.base.getResponseHeaders('content-type')),
          "getResponseHeaders('content-type'): the last answer was JSON",
        )
        .toMatch(/json/i);
    });
  },
);

test(
  ...clause('CLIENT-1', 'getDTable() reads the whole base', ev.client('seatable-api (npm) lib/base.js Base.getDTable')),
  async ({ state }) => {
    inScope(state, 'getDTable');
  },
);

test(
  ...clause(
    'CLIENT-1',
    'addTable makes a table with its columns, renameTable keeps its rows, deleteTable removes it',
    ev.client('seatable-api (npm) lib/base.js Base.addTable, renameTable, deleteTable, getTableByName, listRows'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'addTable', 'renameTable', 'deleteTable', 'getTableByName', 'listRows');
    const name = tableName(state, 'tables');
    const renamed = `${name}_r`;
    try {
      const made = await c.call(`addTable(${name}, 'en', columns)`, (b) =>
        b.addTable(name, 'en', [NAME, { column_name: 'N', column_type: 'number' }]),
      );
      expect.soft(made?.name, 'addTable(): the answer is the new table').toBe(name);
      expect
        .soft(
          (made?.columns ?? []).map((x) => [x.name, x.type]),
          'addTable(): the new table has the columns given',
        )
        .toEqual([
          ['Name', 'text'],
          ['N', 'number'],
        ]);
      const [id] = await rowsMade(c, name, [{ Name: 'kept', N: 7 }]);
      await c.call(`renameTable(${name}, ${renamed})`, (b) => b.renameTable(name, renamed));
      expect
        .soft(
          absent(await c.call('getTableByName(<the old name>)', (b) => b.getTableByName(name))),
          'renameTable(): no table has the old name any more',
        )
        .toBe(true);
      const rows = await c.call(`listRows(${renamed})`, (b) => b.listRows(renamed));
      expect
        .soft(
          rows.map((r) => [r._id, r.Name, r.N]),
          'renameTable(): the renamed table keeps its row',
        )
        .toEqual([[id, 'kept', 7]]);
      await c.call(`deleteTable(${renamed})`, (b) => b.deleteTable(renamed));
      expect(
        absent(await c.call('getTableByName(<the deleted table>)', (b) => b.getTableByName(renamed))),
        'deleteTable(): the table is gone',
      ).toBe(true);
    } finally {
      for (const t of [renamed, name]) await existingTable(target, t).drop();
    }
  },
);

test(
  ...clause(
    'CLIENT-1',
    'addView, listViews, getViewByName, renameView and deleteView: a view is made, found, renamed and removed',
    ev.client('seatable-api (npm) lib/base.js Base.addView, listViews, getViewByName, renameView, deleteView'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'addView', 'listViews', 'getViewByName', 'renameView', 'deleteView');
    await withTable(c, target, 'views', [NAME], async (t) => {
      const made = await c.call(`addView(${t}, 'Open')`, (b) => b.addView(t, 'Open'));
      expect.soft(made?.name, 'addView(): the answer is the new view').toBe('Open');
      expect
        .soft(names(await c.call(`listViews(${t})`, (b) => b.listViews(t))), 'listViews(): lists the new view')
        .toContain('Open');
      const got = await c.call(`getViewByName(${t}, 'Open')`, (b) => b.getViewByName(t, 'Open'));
      expect.soft(got?.name, 'getViewByName(): the view of that name').toBe('Open');
      await c.call(`renameView(${t}, 'Open', 'Closed')`, (b) => b.renameView(t, 'Open', 'Closed'));
      const after = names(await c.call(`listViews(${t})`, (b) => b.listViews(t)));
      expect
        .soft(
          after.includes('Closed') && !after.includes('Open'),
          `renameView(): listViews shows "Closed" and no "Open" (got ${JSON.stringify(after)})`,
        )
        .toBe(true);
      expect
        .soft(
          (await c.call(`getViewByName(${t}, 'Closed')`, (b) => b.getViewByName(t, 'Closed')))?.name,
          'getViewByName() of the new name',
        )
        .toBe('Closed');
      await c.call(`deleteView(${t}, 'Closed')`, (b) => b.deleteView(t, 'Closed'));
      expect(
        names(await c.call(`listViews(${t})`, (b) => b.listViews(t))),
        'deleteView(): the view is gone',
      ).not.toContain('Closed');
    });
  },
);

test(
  ...clause(
    'CLIENT-1',
    'insertColumn adds columns (after an anchor column when given); listColumns, getColumnByName and getColumnsByType find them',
    ev.client('seatable-api (npm) lib/base.js Base.insertColumn, listColumns, getColumnByName, getColumnsByType'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'insertColumn', 'listColumns', 'getColumnByName', 'getColumnsByType');
    await withTable(c, target, 'columns', [NAME, { column_name: 'Note', column_type: 'text' }], async (t) => {
      const due = await c.call(`insertColumn(${t}, 'Due', 'date', undefined, { format })`, (b) =>
        b.insertColumn(t, 'Due', 'date', undefined, { format: 'YYYY-MM-DD' }),
      );
      expect.soft([due?.name, due?.type], 'insertColumn(): the answer is the new column').toEqual(['Due', 'date']);
      const nameKey = keyOf(await tableInfo(c, t), 'Name');
      await c.call(`insertColumn(${t}, 'Score', 'number', <key of Name>)`, (b) =>
        b.insertColumn(t, 'Score', 'number', nameKey),
      );
      const columns = await c.call(`listColumns(${t})`, (b) => b.listColumns(t));
      expect
        .because(
          ev.documented(
            'OA62 base_operations#insertColumn (anchor_column: "a column after which you would like to add this new column. If you leave this empty, the new column will be created at the end")',
          ),
        )
        .soft(
          names(columns),
          'listColumns(): every column in order, Score right after its anchor Name and Due at the end',
        )
        .toEqual(['Name', 'Score', 'Note', 'Due']);
      const view = (await tableInfo(c, t)).views?.[0]?.name;
      if (view)
        expect
          .soft(
            names(await c.call(`listColumns(${t}, '${view}')`, (b) => b.listColumns(t, view))),
            'listColumns() of the default view: every column',
          )
          .toEqual(['Name', 'Score', 'Note', 'Due']);
      const got = await c.call(`getColumnByName(${t}, 'Due')`, (b) => b.getColumnByName(t, 'Due'));
      expect
        .soft([got?.type, got?.data?.format], 'getColumnByName(): the date column with the format it was made with')
        .toEqual(['date', 'YYYY-MM-DD']);
      expect
        .soft(
          await c.call(`getColumnByName(${t}, <no such column>)`, (b) => b.getColumnByName(t, 'Nope')),
          'getColumnByName() of a name no column has',
        )
        .toBeUndefined();
      expect
        .soft(
          names(await c.call(`getColumnsByType(${t}, 'number')`, (b) => b.getColumnsByType(t, 'number'))),
          'getColumnsByType(number)',
        )
        .toEqual(['Score']);
      expect
        .soft(
          names(await c.call(`getColumnsByType(${t}, 'text')`, (b) => b.getColumnsByType(t, 'text'))),
          'getColumnsByType(text)',
        )
        .toEqual(['Name', 'Note']);
    });
  },
);

test(
  ...clause(
    'CLIENT-1',
    'renameColumn, resizeColumn, freezeColumn and moveColumn change the column and keep its values',
    ev.client(
      'seatable-api (npm) lib/base.js Base.renameColumn, resizeColumn, freezeColumn, moveColumn, getColumnByName, listColumns, listRows',
    ),
  ),
  async ({ client: c, target, state }) => {
    inScope(
      state,
      'renameColumn',
      'resizeColumn',
      'freezeColumn',
      'moveColumn',
      'getColumnByName',
      'listColumns',
      'listRows',
    );
    await withTable(
      c,
      target,
      'layout',
      [NAME, { column_name: 'Note', column_type: 'text' }, { column_name: 'N', column_type: 'number' }],
      async (t) => {
        const ids = await rowsMade(c, t, [
          { Name: 'a', Note: 'x', N: 1 },
          { Name: 'b', Note: 'y', N: 2 },
        ]);
        const info = await tableInfo(c, t);
        const [key, nameKey, nKey] = [keyOf(info, 'Note'), keyOf(info, 'Name'), keyOf(info, 'N')];
        const renamed = await c.call(`renameColumn(${t}, <key of Note>, 'Remark')`, (b) =>
          b.renameColumn(t, key, 'Remark'),
        );
        expect.soft(renamed?.name, 'renameColumn(): the answer is the renamed column').toBe('Remark');
        const rows = pick(await c.call(`listRows(${t})`, (b) => b.listRows(t)), ['Remark', 'Note']);
        expect
          .soft(rows, 'renameColumn(): every value is kept under the new name')
          .toEqual({ [ids[0]!]: { Remark: 'x', Note: undefined }, [ids[1]!]: { Remark: 'y', Note: undefined } });
        await c.call(`resizeColumn(${t}, <key>, 321)`, (b) => b.resizeColumn(t, key, 321));
        expect
          .soft(
            (await c.call(`getColumnByName(${t}, 'Remark')`, (b) => b.getColumnByName(t, 'Remark')))?.width,
            'resizeColumn(): the new width',
          )
          .toBe(321);
        await c.call(`freezeColumn(${t}, <key>, true)`, (b) => b.freezeColumn(t, key, true));
        expect
          .soft(
            (await c.call(`getColumnByName(${t}, 'Remark')`, (b) => b.getColumnByName(t, 'Remark')))?.frozen,
            'freezeColumn(): the column is frozen',
          )
          .toBe(true);
        await c.call(`moveColumn(${t}, <key of N>, <key of Name>)`, (b) => b.moveColumn(t, nKey, nameKey));
        const order = names(await c.call(`listColumns(${t})`, (b) => b.listColumns(t)));
        // Moved next to its target (the OpenAPI does not say on which side): either way the order changes.
        expect
          .because(
            ev.documented(
              'OA62 base_operations#updateColumn (move_column: column, target_column); seatable-api Base.moveColumn',
            ),
          )
          .soft(
            Math.abs(order.indexOf('N') - order.indexOf('Name')),
            `moveColumn(): N is moved beside Name (got ${JSON.stringify(order)})`,
          )
          .toBe(1);
        expect
          .because(
            ev.inferred('OA62 updateColumn move_column moves one column; the order of the others is our reading'),
          )
          .soft(
            [
              ['N', 'Name', 'Remark'],
              ['Name', 'N', 'Remark'],
            ],
            `moveColumn(): the columns not moved keep their order (got ${JSON.stringify(order)})`,
          )
          .toContainEqual(order);
        const after = pick(await c.call(`listRows(${t})`, (b) => b.listRows(t)), ['Name', 'Remark', 'N']);
        expect(after, 'after resize, freeze and move every value is where it was written').toEqual({
          [ids[0]!]: { Name: 'a', Remark: 'x', N: 1 },
          [ids[1]!]: { Name: 'b', Remark: 'y', N: 2 },
        });
      },
    );
  },
);

test(
  ...clause(
    'CLIENT-1',
    "modifyColumnType converts a column's values; deleteColumn removes that column and its values only",
    ev.client('seatable-api (npm) lib/base.js Base.modifyColumnType, deleteColumn, getColumnByName, listRows'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'modifyColumnType', 'deleteColumn', 'getColumnByName', 'listRows');
    await withTable(
      c,
      target,
      'types',
      [NAME, { column_name: 'Num', column_type: 'text' }, { column_name: 'Gone', column_type: 'text' }],
      async (t) => {
        const ids = await rowsMade(c, t, [
          { Name: 'a', Num: '42', Gone: 'g1' },
          { Name: 'b', Num: '7', Gone: 'g2' },
        ]);
        const info = await tableInfo(c, t);
        await c.call(`modifyColumnType(${t}, <key of Num>, 'number')`, (b) =>
          b.modifyColumnType(t, keyOf(info, 'Num'), 'number'),
        );
        expect
          .soft(
            (await c.call(`getColumnByName(${t}, 'Num')`, (b) => b.getColumnByName(t, 'Num')))?.type,
            'modifyColumnType(): the column is a number column',
          )
          .toBe('number');
        const typed = pick(await c.call(`listRows(${t})`, (b) => b.listRows(t)), ['Num']);
        const nums = Object.values(typed).map((r) => r.Num);
        expect
          .because(
            ev.recorded('seatable/openapi tests snapshots (api-shapes §3): a number cell reads as a JSON number'),
          )
          .soft(
            nums.filter((v) => v !== null && v !== undefined && typeof v !== 'number'),
            'modifyColumnType(): cells of the column Num, now a number column, that are not numbers',
          )
          .toEqual([]);
        expect
          .because(
            ev.inferred(
              'OA62 base_operations#updateColumn modify_column_type changes the type; which value a type change makes of each old one is not documented or recorded',
            ),
          )
          .soft(typed, 'modifyColumnType(): the texts "42" and "7" read as the numbers 42 and 7')
          .toEqual({ [ids[0]!]: { Num: 42 }, [ids[1]!]: { Num: 7 } });
        await c.call(`deleteColumn(${t}, <key of Gone>)`, (b) => b.deleteColumn(t, keyOf(info, 'Gone')));
        expect
          .soft(
            await c.call(`getColumnByName(${t}, 'Gone')`, (b) => b.getColumnByName(t, 'Gone')),
            'deleteColumn(): the column is gone',
          )
          .toBeUndefined();
        const rows = await c.call(`listRows(${t})`, (b) => b.listRows(t));
        expect(
          pick(rows, ['Name', 'Num', 'Gone']),
          "deleteColumn(): its values are gone, the other columns' values stay",
        ).toEqual({
          [ids[0]!]: { Name: 'a', Num: typed[ids[0]!]?.Num, Gone: undefined },
          [ids[1]!]: { Name: 'b', Num: typed[ids[1]!]?.Num, Gone: undefined },
        });
      },
    );
  },
);

const OPTION = (name: string) => ({ name, color: '#59CB74', textColor: '#FFFFFF' });
interface Option {
  id?: unknown;
  name?: unknown;
}
const optionsOf = (col: ColumnInfo | undefined): Option[] =>
  Array.isArray(col?.data?.options) ? (col.data.options as Option[]) : [];

test(
  ...clause(
    'CLIENT-1',
    'addColumnOptions gives each new option an id; addColumnCascadeSettings stores the cascade; rows take the options',
    ev.client(
      'seatable-api (npm) lib/base.js Base.addColumnOptions, addColumnCascadeSettings, getColumnByName, appendRow, getRow',
    ),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'addColumnOptions', 'addColumnCascadeSettings', 'getColumnByName', 'appendRow', 'getRow');
    const select = (column_name: string) => ({ column_name, column_type: 'single-select' });
    await withTable(c, target, 'options', [NAME, select('Continent'), select('Country')], async (t) => {
      await c.call(`addColumnOptions(${t}, 'Continent', [Europe, Asia])`, (b) =>
        b.addColumnOptions(t, 'Continent', [OPTION('Europe'), OPTION('Asia')]),
      );
      const parent = optionsOf(
        await c.call(`getColumnByName(${t}, 'Continent')`, (b) => b.getColumnByName(t, 'Continent')),
      );
      expect
        .soft(
          parent.map((o) => o.name),
          'addColumnOptions(): the column lists the new options',
        )
        .toEqual(['Europe', 'Asia']);
      const ids = parent.map((o) => o.id);
      expect
        .soft(
          ids.every((id) => typeof id === 'string' && id !== '') && new Set(ids).size === ids.length,
          `addColumnOptions(): each option has an id of its own (got ${JSON.stringify(ids)})`,
        )
        .toBe(true);
      await c.call(`addColumnOptions(${t}, 'Country', [France, Japan])`, (b) =>
        b.addColumnOptions(t, 'Country', [OPTION('France'), OPTION('Japan')]),
      );
      const cascade = { Europe: ['France'], Asia: ['Japan'] };
      await c.call(`addColumnCascadeSettings(${t}, 'Country', 'Continent', …)`, (b) =>
        b.addColumnCascadeSettings(t, 'Country', 'Continent', cascade),
      );
      const child = await c.call(`getColumnByName(${t}, 'Country')`, (b) => b.getColumnByName(t, 'Country'));
      expect
        .soft(
          cascadeByName(child, parent),
          'addColumnCascadeSettings(): the child column keeps the cascade (options by id or by name)',
        )
        .toEqual(cascade);
      const made = await c.call(`appendRow(${t}, { Continent: 'Europe', Country: 'France' })`, (b) =>
        b.appendRow(t, { Name: 'p', Continent: 'Europe', Country: 'France' }),
      );
      const row = await c.call(`getRow(${t}, <id>)`, (b) => b.getRow(t, String(made?._id)));
      expect([row?.Continent, row?.Country], 'the options added read back in a row').toEqual(['Europe', 'France']);
    });
  },
);

/** A child column's cascade settings with option ids (as the real service keeps them) turned into names. */
function cascadeByName(child: ColumnInfo | undefined, parent: Option[]): unknown {
  const settings = child?.data?.cascade_settings;
  if (!settings || typeof settings !== 'object') return settings;
  const nameIn = (opts: Option[], ref: string) => String(opts.find((o) => o.id === ref)?.name ?? ref);
  return Object.fromEntries(
    Object.entries(settings as Record<string, unknown>).map(([k, v]) => [
      nameIn(parent, k),
      Array.isArray(v) ? v.map((x) => nameIn(optionsOf(child), String(x))) : v,
    ]),
  );
}

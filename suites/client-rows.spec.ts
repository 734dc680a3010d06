/**
 * The official client (CLIENT-1), part 2: rows, SQL and links, each method called as the
 * client's code and readme show (src/spec/client-methods.ts) and its result read back: what
 * appendRow wrote getRow reads, batchUpdateRows' updates listRows shows, query() returns the
 * rows keyed by column names with option names, links written are the links read.
 *
 * Each worker shares one authenticated client (opened inside its first check); each check
 * makes its own tables through the client's addTable and drops them when it ends.
 */
import {
  inScope,
  keyOf,
  linkedIds,
  pick,
  rowsMade,
  tableInfo,
  withTable,
  withTables,
  type Row,
} from '../src/harness/official/checks.js';
import type { OfficialClient as Client } from '../src/harness/official/session.js';
import { SharedClient } from '../src/harness/official/session.js';
import type { Target } from '../src/harness/target.js';
import { clause, expect, withWorld, ev } from '../src/harness/test.js';

const test = withWorld('client-rows.spec.ts: official client', (target) => new SharedClient(target)).extend<{
  client: Client;
}>({
  // After `target`, so the check's recorder hears the authentication.
  client: [async ({ world, target: _target }, use) => use(await world.get()), { box: 'self' }],
});

const NAME = { column_name: 'Name', column_type: 'text' };
const N = { column_name: 'N', column_type: 'number' };

test(
  ...clause(
    'CLIENT-1',
    'appendRow and insertRow add rows that getRow reads back as written; appendRow answers the row keyed by column keys',
    ev.client('seatable-api (npm) lib/base.js Base.appendRow, insertRow, getRow, listRows'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'appendRow', 'insertRow', 'getRow', 'listRows');
    const columns = [
      NAME,
      N,
      { column_name: 'Done', column_type: 'checkbox' },
      { column_name: 'Level', column_type: 'single-select' },
    ];
    await withTable(c, target, 'append', columns, async (t) => {
      const written = { Name: 'Ada', N: 36, Done: true, Level: 'High' };
      const first = await c.call(`appendRow(${t}, row)`, (b) => b.appendRow(t, written));
      expect(typeof first?._id, 'appendRow(): the answer is the new row, with its _id').toBe('string');
      const info = await tableInfo(c, t);
      expect
        .soft(
          [first[keyOf(info, 'Name')], first[keyOf(info, 'N')]],
          'appendRow(): the answer (first_row) holds the values under the column keys getTableByName lists',
        )
        .toEqual(['Ada', 36]);
      const read = await c.call(`getRow(${t}, <id>)`, (b) => b.getRow(t, String(first._id)));
      expect
        .soft(
          pick([read], Object.keys(written))[String(first._id)],
          'getRow(): the row appended, every value as written',
        )
        .toEqual(written);
      const second = await c.call(`insertRow(${t}, { Name: 'Bob' }, <id>)`, (b) =>
        b.insertRow(t, { Name: 'Bob' }, String(first._id)),
      );
      expect(
        typeof second?._id === 'string' && second._id !== first._id,
        'insertRow(): the answer is a new row with an _id of its own',
      ).toBe(true);
      expect
        .soft(
          (await c.call(`getRow(${t}, <id>)`, (b) => b.getRow(t, String(second._id))))?.Name,
          'getRow() of the inserted row',
        )
        .toBe('Bob');
      const listed = (await c.call(`listRows(${t})`, (b) => b.listRows(t))).map((r) => r._id);
      expect([...listed].sort(), 'listRows(): the two rows and no other').toEqual([first._id, second._id].sort());
    });
  },
);

/** The order of a row list: the specification removed order_by (§4.1); that rows come in the order appended is not said. */
const ROW_ORDER = ev.inferred(
  'the row list has no order_by (§4.1, 4.4); that it lists rows in the order they were appended is our reading',
);

test(
  ...clause(
    'CLIENT-1',
    'batchAppendRows answers the count; listRows lists the rows as written, by view and by start and limit',
    ev.client('seatable-api (npm) lib/base.js Base.batchAppendRows, listRows'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'batchAppendRows', 'listRows');
    await withTable(c, target, 'batch', [NAME, N], async (t) => {
      const rows = [
        { Name: 'r1', N: 1 },
        { Name: 'r2', N: 2 },
        { Name: 'r3', N: 3 },
      ];
      const r = await c.call(`batchAppendRows(${t}, 3 rows)`, (b) => b.batchAppendRows(t, rows));
      expect.soft(r?.inserted_row_count, 'batchAppendRows(): inserted_row_count').toBe(3);
      const all = await c.call(`listRows(${t})`, (b) => b.listRows(t));
      const byName = (xs: { Name?: unknown; N?: unknown }[]) =>
        xs.map((x) => ({ Name: x.Name, N: x.N })).sort((a, b) => String(a.Name).localeCompare(String(b.Name)));
      expect.soft(byName(all), 'listRows(): the rows as written').toEqual(rows);
      expect
        .because(ROW_ORDER)
        .soft(
          all.map((x) => x.Name),
          'listRows(): the rows in the order appended',
        )
        .toEqual(rows.map((x) => x.Name));
      const page = await c.call(`listRows(${t}, undefined, undefined, undefined, 1, 2)`, (b) =>
        b.listRows(t, undefined, undefined, undefined, 1, 2),
      );
      // start and limit page the list in the target's own order (whatever it is).
      expect
        .soft(
          page.map((x) => x.Name),
          'listRows() with start 1 and limit 2: the second and third rows of the whole list',
        )
        .toEqual(all.slice(1, 3).map((x) => x.Name));
      const view = (await tableInfo(c, t)).views?.[0]?.name;
      if (view)
        expect(
          (await c.call(`listRows(${t}, '${view}')`, (b) => b.listRows(t, view))).map((x) => x.Name).sort(),
          'listRows() of the default view: every row',
        ).toEqual(['r1', 'r2', 'r3']);
    });
  },
);

test(
  ...clause(
    'CLIENT-1',
    'updateRow and batchUpdateRows change the values named and nothing else',
    ev.client('seatable-api (npm) lib/base.js Base.updateRow, batchUpdateRows, getRow, listRows'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'updateRow', 'batchUpdateRows', 'getRow', 'listRows');
    await withTable(c, target, 'update', [NAME, N], async (t) => {
      const [a, b2, c3] = await rowsMade(c, t, [
        { Name: 'a', N: 1 },
        { Name: 'b', N: 2 },
        { Name: 'c', N: 3 },
      ]);
      await c.call(`updateRow(${t}, <id>, { Name })`, (b) => b.updateRow(t, a!, { Name: 'a2' }));
      const one = await c.call(`getRow(${t}, <id>)`, (b) => b.getRow(t, a!));
      expect.soft([one?.Name, one?.N], 'updateRow(): the new Name, the N as it was').toEqual(['a2', 1]);
      await c.call(`batchUpdateRows(${t}, 2 updates)`, (b) =>
        b.batchUpdateRows(t, [
          { row_id: b2!, row: { N: 20 } },
          { row_id: c3!, row: { Name: 'c2', N: 30 } },
        ]),
      );
      const rows = pick(await c.call(`listRows(${t})`, (b) => b.listRows(t)), ['Name', 'N']);
      expect(rows, 'batchUpdateRows(): listRows shows each update, and the row updated before as it was').toEqual({
        [a!]: { Name: 'a2', N: 1 },
        [b2!]: { Name: 'b', N: 20 },
        [c3!]: { Name: 'c2', N: 30 },
      });
    });
  },
);

test(
  ...clause(
    'CLIENT-1',
    'deleteRow and batchDeleteRows remove exactly the rows named',
    ev.client('seatable-api (npm) lib/base.js Base.deleteRow, batchDeleteRows, listRows'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'deleteRow', 'batchDeleteRows', 'listRows');
    await withTable(c, target, 'delete', [NAME], async (t) => {
      const ids = await rowsMade(c, t, [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }, { Name: 'd' }]);
      // As sets: the order of the list is not what this check is about.
      const left = async () => (await c.call(`listRows(${t})`, (b) => b.listRows(t))).map((r) => String(r._id)).sort();
      await c.call(`deleteRow(${t}, <id>)`, (b) => b.deleteRow(t, ids[0]!));
      expect.soft(await left(), 'deleteRow(): that row is gone, the others stay').toEqual(ids.slice(1).sort());
      await c.call(`batchDeleteRows(${t}, 2 ids)`, (b) => b.batchDeleteRows(t, ids.slice(1, 3)));
      expect(await left(), 'batchDeleteRows(): those rows are gone, the last stays').toEqual(ids.slice(3).sort());
    });
  },
);

test(
  ...clause(
    'CLIENT-1',
    'query (SQL) returns the rows keyed by column names, select options by name',
    ev.client('seatable-api (npm) lib/base.js Base.query'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'query');
    const columns = [
      NAME,
      N,
      { column_name: 'Level', column_type: 'single-select' },
      { column_name: 'Tags', column_type: 'multiple-select' },
    ];
    await withTable(c, target, 'query', columns, async (t) => {
      const rows: Row[] = [
        { Name: 'alpha', N: 1, Level: 'Low', Tags: ['a'] },
        { Name: 'beta', N: 2, Level: 'High', Tags: ['a', 'b'] },
        { Name: 'gamma', N: 3 },
      ];
      const ids = await rowsMade(c, t, rows);
      const got = await c.call(`query('SELECT Name, N, Level, Tags FROM ${t} ORDER BY N')`, (b) =>
        b.query(`SELECT Name, N, Level, Tags FROM \`${t}\` ORDER BY N`),
      );
      expect
        .soft(
          got,
          'query(): the rows as written, keyed by column names, options by name (an empty select cell left out)',
        )
        .toEqual(rows);
      const star = await c.call(`query('SELECT * FROM ${t} WHERE N >= 2')`, (b) =>
        b.query(`SELECT * FROM \`${t}\` WHERE N >= 2`),
      );
      expect(pick(star, ['Name', 'Level']), 'query() of SELECT *: the rows matched, by _id').toEqual({
        [ids[1]!]: { Name: 'beta', Level: 'High' },
        [ids[2]!]: { Name: 'gamma', Level: undefined },
      });
    });
  },
);

interface LinkWorld {
  a: string;
  b: string;
  linkId: string;
  tableId: string;
  otherTableId: string;
  refsKey: string;
  a1: string;
  b1: string;
  b2: string;
}

/** Tables A and B made by the client, a link column A.Refs → B made by its insertColumn, one row in A and two in B. */
async function withLinks(c: Client, target: Target, fn: (w: LinkWorld) => Promise<void>): Promise<void> {
  await withTables(c, target, { linkA: [NAME], linkB: [NAME] }, async ({ linkA: a, linkB: b }) => {
    await c.setup(`insertColumn(${a}, 'Refs', 'link')`, (x) =>
      x.insertColumn(a!, 'Refs', 'link', undefined, { table: a, other_table: b }),
    );
    const [a1] = await rowsMade(c, a!, [{ Name: 'a-one' }]);
    const [b1, b2] = await rowsMade(c, b!, [{ Name: 'b-one' }, { Name: 'b-two' }]);
    const [ta, tb] = [await tableInfo(c, a!), await tableInfo(c, b!)];
    const linkId = ta.columns.find((x) => x.name === 'Refs')?.data?.link_id;
    await fn({
      a: a!,
      b: b!,
      linkId: String(linkId),
      tableId: ta._id,
      otherTableId: tb._id,
      refsKey: keyOf(ta, 'Refs'),
      a1: a1!,
      b1: b1!,
      b2: b2!,
    });
  });
}

const refsOf = async (c: Client, w: LinkWorld, what: string) =>
  linkedIds((await c.call(`getRow(${w.a}, <id>) ${what}`, (b) => b.getRow(w.a, w.a1)))?.Refs, {
    'b-one': w.b1,
    'b-two': w.b2,
  });

test(
  ...clause(
    'CLIENT-1',
    'getColumnLinkId finds the link; addLink writes a link that getRow and getLinkedRecords read; removeLink removes it',
    ev.client('seatable-api (npm) lib/base.js Base.getColumnLinkId, addLink, getLinkedRecords, removeLink, getRow'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'getColumnLinkId', 'addLink', 'getLinkedRecords', 'removeLink', 'getRow');
    await withLinks(c, target, async (w) => {
      const linkId = await c.call(`getColumnLinkId(${w.a}, 'Refs')`, (b) => b.getColumnLinkId(w.a, 'Refs'));
      expect.soft(linkId, "getColumnLinkId(): the link column's data.link_id").toBe(w.linkId);
      await c.call('addLink(<link id>, A, B, a1, b1)', (b) => b.addLink(w.linkId, w.a, w.b, w.a1, w.b1));
      expect.soft(await refsOf(c, w, 'after addLink'), 'addLink(): the row links the other row').toEqual([w.b1]);
      const records = await c.call(
        'getLinkedRecords(<table id>, <link column key>, [{ row_id, offset, limit }])',
        (b) => b.getLinkedRecords(w.tableId, w.refsKey, [{ row_id: w.a1, offset: 0, limit: 10 }]),
      );
      const mine = records?.[w.a1];
      expect
        .soft(
          [linkedIds(mine), Array.isArray(mine) ? mine.map((x) => x.display_value) : mine],
          'getLinkedRecords(): the linked row with its display value',
        )
        .toEqual([[w.b1], ['b-one']]);
      await c.call('removeLink(<link id>, A, B, a1, b1)', (b) => b.removeLink(w.linkId, w.a, w.b, w.a1, w.b1));
      expect(await refsOf(c, w, 'after removeLink'), 'removeLink(): the row links nothing').toEqual([]);
    });
  },
);

test(
  ...clause(
    'CLIENT-1',
    'updateLink and batchUpdateLinks replace the links of a row',
    ev.client('seatable-api (npm) lib/base.js Base.updateLink, batchUpdateLinks, getRow'),
  ),
  async ({ client: c, target, state }) => {
    inScope(state, 'updateLink', 'batchUpdateLinks', 'getRow');
    await withLinks(c, target, async (w) => {
      await c.call('updateLink(<link id>, A, B, a1, [b1, b2])', (b) =>
        b.updateLink(w.linkId, w.a, w.b, w.a1, [w.b1, w.b2]),
      );
      expect
        .soft(await refsOf(c, w, 'after updateLink'), 'updateLink(): the row links both rows')
        .toEqual([w.b1, w.b2].sort());
      await c.call('batchUpdateLinks(<link id>, <table id>, <other table id>, [a1], { a1: [b2] })', (b) =>
        b.batchUpdateLinks(w.linkId, w.tableId, w.otherTableId, [w.a1], { [w.a1]: [w.b2] }),
      );
      expect(await refsOf(c, w, 'after batchUpdateLinks'), 'batchUpdateLinks(): the row links only b2').toEqual([w.b2]);
    });
  },
);

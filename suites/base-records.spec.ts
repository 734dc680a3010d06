/**
 * Linked records, big-data rows, row locks and row comments (BASE-5, BASE-6, BASE-7), by
 * what they do: query-links pages a row's links; rows added to or moved into big data are
 * read by SQL and not by SQL over the normal store (server_only), and unarchive brings them back; locks show on the
 * row; a comment is listed and counted until deleted. Each check works on scratch tables of
 * its own. Work the real service may do in the background (big-data moves) is polled a few
 * times before a check decides.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { tableInfo, type TableInfo } from '../src/harness/structure.js';
import { expectStatus } from '../src/harness/assert.js';
import { fixtureMissing, Undecided } from '../src/harness/outcome.js';
import { archiveBody } from '../src/harness/release-forms.js';
import { appendAll, countRows, listRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import type { Reply, Target } from '../src/harness/target.js';
import { clause, expect, test, ev } from '../src/harness/test.js';
import { endpoint, offeredAt } from '../src/spec/index.js';

type Row = Record<string, unknown>;
const obj = (v: unknown): Row => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Row) : {});
const names = (rows: Row[]) => rows.map((r) => String(r.Name)).sort();
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 300);

function setup(r: Reply, what: string): void {
  if (r.status !== 200 && r.status !== 201)
    throw fixtureMissing(`${what}: status ${r.status}: ${r.text.slice(0, 200)}`);
}

/** Read until `done` holds, a bounded number of times (the service may finish a move in the background). */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, tries = 10, waitMs = 300): Promise<T> {
  let v = await read();
  for (let i = 1; i < tries && !done(v); i++) {
    await sleep(waitMs);
    v = await read();
  }
  return v;
}

/** A scratch table as metadata/ lists it, with its _id (a missing fixture otherwise). */
async function tableMeta(target: Target, t: Scratch): Promise<TableInfo & { _id: string }> {
  const table = await tableInfo(target, t);
  if (!table._id) throw fixtureMissing(`metadata/ lists table ${t.name} without its _id`);
  return { ...table, _id: table._id };
}

// BASE-5 ────────────────────────────────────────────────────────────────────────────────

/** 12 links made in three calls of 4, a second apart: creation order is call order (the OpenAPI orders by ctime). */
const LINK_BATCHES = 3;

test(
  ...clause(
    'BASE-5',
    "query-links pages a row's 12 linked records: offset 0 limit 5 → 5, offset 10 → 2, in creation order, display values of the linked rows",
    ev.documented('OA62 base_operations#listRowLinks'),
  ),
  async ({ target }) => {
    const dst = await scratchTable(target, 'qlinks_dst', [{ column_name: 'Label', column_type: 'text' }]);
    const src = await scratchTable(target, 'qlinks_src', [{ column_name: 'Name', column_type: 'text' }]).catch(
      async (e: unknown) => {
        await dst.drop();
        throw e;
      },
    );
    try {
      setup(
        await target.gw(src.base, 'POST', 'columns/', {
          json: {
            table_name: src.name,
            column_name: 'Linked',
            column_type: 'link',
            column_data: { table: src.name, other_table: dst.name },
          },
        }),
        'add a link column',
      );
      const meta = await tableMeta(target, src);
      const linkId = meta.columns.find((c) => c.name === 'Linked')?.data?.link_id;
      if (typeof linkId !== 'string') throw fixtureMissing('metadata/ gives no data.link_id for the link column');
      const labels = Array.from({ length: 12 }, (_, i) => `L${String(i).padStart(2, '0')}`);
      const targets = await appendAll(
        target,
        dst,
        labels.map((Label) => ({ Label })),
      );
      const [row] = await appendAll(target, src, [{ Name: 'has links' }]);
      if (targets.length !== 12 || !row) throw fixtureMissing(`append answered ${targets.length} of 12 row ids`);
      // Linked in an order that is neither id nor append order: batch b holds targets b, b+3, b+6, b+9.
      const batchOf = new Map<string, number>();
      for (let b = 0; b < LINK_BATCHES; b++) {
        const part = targets.filter((_, i) => i % LINK_BATCHES === (b + 1) % LINK_BATCHES);
        part.forEach((id) => batchOf.set(id, b));
        if (b > 0) await sleep(1100);
        setup(
          await target.gw(src.base, 'POST', 'links/', {
            json: {
              table_name: src.name,
              other_table_name: dst.name,
              link_id: linkId,
              other_rows_ids_map: { [row]: part },
            },
          }),
          'create links',
        );
      }
      const labelOf = new Map(targets.map((id, i) => [id, labels[i]]));
      const page = async (pos: { offset?: number; limit?: number }) => {
        const r = await target.gw(src.base, 'POST', 'query-links/', {
          json: { table_name: src.name, link_column_name: 'Linked', rows: [{ row_id: row, ...pos }] },
        });
        expectStatus(r, 200, `query-links ${show(pos)}`);
        const list = obj(r.json())[row];
        expect(
          Array.isArray(list),
          `query-links ${show(pos)}: no list under the row's id: ${r.text.slice(0, 300)}`,
        ).toBe(true);
        return list as { row_id?: unknown; display_value?: unknown }[];
      };
      const pages = [
        await page({ offset: 0, limit: 5 }),
        await page({ offset: 5, limit: 5 }),
        await page({ offset: 10, limit: 5 }),
      ];
      expect(
        pages.map((p) => p.length),
        'records per page (offset 0, 5, 10; limit 5) of a row with 12 links',
      ).toEqual([5, 5, 2]);
      const ids = pages.flat().map((x) => String(x.row_id));
      expect([...ids].sort(), 'the three pages together: each linked record once').toEqual([...targets].sort());
      const batches = ids.map((id) => batchOf.get(id) ?? -1);
      expect
        .because(
          ev.inferred(
            'OA62 base_operations list_row_links.offset: the linked rows come "by created time (ctime)"; that this is the links\' creation (not the linked rows\' _ctime) is our reading',
          ),
        )
        .soft(
          batches,
          "link batch of each record, page by page: creation order means the first call's links come first",
        )
        .toEqual([...batches].sort((a, b) => a - b));
      const wrong = pages.flat().filter((x) => x.display_value !== labelOf.get(String(x.row_id)));
      expect
        .soft(
          wrong.map(
            (x) => `${String(x.row_id)}: ${show(x.display_value)} (its Label is ${labelOf.get(String(x.row_id))})`,
          ),
          "display values that are not the linked row's display column",
        )
        .toEqual([]);
      expect
        .soft(
          (await page({})).length,
          'records of a row with 12 links when the row names no offset and limit (the OpenAPI: 10)',
        )
        .toBe(10);
    } finally {
      await src.drop();
      await dst.drop();
    }
  },
);

// BASE-6 ────────────────────────────────────────────────────────────────────────────────

/**
 * Which store a row is in, as the API description lets a client tell: SQL with server_only
 * reads the normal store only. Whether the plain row list (no view) shows big-data rows is
 * not said: OA62 listRows "also supports the big data backend" (since 4.4), and views have a
 * type `archive` (a big data view); the clause reads it as "normal rows only".
 */
const NORMAL_STORE = ev.documented(
  'OA62 base_operations#querySQL (sql_query.server_only: "limit the output only to the normal backend (true)"; without it, SQL reads normal and big data rows)',
);
const ROW_LIST_NORMAL = ev.inferred(
  'OA62 base_operations#listRows "also supports the big data backend" (4.4+) and views may be of type archive; that the row list without a view leaves big-data rows out is our reading',
);

/** The names of `t`'s rows in the normal store (SQL with server_only). */
async function normalStore(target: Target, t: Scratch): Promise<string[]> {
  const r = await target.gw(t.base, 'POST', 'sql/', {
    json: { sql: `SELECT Name FROM \`${t.name}\` LIMIT 1000`, convert_keys: true, server_only: true },
  });
  expectStatus(r, 200, 'SQL SELECT with server_only: true (the normal store)', NORMAL_STORE);
  return names((obj(r.json()).results as Row[] | undefined) ?? []);
}

const NORMAL = [
  { Name: 'keep-1', N: 1 },
  { Name: 'move-1', N: 11 },
  { Name: 'keep-2', N: 2 },
  { Name: 'move-2', N: 12 },
];
const BIG = [
  { Name: 'big-1', N: 101 },
  { Name: 'big-2', N: 102 },
  { Name: 'big-3', N: 103 },
];

test(
  ...clause(
    'BASE-6',
    'rows added with add-archived-rows are counted by SQL and not listed by the row list',
    ev.documented('OA62 base_operations#addBigDataRows, moveRowsToBigData, moveRowsToNormalBackend, querySQL'),
  ),
  async ({ target }) => {
    const t = await scratchTable(target, 'bigadd', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'N', column_type: 'number' },
    ]);
    try {
      await appendAll(target, t, NORMAL.slice(0, 2));
      const r = await target.gw(t.base, 'POST', 'add-archived-rows/', { json: { table_name: t.name, rows: BIG } });
      expectStatus(r, 200, 'add-archived-rows');
      expect.soft(obj(r.json()).inserted_row_count, 'add-archived-rows: inserted_row_count').toBe(BIG.length);
      const total = NORMAL.slice(0, 2).length + BIG.length;
      const n = await eventually(
        () => countRows(target, t),
        (x) => x === total,
      );
      expect(n, `SELECT COUNT(*) over the table after 2 appended and ${BIG.length} big-data rows`).toBe(total);
      expect
        .because(NORMAL_STORE)
        .soft(await normalStore(target, t), 'SQL with server_only: true (the normal store only)')
        .toEqual(names(NORMAL.slice(0, 2)));
      expect
        .because(ROW_LIST_NORMAL)
        .soft(names(await listRows(target, t, { limit: 1000 })), 'the row list (normal rows only)')
        .toEqual(names(NORMAL.slice(0, 2)));
    } finally {
      await t.drop();
    }
  },
);

/** A view of `t` showing the rows with N ≥ 10, checked through the row list. */
async function bigView(target: Target, t: Scratch, meta: TableInfo, view: string, want: string[]): Promise<void> {
  const key = meta.columns.find((c) => c.name === 'N')?.key;
  const filters = [{ column_key: key, column_name: 'N', filter_predicate: 'greater_or_equal', filter_term: 10 }];
  setup(
    await target.gw(t.base, 'POST', 'views/', {
      json: { table_name: t.name, name: view, type: 'table', filters, filter_conjunction: 'And' },
    }),
    'create a view',
  );
  let shown = names(await listRows(target, t, { view_name: view }));
  if (JSON.stringify(shown) !== JSON.stringify(want)) {
    await target.gw(t.base, 'PUT', `views/${encodeURIComponent(view)}/`, {
      json: { table_name: t.name, filters, filter_conjunction: 'And' },
      expect: [400, 404, 405],
    });
    shown = names(await listRows(target, t, { view_name: view }));
  }
  if (JSON.stringify(shown) !== JSON.stringify(want))
    throw new Undecided('fixture', `could not make a view with the filter N >= 10: it shows ${show(shown)}`);
}

test(
  ...clause(
    'BASE-6',
    "archive-view moves exactly the view's rows out of the row list (SQL still reads them); unarchive brings a row back",
    ev.documented('OA62 base_operations#addBigDataRows, moveRowsToBigData, moveRowsToNormalBackend, querySQL'),
  ),
  async ({ target, state }) => {
    const t = await scratchTable(target, 'bigmove', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'N', column_type: 'number' },
    ]);
    try {
      const ids = await appendAll(target, t, NORMAL);
      const meta = await tableMeta(target, t);
      const moved = NORMAL.filter((r) => r.N >= 10)
        .map((r) => r.Name)
        .sort();
      const kept = NORMAL.filter((r) => r.N < 10)
        .map((r) => r.Name)
        .sort();
      await bigView(target, t, meta, 'to big data', moved);
      // The release's form: the view by name from 6.0, before that the SQL condition of its filter.
      const a = await target.gw(t.base, 'POST', 'archive-view/', {
        json: archiveBody(state.apiVersion, t.name, { view: 'to big data', where: '`N` >= 10' }),
      });
      expectStatus(a, 200, 'archive-view');
      const stored = await eventually(
        () => normalStore(target, t),
        (x) => JSON.stringify(x) === JSON.stringify(kept),
      );
      expect
        .because(NORMAL_STORE)(
          stored,
          'the normal store (SQL, server_only) after archiving the view: its rows moved to big data',
        )
        .toEqual(kept);
      expect
        .because(ROW_LIST_NORMAL)
        .soft(
          names(await listRows(target, t, { limit: 1000 })),
          'the row list after archiving the view (its rows moved to big data)',
        )
        .toEqual(kept);
      const all = await target.gw(t.base, 'POST', 'sql/', {
        json: { sql: `SELECT Name FROM \`${t.name}\` LIMIT 100`, convert_keys: true },
      });
      expectStatus(all, 200, 'SQL SELECT after archiving');
      expect(
        names((obj(all.json()).results as Row[] | undefined) ?? []),
        'SQL SELECT over the table (normal and big-data rows)',
      ).toEqual(names(NORMAL));
      const back = ids[NORMAL.findIndex((r) => r.Name === 'move-1')]!;
      const u = await target.gw(t.base, 'POST', 'unarchive/', { json: { table_id: meta._id, row_ids: [back] } });
      expectStatus(u, 200, 'unarchive');
      expect.soft(obj(u.json()).success, `unarchive answered ${u.text.slice(0, 200)}`).not.toBe(false);
      const want = [...kept, 'move-1'].sort();
      const after = await eventually(
        () => normalStore(target, t),
        (x) => JSON.stringify(x) === JSON.stringify(want),
      );
      expect.because(NORMAL_STORE)(after, 'the normal store (SQL, server_only) after unarchiving move-1').toEqual(want);
      expect
        .because(ROW_LIST_NORMAL)
        .soft(names(await listRows(target, t, { limit: 1000 })), 'the row list after unarchiving move-1')
        .toEqual(want);
      expect
        .soft(await countRows(target, t), 'SQL COUNT(*) after unarchiving (no row lost or doubled)')
        .toBe(NORMAL.length);
    } finally {
      await t.drop();
    }
  },
);

// BASE-7 ────────────────────────────────────────────────────────────────────────────────

test(
  ...clause(
    'BASE-7',
    'lock-rows sets _locked on the row (a second lock is fine); unlock-rows clears it',
    ev.documented(
      'OA62 base_operations#lockRows, unlockRows, listRowComments, createRowComment, getRowCommentsCount, deleteComment',
    ),
  ),
  async ({ target }) => {
    const t = await scratchTable(target, 'locks');
    try {
      const [a, b] = await appendAll(target, t, [{ Name: 'locked' }, { Name: 'free' }]);
      if (!a || !b) throw fixtureMissing('append gave no row ids');
      const lock = (path: string) => target.gw(t.base, 'PUT', path, { json: { table_name: t.name, row_ids: [a] } });
      expectStatus(await lock('lock-rows/'), 200, 'lock-rows');
      expectStatus(await lock('lock-rows/'), 200, 'lock-rows again on a locked row');
      const byId = async () => new Map((await listRows(target, t)).map((r) => [r._id as string, r]));
      let rows = await byId();
      expect(rows.get(a)?._locked, `_locked of the locked row: ${show(rows.get(a))}`).toBe(true);
      expect.soft(!!rows.get(b)?._locked, '_locked of a row nobody locked').toBe(false);
      const by = rows.get(a)?._locked_by;
      expect.soft(typeof by === 'string' && by.length > 0, `_locked_by of the locked row: ${show(by)}`).toBe(true);
      expectStatus(await lock('unlock-rows/'), 200, 'unlock-rows');
      rows = await byId();
      expect(!!rows.get(a)?._locked, `_locked after unlock-rows: ${show(rows.get(a)?._locked)}`).toBe(false);
    } finally {
      await t.drop();
    }
  },
);

type Comment = { id?: unknown; comment?: unknown };
/** listRowComments: a bare array (OpenAPI) or `{comment_list}` (scripting manual). */
const commentList = (v: unknown): Comment[] =>
  Array.isArray(v) ? v : ((obj(v).comment_list as Comment[] | undefined) ?? []);

test(
  ...clause(
    'BASE-7',
    'a comment created on a row is listed and counted (1); deleting it brings the count to 0',
    ev.documented(
      'OA62 base_operations#lockRows, unlockRows, listRowComments, createRowComment, getRowCommentsCount, deleteComment',
    ),
  ),
  async ({ target, state }) => {
    test.skip(
      !offeredAt(endpoint('createRowComment'), state.apiVersion),
      `creating a row comment through the gateway came with 6.2 (the run holds the target to ${state.apiVersion})`,
    );
    const t = await scratchTable(target, 'comments');
    try {
      const [row] = await appendAll(target, t, [{ Name: 'discussed' }]);
      if (!row) throw fixtureMissing('append gave no row id');
      const meta = await tableMeta(target, t);
      const text = `conformance comment ${Date.now()}`;
      expectStatus(
        await target.gw(t.base, 'POST', 'comments/', {
          query: { table_id: meta._id, row_id: row },
          json: { comment: text },
        }),
        200,
        'create a row comment',
      );
      const listed = await target.gw(t.base, 'GET', 'comments/', { query: { row_id: row } });
      expectStatus(listed, 200, "list the row's comments");
      const mine = commentList(listed.json()).find((c) => c.comment === text);
      expect(mine, `the row's comments do not hold the new one: ${listed.text.slice(0, 300)}`).toBeDefined();
      const count = async () => {
        const r = await target.gw(t.base, 'GET', 'comments-count/', { query: { row_id: row } });
        expectStatus(r, 200, 'comments-count');
        return obj(r.json()).count;
      };
      expect(await count(), 'comments-count of a row with one comment').toBe(1);
      if (mine?.id === undefined) throw new Undecided('shape', 'the listed comment has no id to delete it by');
      expectStatus(
        await target.gw(t.base, 'DELETE', `comments/${encodeURIComponent(String(mine.id))}/`),
        200,
        'delete the comment',
      );
      expect(await count(), "comments-count after deleting the row's only comment").toBe(0);
    } finally {
      await t.drop();
    }
  },
);

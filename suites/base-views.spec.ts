/**
 * BASE-1: views are stored configuration. A view made with a filter, a sort and a hidden
 * column — the table named in the query string, as the OpenAPI and the official clients do
 * it — is listed and read back as made; the row list by its name shows exactly its rows, in
 * its order, without the hidden column; an update and a delete take effect.
 *
 * The OpenAPI's Create View takes name, type and is_locked and points to Update View for the
 * rest: a server whose create ignores the settings passes when the update applies them.
 */
import { expectClientError, expectStatus } from '../src/harness/assert.js';
import { setupOk } from '../src/harness/outcome.js';
import { columnNamed, needsOperations, show, tableInfo, type ViewInfo } from '../src/harness/structure.js';
import { appendAll, listRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import type { Target } from '../src/harness/target.js';
import { clause, expect, test, ev } from '../src/harness/test.js';

const COLUMNS = [
  { column_name: 'Name', column_type: 'text' },
  { column_name: 'N', column_type: 'number' },
  { column_name: 'Note', column_type: 'text' },
];
const ROWS = [
  { Name: 'a', N: 3, Note: 'note a' },
  { Name: 'b', N: 12, Note: 'note b' },
  { Name: 'c', N: 7, Note: 'note c' },
  { Name: 'd', N: 20, Note: 'note d' },
  { Name: 'e', N: 1, Note: 'note e' },
];
const VIEW = 'big first';

interface Fruit {
  t: Scratch;
  n: string;
  note: string;
}

async function fruitTable(target: Target, label: string): Promise<Fruit> {
  const t = await scratchTable(target, label, COLUMNS);
  try {
    await appendAll(target, t, ROWS);
    const info = await tableInfo(target, t);
    return { t, n: columnNamed(info, 'N').key, note: columnNamed(info, 'Note').key };
  } catch (e) {
    await t.drop();
    throw e;
  }
}

/** N > 2, largest first, Note hidden. */
const settingsOf = (f: Fruit) => ({
  filters: [{ column_key: f.n, filter_predicate: 'greater', filter_term: 2 }],
  filter_conjunction: 'And',
  sorts: [{ column_key: f.n, sort_type: 'down' }],
  hidden_columns: [f.note],
});

const viewPath = (name: string) => `views/${encodeURIComponent(name)}/`;
const q = (f: Fruit) => ({ table_name: f.t.name });

/** Does a view carry these settings (terms compared as text: "2" and 2 are the same term)? */
function differences(view: ViewInfo | undefined, s: ReturnType<typeof settingsOf>): string[] {
  if (!view) return ['the view is not there'];
  const out: string[] = [];
  const filters = Array.isArray(view.filters) ? (view.filters as Record<string, unknown>[]) : [];
  const f = filters.find((x) => x.column_key === s.filters[0]!.column_key);
  if (
    filters.length !== 1 ||
    !f ||
    f.filter_predicate !== s.filters[0]!.filter_predicate ||
    String(f.filter_term) !== String(s.filters[0]!.filter_term)
  )
    out.push(`filters ${show(view.filters)} (made with ${show(s.filters)})`);
  const sorts = Array.isArray(view.sorts) ? (view.sorts as Record<string, unknown>[]) : [];
  if (
    sorts.length !== 1 ||
    sorts[0]!.column_key !== s.sorts[0]!.column_key ||
    sorts[0]!.sort_type !== s.sorts[0]!.sort_type
  )
    out.push(`sorts ${show(view.sorts)} (made with ${show(s.sorts)})`);
  if (!Array.isArray(view.hidden_columns) || !view.hidden_columns.includes(s.hidden_columns[0]))
    out.push(`hidden_columns ${show(view.hidden_columns)} (made with ${show(s.hidden_columns)})`);
  return out;
}

/** Create the view through the query string; apply the settings by update when the create did not take them. */
async function makeView(target: Target, f: Fruit): Promise<void> {
  const s = settingsOf(f);
  const r = await target.gw(f.t.base, 'POST', 'views/', { query: q(f), json: { name: VIEW, type: 'table', ...s } });
  expectStatus(r, [200, 201], 'create view with table_name in the query string (POST views/?table_name=…)');
  if (differences(r.json<ViewInfo>(), s).length === 0) return;
  const u = await target.gw(f.t.base, 'PUT', viewPath(VIEW), { query: q(f), json: s });
  expectStatus(
    u,
    200,
    `update view ${VIEW} with its filter, sort and hidden column (PUT views/{view_name}/?table_name=…)`,
  );
}

const names = (rows: Record<string, unknown>[]) => rows.map((r) => r.Name);

/** No source shows what the real service answers for a view that is gone. */
const GONE = ev.inferred(
  'OA62 base_operations#deleteView removes the view; its error answers to a view that is gone are not documented or recorded (a 4xx is HTTP semantics)',
);

/**
 * A view's settings read back as made: the API description lists filters, sorts and
 * hidden_columns in a view's answer, but not that the server keeps them as sent (it may add
 * fields, retype terms, or give hidden_columns as objects).
 */
const READ_BACK = ev.inferred(
  'OA62 base_operations#createView, #getView, #listViews show filters, sorts and hidden_columns in a view; that they read back as sent is our reading',
);
/** The row list by view: the view's rows, its visible columns only. */
const BY_VIEW = ev.documented(
  'OA62 base_operations#listRows ("a list of rows contained in a table (or in a view if provided)": the view as #updateView sets its filters and sorts; "If a view is selected, only the visible columns of that view are returned")',
);

test(
  ...clause(
    'BASE-1',
    'a view made with a filter, a sort and a hidden column is listed and read back as made',
    ev.documented('OA62 base_operations#listViews, createView, getView, updateView, deleteView, listRows'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'createView', 'listViews', 'getView', 'updateView');
    const f = await fruitTable(target, 'view_read');
    try {
      await makeView(target, f);
      const list = await target.gw(f.t.base, 'GET', 'views/', { query: q(f) });
      expectStatus(list, 200, 'list views (GET views/?table_name=…)');
      const views = list.json<{ views?: ViewInfo[] }>().views;
      expect(Array.isArray(views), `list views: the answer has no "views" array: ${list.text.slice(0, 200)}`).toBe(
        true,
      );
      const listed = views!.find((v) => v.name === VIEW);
      expect(listed, `list views does not list the view "${VIEW}" just made`).toBeDefined();
      expect
        .because(READ_BACK)
        .soft(differences(listed, settingsOf(f)), `list views: view "${VIEW}" as listed differs from how it was made`)
        .toEqual([]);
      const got = await target.gw(f.t.base, 'GET', viewPath(VIEW), { query: q(f) });
      expectStatus(got, 200, 'get view (GET views/{view_name}/?table_name=…)');
      expect
        .because(READ_BACK)
        .soft(differences(got.json<ViewInfo>(), settingsOf(f)), `get view: view "${VIEW}" differs from how it was made`)
        .toEqual([]);
    } finally {
      await f.t.drop();
    }
  },
);

test(
  ...clause(
    'BASE-1',
    "the row list by view_name shows exactly the view's rows, in its sort order, without its hidden column",
    ev.documented('OA62 base_operations#listViews, createView, getView, updateView, deleteView, listRows'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'createView', 'updateView', 'listRows');
    const f = await fruitTable(target, 'view_rows');
    try {
      await makeView(target, f);
      const rows = await listRows(target, f.t, { view_name: VIEW });
      expect
        .because(BY_VIEW)
        .soft(names(rows), 'rows by the view (N > 2, N descending): the rows or their order differ')
        .toEqual(['d', 'b', 'c', 'a']);
      const shown = rows.filter((r) => 'Note' in r).map((r) => r.Name);
      expect
        .because(BY_VIEW)
        .soft(
          shown,
          'rows by the view carry the column Note, which the view hides (a view lists its visible columns only)',
        )
        .toEqual([]);
      const all = await listRows(target, f.t);
      expect
        .because(
          ev.documented(
            'OA62 base_operations#listRows ("If no view is selected, all columns (even hidden one) are returned")',
          ),
        )
        .soft(
          all.filter((r) => r.Note === `note ${String(r.Name)}`).length,
          'rows without a view must carry every column, Note included',
        )
        .toBe(ROWS.length);
    } finally {
      await f.t.drop();
    }
  },
);

test(
  ...clause(
    'BASE-1',
    'an update of a view changes its rows; a deleted view is gone and the row list by its name is refused',
    ev.documented('OA62 base_operations#listViews, createView, getView, updateView, deleteView, listRows'),
  ),
  async ({ target, state }) => {
    needsOperations(state, 'createView', 'updateView', 'deleteView', 'listViews', 'getView', 'listRows');
    const f = await fruitTable(target, 'view_change');
    try {
      await makeView(target, f);
      const changed = {
        filters: [{ column_key: f.n, filter_predicate: 'less', filter_term: 10 }],
        sorts: [{ column_key: f.n, sort_type: 'up' }],
        hidden_columns: [],
      };
      const u = await target.gw(f.t.base, 'PUT', viewPath(VIEW), { query: q(f), json: changed });
      expectStatus(u, 200, 'update view (PUT views/{view_name}/?table_name=…)');
      const rows = await listRows(target, f.t, { view_name: VIEW });
      expect.soft(names(rows), 'rows by the updated view (N < 10, N ascending)').toEqual(['e', 'a', 'c']);
      expect
        .soft(rows.find((r) => r.Name === 'a')?.Note, 'the updated view hides no column any more: Note must be shown')
        .toBe('note a');

      const d = await target.gw(f.t.base, 'DELETE', viewPath(VIEW), { query: q(f) });
      expectStatus(d, 200, 'delete view (DELETE views/{view_name}/?table_name=…)');
      const list = await target.gw(f.t.base, 'GET', 'views/', { query: q(f) });
      setupOk(list, 'list views after the delete');
      expect
        .soft(
          (list.json<{ views?: ViewInfo[] }>().views ?? []).map((v) => v.name),
          'list views after the delete still lists the view',
        )
        .not.toContain(VIEW);
      expectClientError(
        await target.gw(f.t.base, 'GET', viewPath(VIEW), { query: q(f), expect: [400, 404] }),
        'get a deleted view',
        GONE,
      );
      expectClientError(
        await target.gw(f.t.base, 'GET', 'rows/', {
          query: { ...q(f), view_name: VIEW, convert_keys: 'true' },
          expect: [400, 404],
        }),
        'list rows by the name of a deleted view',
        GONE,
      );
    } finally {
      await f.t.drop();
    }
  },
);

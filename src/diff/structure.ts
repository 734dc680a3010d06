/**
 * The structure sequence (BASE-1…4, CLIENT-1): on a scratch table of the side's own, a view
 * made with a filter, a sort and a hidden column, then read back through the row and column
 * lists; a column renamed, resized and retyped; select options added and cascaded; the table
 * renamed (and back) and duplicated (the copy dropped); and SQL read as the official client
 * reads it — keyed by column keys, mapped to names through the answer's metadata.
 */
import { Undecided } from '../harness/outcome.js';
import { existingTable } from '../harness/tables.js';
import type { Reply } from '../harness/target.js';
import { jsonBody } from './normalise.js';
import type { Side } from './side.js';
import { byName, field, rowsOf, stepSequence } from './steps.js';

const option = (name: string) => ({ name, color: '#FFFCB5', textColor: '#202428' });
const ROWS = [
  { Name: 'a', N: 3, Note: 'note a', Raw: '42', Pick: 'p1', Sub: 's1' },
  { Name: 'b', N: 12, Note: 'note b', Raw: '7' },
  { Name: 'c', N: 7, Note: 'note c', Pick: 'p2' },
  { Name: 'd', N: 20, Note: 'note d' },
  { Name: 'e', N: 1, Note: 'note e' },
];
const VIEW = 'big first';

interface ColumnInfo {
  key: string;
  name: string;
  type?: string;
  width?: unknown;
  data?: Record<string, unknown> | null;
}
const columnsOf = (r: Reply) => (field(jsonBody(r), 'columns') ?? []) as ColumnInfo[];
const keyOf = (cols: ColumnInfo[], name: string) => {
  const c = cols.find((x) => x.name === name);
  if (!c) throw new Undecided('fixture', `the column list does not show column ${name}`);
  return c.key;
};
/** Names, types and widths; a select column's options by name, whether each has an id; a cascade by option names. */
function layout(b: unknown) {
  const cols = (field(b, 'columns') ?? []) as ColumnInfo[];
  const options = (c: ColumnInfo) => (c.data?.options ?? []) as { id?: unknown; name?: unknown }[];
  const optionName = (id: unknown) => cols.flatMap(options).find((o) => o.id === id)?.name ?? id;
  return {
    columns: cols.map((c) => ({
      name: c.name,
      type: c.type ?? null,
      width: c.width ?? null,
      options: options(c).map((o) => ({ name: o.name, id: typeof o.id === 'string' && o.id !== '' })),
      cascade: Object.fromEntries(
        Object.entries((c.data?.cascade_settings ?? {}) as Record<string, unknown[]>)
          .map(([p, l]) => [String(optionName(p)), l.map((x) => String(optionName(x))).sort()] as const)
          .sort(([x], [y]) => x.localeCompare(y)),
      ),
    })),
  };
}

/** An SQL answer keyed by column keys as the official client's query() reads it: keys and option ids named through the metadata. */
function asClientReads(b: unknown) {
  const meta = (field(b, 'metadata') ?? []) as ColumnInfo[];
  const rows = rowsOf(b).map((row) =>
    Object.fromEntries(
      meta
        .filter((m) => m.key in row)
        .map((m) => {
          const v = row[m.key];
          const opts = (m.data?.options ?? []) as { id?: unknown; name?: unknown }[];
          return [m.name, opts.length && v !== null ? (opts.find((o) => o.id === v)?.name ?? { unmapped: v }) : v];
        }),
    ),
  );
  return { rows: rows.sort((x, y) => String(x.Name).localeCompare(String(y.Name))) };
}

export const structureSequence = (side: Side) =>
  stepSequence(side, 'structure', async (step, world) => {
    const { target } = side;
    const t = await world.table(target, 'str', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'N', column_type: 'number' },
      { column_name: 'Note', column_type: 'text' },
      { column_name: 'Raw', column_type: 'text' },
      { column_name: 'Pick', column_type: 'single-select', column_data: { options: [option('p1'), option('p2')] } },
      { column_name: 'Sub', column_type: 'single-select', column_data: { options: [option('s1'), option('s2')] } },
    ]);
    const table_name = t.name;
    const gw = (sub: string) => target.gatewayPath(0, sub);
    const auth = { base: 0 } as const;
    const r = await target.gw(0, 'POST', 'rows/', { json: { table_name, rows: ROWS } });
    if (r.status !== 200) throw new Undecided('fixture', `append ${ROWS.length} rows: status ${r.status}`);
    const cols = columnsOf(
      await step('columns', 'listColumns', { auth, path: gw('columns/'), query: { table_name } }, layout),
    );
    const [n, note, raw] = ['N', 'Note', 'Raw'].map((c) => keyOf(cols, c));
    const rows = (name: string, query: Record<string, string> = {}, column = 'N') =>
      step(
        name,
        'listRows',
        { auth, path: gw('rows/'), query: { table_name, convert_keys: 'true', ...query } },
        (b) => ({
          order: rowsOf(b).map((x) => x.Name ?? null),
          [column]: byName(b, column),
          withNote: rowsOf(b).filter((x) => 'Note' in x).length,
        }),
      );
    // BASE-1: a view (N > 2, largest first, Note hidden), made then set by update as the suite does it.
    const view = gw(`views/${encodeURIComponent(VIEW)}/`);
    await step('create-view', 'createView', {
      auth,
      method: 'POST',
      path: gw('views/'),
      query: { table_name },
      json: { name: VIEW, type: 'table' },
    });
    const settings = {
      filters: [{ column_key: n, filter_predicate: 'greater', filter_term: 2 }],
      filter_conjunction: 'And',
      sorts: [{ column_key: n, sort_type: 'down' }],
      hidden_columns: [note],
    };
    await step('update-view', 'updateView', { auth, method: 'PUT', path: view, query: { table_name }, json: settings });
    await rows('rows-by-view', { view_name: VIEW });
    // BASE-2: the view's columns; a rename keeps the values; a resize is kept.
    await step(
      'columns-by-view',
      'listColumns',
      { auth, path: gw('columns/'), query: { table_name, view_name: VIEW } },
      (b) => ({
        names: ((field(b, 'columns') ?? []) as ColumnInfo[]).map((c) => c.name),
      }),
    );
    const column = (name: string, json: Record<string, unknown>) =>
      step(name, 'updateColumn', { auth, method: 'PUT', path: gw('columns/'), json: { table_name, ...json } });
    await column('rename-column', { op_type: 'rename_column', column: note, new_column_name: 'Memo' });
    await rows('rows-after-rename', {}, 'Memo');
    await column('resize-column', { op_type: 'resize_column', column: n, new_column_width: 321 });
    // BASE-3: a type change converts the values; options added get ids; a cascade is kept.
    await column('retype-column', { op_type: 'modify_column_type', column: raw, new_column_type: 'number' });
    await rows('rows-after-retype', {}, 'Raw');
    await step('add-options', 'addSelectOption', {
      auth,
      method: 'POST',
      path: gw('column-options/'),
      json: { table_name, column: 'Pick', options: [option('p3')] },
    });
    await step('cascade', 'updateColumnCascade', {
      auth,
      method: 'POST',
      path: gw('column-cascade-settings/'),
      json: { table_name, parent_column: 'Pick', child_column: 'Sub', cascade_settings: { p1: ['s1'], p2: ['s2'] } },
    });
    await step('columns-after', 'listColumns', { auth, path: gw('columns/'), query: { table_name } }, layout);
    // CLIENT-1: SQL as the official client sends it (no convert_keys), read through the metadata.
    await step(
      'sql-by-keys',
      'querySql',
      { auth, method: 'POST', path: gw('sql/'), json: { sql: `SELECT Name, Pick, Raw FROM \`${table_name}\`` } },
      asClientReads,
    );
    // BASE-4: a renamed table keeps its rows (renamed back after); a duplicate keeps the columns (dropped after).
    const renamed = `${table_name}_r`;
    await step('rename-table', 'renameTable', {
      auth,
      method: 'PUT',
      path: gw('tables/'),
      json: { table_name, new_table_name: renamed },
    });
    await step(
      'rows-after-rename-table',
      'listRows',
      { auth, path: gw('rows/'), query: { table_name: renamed } },
      (b) => ({
        count: rowsOf(b).length,
      }),
    );
    await step('rename-table-back', 'renameTable', {
      auth,
      method: 'PUT',
      path: gw('tables/'),
      json: { table_name: renamed, new_table_name: table_name },
    });
    const dup = await step('duplicate-table', 'duplicateTable', {
      auth,
      method: 'POST',
      path: gw('tables/duplicate-table/'),
      json: { table_name, is_duplicate_records: true },
    });
    const copy = field(jsonBody(dup), 'name');
    if (typeof copy === 'string' && copy !== table_name) {
      try {
        await step(
          'columns-of-copy',
          'listColumns',
          { auth, path: gw('columns/'), query: { table_name: copy } },
          (b) => ({
            names: ((field(b, 'columns') ?? []) as ColumnInfo[]).map((c) => c.name),
          }),
        );
      } finally {
        await existingTable(target, copy).drop();
      }
    }
  });

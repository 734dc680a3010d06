/**
 * The table with a column of every type, linked to a second table: the run's fixture and
 * each shape-check worker's own world build it the same way. It is built column by column,
 * so a target that refuses one column type loses only that type (the refusal is kept, with
 * the target's answer, for the checks of that type to report) instead of the whole table.
 */
import { COLUMNS, COLUMN_TYPES, type ColumnType } from '../spec/index.js';
import { fixtureMissing } from './outcome.js';
import type { Column } from './tables.js';
import type { Target } from './target.js';

/** The name of the column of `type` in the every-type table. */
export const typeColumnName = (type: ColumnType) => (type === 'text' ? 'Name' : `c ${type}`);
/** The second link-formula column: a lookup of the linked table's Score. */
export const LOOKUP_COLUMN = 'c lookup';

/** Column definitions of the every-type table that need no other table; link columns come after. */
function typeColumns(): (Column & { type: ColumnType })[] {
  return COLUMN_TYPES.filter((t) => t !== 'link' && t !== 'link-formula').map((t) => ({
    type: t,
    column_name: typeColumnName(t),
    column_type: t,
    ...(t === 'formula'
      ? { column_data: { formula: `{${typeColumnName('number')}} * 2` } }
      : COLUMNS[t].data
        ? { column_data: COLUMNS[t].data }
        : {}),
  }));
}

/** The columns that reach into the linked table, in the order they depend on each other. */
function linkColumns(
  types: string,
  linked: string,
): { key: ColumnType | typeof LOOKUP_COLUMN; needs?: ColumnType; column: Column }[] {
  return [
    {
      key: 'link',
      column: {
        column_name: typeColumnName('link'),
        column_type: 'link',
        column_data: { table: types, other_table: linked },
      },
    },
    {
      key: 'link-formula',
      needs: 'link',
      column: {
        column_name: typeColumnName('link-formula'),
        column_type: 'link-formula',
        column_data: { formula: 'count_links', link_column: typeColumnName('link') },
      },
    },
    {
      key: LOOKUP_COLUMN,
      needs: 'link',
      column: {
        column_name: LOOKUP_COLUMN,
        column_type: 'link-formula',
        column_data: { formula: 'lookup', link_column: typeColumnName('link'), level1_linked_column: 'Score' },
      },
    },
  ];
}

interface TypeTables {
  types: string;
  linked: string;
  /** Column types (and the lookup column) the target would not create, with its answer. */
  refused: Record<string, string>;
}

/**
 * Create `linked` (Name, Score) and `types` (Name first, then every other type, then the
 * link columns) in base `base`. A refused table is a fixture that could not be made (the
 * caller's checks end as errors); a refused column is recorded in `refused`.
 */
export async function buildTypeTables(
  target: Target,
  names: { types: string; linked: string },
  base = 0,
): Promise<TypeTables> {
  const { types, linked } = names;
  const table = async (name: string, columns: Column[]) => {
    const r = await target.gw(base, 'POST', 'tables/', { json: { table_name: name, columns } });
    if (r.status !== 200 && r.status !== 201)
      throw fixtureMissing(`create table ${name}: status ${r.status}: ${r.text.slice(0, 200)}`);
  };
  await table(linked, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Score', column_type: 'number' },
  ]);
  await table(types, [{ column_name: 'Name', column_type: 'text' }]);
  const refused: Record<string, string> = {};
  const add = async (key: string, column: Column) => {
    const r = await target.gw(base, 'POST', 'columns/', {
      json: { table_name: types, ...column },
      expect: [400, 403, 404, 422],
    });
    if (r.status !== 200 && r.status !== 201) refused[key] = `status ${r.status}: ${r.text.slice(0, 200)}`;
  };
  for (const c of typeColumns().filter((c) => c.type !== 'text')) {
    const { type, ...column } = c;
    await add(type, column);
  }
  for (const l of linkColumns(types, linked)) {
    if (l.needs && refused[l.needs]) refused[l.key] = `not tried: it needs the ${l.needs} column, which was refused`;
    else await add(l.key, l.column);
  }
  return { types, linked, refused };
}

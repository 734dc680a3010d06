/**
 * Link-formula columns (base_operations.yaml `link_formula_column_*_format`): count_links,
 * lookup, rollup, findmax and findmin over the rows a link column links. The columns the
 * column_data names (by name or key) are resolved to keys when the column is made, so a
 * later rename of those columns keeps the formula working.
 */
import { badRequest } from '../errors.js';
import type { Base, ColumnMeta, TableMeta } from './model.js';

const FORMULAS = new Set(['count_links', 'lookup', 'rollup', 'findmax', 'findmin']);
const SUMMARIES = new Set(['sum', 'average', 'max', 'min', 'count', 'concatenate']);
/** column_data fields naming a column of the linked table, and the key field each resolves to. */
const LINKED_FIELDS = ['level1_linked_column', 'summary_column', 'searched_column', 'comparison_column'] as const;

const dataError = (msg: string) => badRequest(`column_data: ${msg}`, 'gateway', { error_type: 'column_data_error' });
const byRef = (t: TableMeta | undefined, ref: unknown) =>
  typeof ref === 'string'
    ? (t?.columns.find((c) => c.name === ref) ?? t?.columns.find((c) => c.key === ref))
    : undefined;

/** The column_data of a new link-formula column of `table`, its references checked and keyed. */
export function linkFormulaData(base: Base, table: TableMeta, input: Record<string, unknown>): Record<string, unknown> {
  const data = { ...input };
  const link = table.columns.find(
    (c) => c.type === 'link' && [c.name, c.key].includes(String(data.link_column ?? data.link_column_key)),
  );
  if (!link) throw dataError('link_column must name a link column of the table');
  data.link_column_key = link.key;
  data.formula ??= 'count_links';
  if (typeof data.formula !== 'string' || !FORMULAS.has(data.formula))
    throw dataError(`formula must be one of ${[...FORMULAS].join(', ')}`);
  const d = link.data ?? {};
  const other = base.meta.tables.find((t) => t._id === (d.table_id === table._id ? d.other_table_id : d.table_id));
  for (const field of LINKED_FIELDS) {
    if (data[field] === undefined || data[field] === null || data[field] === '') continue;
    const col = byRef(other, data[field]);
    if (!col) throw dataError(`${field} ${JSON.stringify(data[field])} is not a column of the linked table`);
    data[`${field}_key`] = col.key;
  }
  if (data.formula === 'rollup') {
    data.summary_method = String(data.summary_method ?? 'sum').toLowerCase();
    if (!SUMMARIES.has(data.summary_method as string))
      throw dataError(`summary_method must be one of ${[...SUMMARIES].join(', ')}`);
  }
  return data;
}

/** The linked table's column a field names: by its resolved key, else by name (bases saved before keys were kept). */
function target(
  other: TableMeta | undefined,
  d: Record<string, unknown>,
  ...fields: (typeof LINKED_FIELDS)[number][]
): ColumnMeta | undefined {
  for (const f of fields) {
    const col = other?.columns.find((c) => c.key === d[`${f}_key`]) ?? byRef(other, d[f]);
    if (col) return col;
  }
  return undefined;
}

const numbersOf = (values: unknown[]) =>
  values.map((v) => (typeof v === 'string' && v.trim() === '' ? NaN : Number(v))).filter((n) => Number.isFinite(n));

/**
 * A link-formula cell of one row: `ids` are its linked rows, `valueOf` reads a linked row's
 * cell (the display column when no column is given). Typed (number, array) from 5.0; before,
 * as text (SHAPE-3).
 */
export function linkFormulaValue(
  d: Record<string, unknown>,
  other: TableMeta | undefined,
  ids: readonly string[],
  valueOf: (rowId: string, col?: ColumnMeta) => unknown,
  typed: boolean,
): unknown {
  const formula = String(d.formula ?? 'count_links');
  if (formula === 'count_links') return typed ? ids.length : String(ids.length);
  const present = (col?: ColumnMeta) =>
    ids.map((id) => valueOf(id, col)).filter((v) => v !== null && v !== undefined && v !== '');
  let result: unknown;
  switch (formula) {
    case 'rollup': {
      const values = present(target(other, d, 'summary_column', 'level1_linked_column'));
      const n = numbersOf(values);
      const m = String(d.summary_method ?? 'sum');
      if (m === 'concatenate') result = values.map((v) => (Array.isArray(v) ? v.join(', ') : String(v))).join(', ');
      else if (m === 'count') result = values.length;
      else if (m === 'sum') result = n.reduce((a, x) => a + x, 0);
      else
        result =
          n.length === 0
            ? null
            : m === 'max'
              ? Math.max(...n)
              : m === 'min'
                ? Math.min(...n)
                : n.reduce((a, x) => a + x, 0) / n.length;
      break;
    }
    case 'findmax':
    case 'findmin': {
      // The linked row with the largest (smallest) comparison value; its searched column is the answer.
      const compare = target(other, d, 'comparison_column', 'level1_linked_column');
      const searched = target(other, d, 'searched_column', 'level1_linked_column') ?? compare;
      let best: { id: string; n: number } | undefined;
      for (const id of ids) {
        const n = numbersOf([valueOf(id, compare)])[0];
        if (n !== undefined && (!best || (formula === 'findmax' ? n > best.n : n < best.n))) best = { id, n };
      }
      result = best ? [valueOf(best.id, searched)].filter((v) => v !== null && v !== undefined) : [];
      break;
    }
    default:
      result = present(target(other, d, 'level1_linked_column')); // lookup
  }
  if (typed) return result;
  return Array.isArray(result) ? result.join(', ') : result === null ? null : String(result);
}

/**
 * A view's settings as a client writes them (base_operations.yaml `update_view`): filters,
 * filter_conjunction, sorts, groupbys, hidden_columns. Each is checked against the table and
 * stored as given, its columns named by key (a name is accepted and replaced by the key), so
 * the view reads back as created. `[{}]` clears a list, as the OpenAPI says.
 */
import { badRequest } from '../errors.js';
import { findColumn, type ColumnMeta, type TableMeta, type ViewFilter, type ViewSort } from './model.js';

/** Predicates without a term. The OpenAPI spells the number ones with spaces. */
const NO_TERM = new Set(['is_empty', 'is_not_empty', 'is empty', 'is not empty']);
const SCALAR = new Set([
  'is',
  'is_not',
  'contains',
  'does_not_contain',
  'equal',
  'not_equal',
  'greater',
  'less',
  'greater_or_equal',
  'less_or_equal',
  'is_before',
  'is_after',
  'is_on_or_before',
  'is_on_or_after',
]);
/** Predicates over a set of options (single and multiple select): the term is a list. */
const LIST = new Set(['is_any_of', 'is_none_of', 'has_any_of', 'has_all_of', 'has_none_of', 'is_exactly']);
const DATE_MODIFIERS = new Set([
  'today',
  'tomorrow',
  'yesterday',
  'one_week_ago',
  'one_week_from_now',
  'one_month_ago',
  'one_month_from_now',
  'number_of_days_ago',
  'number_of_days_from_now',
  'exact_date',
]);

/** Column types a view can filter and sort by: those with a value in the row's physical record. */
const COMPUTED = new Set(['link', 'link-formula', 'formula']);
export const queryable = (col: ColumnMeta) => !COMPUTED.has(col.type);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEmptyObject = (v: unknown) => isObject(v) && Object.keys(v).length === 0;

/** The entries of a settings list; `[{}]` (the OpenAPI's way to clear one) is the empty list. */
function entries(value: unknown, field: string): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw badRequest(`${field} must be an array`);
  return value
    .filter((v) => !isEmptyObject(v))
    .map((v, i) => {
      if (!isObject(v)) throw badRequest(`${field}[${i}] must be an object`);
      return v;
    });
}

/** The column an entry names, by `column_key` or `column_name`. */
function columnOf(table: TableMeta, e: Record<string, unknown>, field: string): ColumnMeta {
  const ref = e.column_key ?? e.column_name;
  const col =
    typeof ref === 'string' ? (table.columns.find((c) => c.key === ref) ?? findColumn(table, ref)) : undefined;
  if (!col) throw badRequest(`${field}: column ${JSON.stringify(ref ?? null)} not found`);
  return col;
}

export function parseFilters(table: TableMeta, value: unknown): ViewFilter[] {
  return entries(value, 'filters').map((f) => {
    const col = columnOf(table, f, 'filters');
    const predicate = f.filter_predicate ?? 'is';
    if (typeof predicate !== 'string' || !(NO_TERM.has(predicate) || SCALAR.has(predicate) || LIST.has(predicate))) {
      throw badRequest(`filter_predicate ${JSON.stringify(predicate)} is not supported`);
    }
    if (!queryable(col)) throw badRequest(`filter on column ${col.name} (${col.type}) is not supported`);
    const term = f.filter_term ?? null;
    if (LIST.has(predicate)) {
      if (term !== null && !(Array.isArray(term) && term.every((t) => typeof t === 'string')))
        throw badRequest(`filter_term of ${predicate} on column ${col.name} must be a list of option names or ids`);
    } else if (term !== null && !['string', 'number', 'boolean'].includes(typeof term)) {
      throw badRequest(`filter_term of column ${col.name} must be a string, number or boolean`);
    }
    const filter: ViewFilter = { column_key: col.key, filter_predicate: predicate, filter_term: term };
    const modifier = f.filter_term_modifier;
    if (modifier !== undefined && modifier !== null && modifier !== '') {
      if (typeof modifier !== 'string' || !DATE_MODIFIERS.has(modifier))
        throw badRequest(`filter_term_modifier ${JSON.stringify(modifier)} is not supported`);
      if (col.type !== 'date' && col.type !== 'ctime' && col.type !== 'mtime')
        throw badRequest(`filter_term_modifier applies to date columns, not to ${col.name} (${col.type})`);
      filter.filter_term_modifier = modifier;
    }
    return filter;
  });
}

export function parseConjunction(value: unknown): 'And' | 'Or' {
  if (value === 'And' || value === 'Or') return value;
  throw badRequest('filter_conjunction must be And or Or');
}

/** Sorts and groups: `{column_key, sort_type: up|down}`; other fields (a group's `count_type`) are kept. */
export function parseSorts(table: TableMeta, value: unknown, field: 'sorts' | 'groupbys'): ViewSort[] {
  return entries(value, field).map((s) => {
    const col = columnOf(table, s, field);
    if (!queryable(col)) throw badRequest(`${field} by column ${col.name} (${col.type}) is not supported`);
    const type = s.sort_type ?? 'up';
    if (type !== 'up' && type !== 'down') throw badRequest(`${field}: sort_type must be up or down`);
    const { column_name: _name, ...rest } = s;
    return { ...rest, column_key: col.key, sort_type: type };
  });
}

export function parseHidden(table: TableMeta, value: unknown): string[] {
  if (!Array.isArray(value)) throw badRequest('hidden_columns must be an array of column keys');
  const keys = value.map((v) => {
    const col = typeof v === 'string' ? (table.columns.find((c) => c.key === v) ?? findColumn(table, v)) : undefined;
    if (!col) throw badRequest(`hidden_columns: column ${JSON.stringify(v)} not found`);
    return col.key;
  });
  return [...new Set(keys)];
}

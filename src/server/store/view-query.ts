/**
 * What a view means for the row list (api-shapes §2.1): its filters as a WHERE clause, its
 * groups and sorts as an ORDER BY, its hidden columns left out of the rows. A filter whose
 * term is missing is not applied, as the real service ignores incomplete filters; a filter
 * or sort whose column can no longer be queried (deleted, or changed to a computed type) is
 * skipped too.
 */
import { INTERNAL_FIELD_OF_TYPE } from '../../spec/index.js';
import { qid } from './db.js';
import { physColumn, type ColumnMeta, type TableMeta, type ViewFilter, type ViewMeta, type ViewSort } from './model.js';
import { queryable } from './view-config.js';

interface SqlPart {
  sql: string;
  params: unknown[];
}

const columnRef = (col: ColumnMeta) => INTERNAL_FIELD_OF_TYPE[col.type] ?? qid(physColumn(col.key));

/** The OpenAPI's spellings of one predicate, as one. */
const ALIASES: Record<string, string> = {
  equal: 'is',
  not_equal: 'is_not',
  'is empty': 'is_empty',
  'is not empty': 'is_not_empty',
};
const NUMERIC = new Set(['number', 'rate', 'duration']);
const DAY = 86_400_000;

const optionNames = (col: ColumnMeta) => (col.data?.options as { id?: string; name: string }[] | undefined) ?? [];
/** A select term names an option by name or (as the real service's web app writes it) by id. */
const optionName = (col: ColumnMeta, term: unknown) => optionNames(col).find((o) => o.id === term)?.name ?? term;

/** The day a date filter means, `YYYY-MM-DD` (UTC, the server's zone). */
function dateTerm(f: ViewFilter, now: number): string | undefined {
  const shift: Record<string, number> = {
    today: 0,
    tomorrow: 1,
    yesterday: -1,
    one_week_ago: -7,
    one_week_from_now: 7,
  };
  const m = f.filter_term_modifier ?? 'exact_date';
  const day = (offset: number) => new Date(now + offset * DAY).toISOString().slice(0, 10);
  if (m in shift) return day(shift[m]!);
  if (m === 'one_month_ago' || m === 'one_month_from_now') {
    const d = new Date(now);
    d.setUTCMonth(d.getUTCMonth() + (m === 'one_month_ago' ? -1 : 1));
    return d.toISOString().slice(0, 10);
  }
  if (m === 'number_of_days_ago' || m === 'number_of_days_from_now') {
    const n = Number(f.filter_term);
    return Number.isFinite(n) ? day(m === 'number_of_days_ago' ? -n : n) : undefined;
  }
  return typeof f.filter_term === 'string' && /^\d{4}-\d{2}-\d{2}/.test(f.filter_term)
    ? f.filter_term.slice(0, 10)
    : undefined;
}

const DATE_OPS: Record<string, string> = {
  is: '=',
  is_not: '!=',
  is_before: '<',
  is_after: '>',
  is_on_or_before: '<=',
  is_on_or_after: '>=',
  less: '<',
  greater: '>',
  less_or_equal: '<=',
  greater_or_equal: '>=',
};
const COMPARE: Record<string, string> = {
  greater: '>',
  less: '<',
  greater_or_equal: '>=',
  less_or_equal: '<=',
  is_before: '<',
  is_after: '>',
  is_on_or_before: '<=',
  is_on_or_after: '>=',
};

/** One filter as SQL, or undefined when it does not apply (incomplete, or its column is gone). */
function filterSql(table: TableMeta, f: ViewFilter, now: number): SqlPart | undefined {
  const col = table.columns.find((c) => c.key === f.column_key);
  if (!col || !queryable(col)) return undefined;
  const ref = columnRef(col);
  const p = ALIASES[f.filter_predicate] ?? f.filter_predicate;
  if (p === 'is_empty') return { sql: `(${ref} IS NULL OR ${ref} = '' OR ${ref} = '[]')`, params: [] };
  if (p === 'is_not_empty') return { sql: `(${ref} IS NOT NULL AND ${ref} != '' AND ${ref} != '[]')`, params: [] };
  if (col.type === 'checkbox' && p === 'is')
    return f.filter_term === true || f.filter_term === 'true'
      ? { sql: `${ref} = 1`, params: [] }
      : { sql: `(${ref} IS NULL OR ${ref} = 0)`, params: [] };
  if (col.type === 'date' || col.type === 'ctime' || col.type === 'mtime') {
    const day = dateTerm(f, now);
    const op = DATE_OPS[p];
    return day && op ? { sql: `(${ref} IS NOT NULL AND substr(${ref}, 1, 10) ${op} ?)`, params: [day] } : undefined;
  }
  const list = Array.isArray(f.filter_term) ? f.filter_term.map((t) => optionName(col, t)) : undefined;
  if (list) {
    if (list.length === 0) return undefined;
    const json = JSON.stringify(list);
    const isArray = col.type === 'multiple-select';
    const anyOf = isArray
      ? `EXISTS (SELECT 1 FROM json_each(${ref}) WHERE value IN (SELECT value FROM json_each(?)))`
      : `${ref} IN (SELECT value FROM json_each(?))`;
    switch (p) {
      case 'is_any_of':
      case 'has_any_of':
        return { sql: anyOf, params: [json] };
      case 'is_none_of':
      case 'has_none_of':
        return { sql: `(${ref} IS NULL OR NOT ${anyOf})`, params: [json] };
      case 'has_all_of':
        return {
          sql: `NOT EXISTS (SELECT 1 FROM json_each(?) AS t WHERE t.value NOT IN (SELECT value FROM json_each(${ref})))`,
          params: [json],
        };
      case 'is_exactly':
        return {
          sql: `(NOT EXISTS (SELECT 1 FROM json_each(?) AS t WHERE t.value NOT IN (SELECT value FROM json_each(${ref}))) AND json_array_length(${ref}) = ?)`,
          params: [json, new Set(list).size],
        };
      default:
        return undefined;
    }
  }
  let term = f.filter_term;
  if (term === null || term === undefined || term === '') return undefined;
  if (typeof term === 'boolean') term = term ? 1 : 0;
  if (NUMERIC.has(col.type) && typeof term === 'string' && Number.isFinite(Number(term))) term = Number(term);
  if (col.type === 'single-select' || col.type === 'multiple-select') term = optionName(col, term);
  const isArray = col.type === 'multiple-select' || col.type === 'collaborator';
  switch (p) {
    case 'is':
      return {
        sql: isArray ? `EXISTS (SELECT 1 FROM json_each(${ref}) WHERE value = ?)` : `${ref} = ?`,
        params: [term],
      };
    case 'is_not':
      return {
        sql: isArray
          ? `NOT EXISTS (SELECT 1 FROM json_each(${ref}) WHERE value = ?)`
          : `(${ref} IS NULL OR ${ref} != ?)`,
        params: [term],
      };
    case 'contains':
      return { sql: `instr(lower(${ref}), lower(?)) > 0`, params: [term] };
    case 'does_not_contain':
      return { sql: `(${ref} IS NULL OR instr(lower(${ref}), lower(?)) = 0)`, params: [term] };
    default:
      return COMPARE[p] ? { sql: `${ref} ${COMPARE[p]} ?`, params: [term] } : undefined;
  }
}

/** The view's filters as a WHERE clause (empty when none applies). */
export function viewWhere(table: TableMeta, view: ViewMeta | undefined, now = Date.now()): SqlPart {
  const parts = (view?.filters ?? []).map((f) => filterSql(table, f, now)).filter((p): p is SqlPart => !!p);
  if (!parts.length) return { sql: '', params: [] };
  return {
    sql: `WHERE ${parts.map((p) => p.sql).join(view!.filter_conjunction === 'Or' ? ' OR ' : ' AND ')}`,
    params: parts.flatMap((p) => p.params),
  };
}

/**
 * The view's groups, then its sorts, as ORDER BY terms. Empty cells come last either way;
 * select columns sort by the order of their options, as the real service shows them.
 */
export function viewOrder(table: TableMeta, view: ViewMeta | undefined): SqlPart {
  const terms: string[] = [];
  const params: unknown[] = [];
  const by = (s: ViewSort) => {
    const col = table.columns.find((c) => c.key === s.column_key);
    if (!col || !queryable(col)) return;
    const dir = s.sort_type === 'down' ? 'DESC' : 'ASC';
    const ref = columnRef(col);
    terms.push(`(${ref} IS NULL OR ${ref} = '')`);
    if (col.type === 'single-select') {
      terms.push(`(SELECT CAST(key AS INTEGER) FROM json_each(?) WHERE value = ${ref}) ${dir}`);
      params.push(JSON.stringify(optionNames(col).map((o) => o.name)));
    }
    terms.push(`${ref} ${dir}`);
  };
  for (const g of view?.groupbys ?? []) by(g);
  for (const s of view?.sorts ?? []) by(s);
  return { sql: terms.join(', '), params };
}

/** The keys of the columns the view hides. */
export function hiddenKeys(view: ViewMeta | undefined): Set<string> {
  return new Set(view?.hidden_columns ?? []);
}

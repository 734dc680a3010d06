/**
 * The `sql/` endpoint: the service's SQL over one table, translated to SQLite by renaming
 * table and column names to their physical names. Parameters are bound by SQLite, never
 * spliced (SQL-1). Lists return 100 rows without LIMIT and never more than 10,000 (SIZE-5);
 * INSERT, UPDATE and DELETE have no row limit (SIZE-6).
 */
import { SIZE_LIMITS } from '../../spec/index.js';
import { badRequest } from '../errors.js';
import { materialise, type ApiRow, type PhysRow } from './cells.js';
import { qid } from './db.js';
import { dropLinksOfRows } from './links.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import type { RowsContext } from './rows.js';
import { SqlSyntaxError, sqlString, tokenize, type Token } from './sql-tokens.js';
import { decodeValue } from './values.js';

const KEYWORDS = new Set(('select from where and or not in is null like glob between order by asc desc limit offset group having as distinct ' +
  'update set delete insert into values true false escape collate nocase all exists case when then else end').split(' '));
const FORBIDDEN = new Set(['join', 'union', 'intersect', 'except', 'pragma', 'attach', 'detach', 'create', 'drop', 'alter', 'replace', 'vacuum', 'with', 'returning', 'window', 'over']);
const INTERNALS = new Set(['_id', '_ctime', '_mtime', '_creator', '_last_modifier', '_archived']);
const INTERNAL_OF_TYPE: Partial<Record<string, string>> = { ctime: '_ctime', mtime: '_mtime', creator: '_creator', 'last-modifier': '_last_modifier' };

export type StatementKind = 'select' | 'insert' | 'update' | 'delete';

export interface Translated {
  kind: StatementKind;
  sql: string;
  table: TableMeta;
  selectStar: boolean;
  paramCount: number;
}

const lower = (t: Token) => (t.kind === 'word' ? t.text.toLowerCase() : '');

/** Translate one statement; throws a 400 for anything outside the dialect. */
export function translate(base: Base, sqlIn: string): Translated {
  let tokens: Token[];
  try {
    tokens = tokenize(sqlIn);
  } catch (e) {
    throw badRequest(`SQL syntax error: ${(e as Error).message}`);
  }
  while (tokens.length && (tokens[tokens.length - 1]!.kind === 'space' || tokens[tokens.length - 1]!.text === ';')) tokens.pop();
  const sig = tokens.filter((t) => t.kind !== 'space');
  if (sig.length === 0) throw badRequest('sql is empty');
  if (sig.some((t) => t.text === ';')) throw badRequest('only one SQL statement per call');
  const kind = lower(sig[0]!) as StatementKind;
  if (!['select', 'insert', 'update', 'delete'].includes(kind)) throw badRequest(`SQL statement ${sig[0]!.text} is not supported`);
  const bad = sig.find((t) => FORBIDDEN.has(lower(t)));
  if (bad) throw badRequest(`${bad.text.toUpperCase()} is not supported`);
  if (sig.filter((t) => lower(t) === 'select').length > (kind === 'select' ? 1 : 0)) throw badRequest('subqueries are not supported');

  // The table: after FROM (select, delete), UPDATE, or INTO.
  const anchor = kind === 'update' ? 0 : sig.findIndex((t) => lower(t) === (kind === 'insert' ? 'into' : 'from'));
  const tableTok = anchor >= 0 ? sig[anchor + 1] : undefined;
  if (!tableTok || (tableTok.kind !== 'word' && tableTok.kind !== 'ident')) throw badRequest('SQL needs a table name');
  const tableName = tableTok.value!;
  const table = base.meta.tables.find((t) => t.name === tableName) ?? base.meta.tables.find((t) => t.name.toLowerCase() === tableName.toLowerCase());
  if (!table) throw badRequest(`no such table: ${tableName}`);
  const afterTable = sig[anchor + 2];
  if (afterTable && afterTable.text === ',' && kind === 'select') throw badRequest('JOIN is not supported');

  const columnRef = (name: string): string | undefined => {
    if (INTERNALS.has(name)) return name;
    const col = table.columns.find((c) => c.name === name) ?? table.columns.find((c) => c.key === name) ?? table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!col) return undefined;
    const internal = INTERNAL_OF_TYPE[col.type];
    if (internal) return internal;
    if (['link', 'link-formula', 'formula'].includes(col.type)) return 'NULL';
    return qid(physColumn(col.key));
  };

  let paramCount = 0;
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === tableTok) { out.push(qid(table.phys)); continue; }
    if (t.kind === 'param') { paramCount++; out.push('?'); continue; }
    if (t.kind === 'string') { out.push(sqlString(t.value!)); continue; }
    if (t.kind === 'word' || t.kind === 'ident') {
      const next = tokens.slice(i + 1).find((x) => x.kind !== 'space');
      const prev = [...out].reverse().find((x) => x !== ' ');
      // `Table.column`: drop the qualifier, keep the column.
      if (next?.text === '.' && (t.value === table.name)) { i = tokens.indexOf(next); continue; }
      if (t.kind === 'word' && (KEYWORDS.has(lower(t)) || next?.text === '(')) { out.push(t.text); continue; }
      if (prev && /^as$/i.test(prev)) { out.push(qid(t.value!)); continue; }
      out.push(columnRef(t.value!) ?? qid(t.value!));
      continue;
    }
    out.push(t.text);
  }
  const selectStar = kind === 'select' && sig[1]?.text === '*' && lower(sig[2] ?? { kind: 'space', text: '' }) === 'from';
  let sql = out.join('');
  if (kind === 'select' && !sig.some((t) => lower(t) === 'limit')) sql += ` LIMIT ${SIZE_LIMITS.sqlListDefault}`;
  return { kind, sql, table, selectStar, paramCount };
}

export interface SqlResult {
  metadata: { key: string; name: string; type: string; data: unknown }[];
  results: ApiRow[];
  success: true;
  is_join_stmt: false;
  error_message: '';
  affected_rows?: number;
}

function checkParams(params: unknown): (string | number | null)[] {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) throw badRequest('parameters must be an array');
  return params.map((p, i) => {
    if (p === null || typeof p === 'string' || typeof p === 'number') return p;
    if (typeof p === 'boolean') return p ? 1 : 0;
    throw badRequest(`parameter ${i} must be a string, number, boolean or null`);
  });
}

/** Naive splicing, for the SQL-1 mutant only: what an implementer must not do. */
function splice(sql: string, params: (string | number | null)[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => { const p = params[i++]; return p === null || p === undefined ? 'NULL' : typeof p === 'number' ? String(p) : `'${p}'`; });
}

export function runSql(ctx: RowsContext, base: Base, body: { sql?: unknown; parameters?: unknown; convert_keys?: unknown }): SqlResult {
  if (typeof body.sql !== 'string') throw badRequest('sql is required');
  const params = checkParams(body.parameters);
  if (params.length && !ctx.behaviour.sqlParameters) throw badRequest('parameters are not supported before 5.0');
  const tr = translate(base, body.sql);
  if (tr.paramCount !== params.length) throw badRequest(`the statement has ${tr.paramCount} parameters, ${params.length} given`);
  const byName = body.convert_keys === true || body.convert_keys === 'true';
  const spliced = ctx.faults.has('sql-splice');
  const sql = spliced ? splice(tr.sql, params) : tr.sql;
  const bound = spliced ? [] : params;
  try {
    if (tr.kind === 'select') return select(ctx, base, tr, sql, bound, byName);
    return write(ctx, base, tr, sql, bound);
  } catch (e) {
    if (e instanceof SqlSyntaxError || (e as { code?: string }).code?.startsWith('SQLITE_')) {
      if (tr.kind === 'select' && ctx.faults.has('sql-lax-filter')) return select(ctx, base, tr, sql.replace(/ WHERE .*?( LIMIT \d+)?$/i, '$1'), [], byName);
      throw badRequest(String((e as Error).message).replace(/rows_\d+_[0-9a-f]+/g, tr.table.name).replace(/"?c_(\w{4})"?/g, (_, k: string) => tr.table.columns.find((c) => c.key === k)?.name ?? k));
    }
    throw e;
  }
}

function select(ctx: RowsContext, base: Base, tr: Translated, sql: string, params: unknown[], byName: boolean): SqlResult {
  const stmt = ctx.db.prepare(sql);
  const cap = ctx.faults.has('sql-no-cap') ? SIZE_LIMITS.sqlList + 1 : SIZE_LIMITS.sqlList;
  const raw: Record<string, unknown>[] = [];
  for (const row of stmt.iterate(...params) as IterableIterator<Record<string, unknown>>) {
    raw.push(row);
    if (raw.length >= cap) break;
  }
  const byPhys = new Map<string, ColumnMeta>(tr.table.columns.map((c) => [physColumn(c.key), c]));
  const columns = stmt.columns().map((c) => c.name);
  const metaCols = tr.selectStar ? tr.table.columns : columns.map((n) => byPhys.get(n)).filter((c): c is ColumnMeta => !!c);
  const metadata = metaCols.map((c) => ({ key: c.key, name: c.name, type: c.type, data: c.data }));
  if (tr.selectStar) return ok(metadata, materialise(ctx, base, tr.table, raw as PhysRow[], { byName }));
  const results = raw.map((r) => {
    const o: ApiRow = {};
    for (const [k, v] of Object.entries(r)) {
      const col = byPhys.get(k);
      o[col ? (byName ? col.name : col.key) : k.replace(/"?c_(\w{4})"?/g, (m, key: string) => tr.table.columns.find((c) => c.key === key)?.name ?? m)] = col ? decodeValue(col, v) : v;
    }
    return o;
  });
  return ok(metadata, results);
}

function write(ctx: RowsContext, base: Base, tr: Translated, sql: string, params: unknown[]): SqlResult {
  let affected = 0;
  ctx.db.transaction(() => {
    if (tr.kind === 'delete') {
      const ids = (ctx.db.prepare(`${sql} RETURNING _id`).all(...params) as { _id: string }[]).map((r) => r._id);
      dropLinksOfRows(ctx.db, base, ids);
      affected = ids.length;
    } else affected = ctx.db.prepare(sql).run(...params).changes;
  })();
  if (!ctx.faults.has('stale-cache')) base.version++;
  return { ...ok([], []), affected_rows: affected };
}

const ok = (metadata: SqlResult['metadata'], results: ApiRow[]): SqlResult => ({ metadata, results, success: true, is_join_stmt: false, error_message: '' });

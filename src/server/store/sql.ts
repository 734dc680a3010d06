/**
 * The `sql/` endpoint. Parameters are bound by SQLite, never spliced (SQL-1). Lists return
 * 100 rows without LIMIT and never more than 10,000 (SIZE-5); INSERT, UPDATE and DELETE
 * have no row limit (SIZE-6). SQLite's errors become 400s worded in the base's own names.
 * Statements run on the base's own database (`base.db`, base-db.ts), which holds that base only.
 */
import type { Statement } from './sqlite.js';
import { SIZE_LIMITS } from '../../spec/index.js';
import { badRequest, HttpError } from '../errors.js';
import { inBoth } from './base-db.js';
import { fetchPhys, materialise, type ApiRow, type PhysRow, type PhysRows } from './cells.js';
import { dropLinksOfRows } from './links.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import { touch, type RowsContext } from './rows.js';
import { selectCellsAsIds, sqlColumn, type SqlColumn } from './sql-keys.js';
import { translate, type Translated } from './sql-translate.js';
import { SqlSyntaxError } from './sql-tokens.js';
import { decodeValue } from './values.js';
import { sqlChanges } from '../webhooks/sql-changes.js';
import { selectBothStores, writeBigStore } from './big-data/sql.js';
import { anyStore } from './big-data/store.js';
import type { Faults } from '../faults.js';

export { translate };

interface SqlResult {
  metadata: SqlColumn[];
  results: ApiRow[];
  success: true;
  is_join_stmt: false;
  error_message: '';
  affected_rows?: number;
}

function checkParams(params: unknown, faults: Faults): (string | number | null)[] {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) throw badRequest('parameters must be an array');
  return params.map((p, i) => {
    if (typeof p === 'number' && Number.isFinite(p) && faults.has('sql-params-as-text')) return String(p); // mutant: every parameter bound as text
    if (p === null || typeof p === 'string' || (typeof p === 'number' && Number.isFinite(p))) return p;
    if (typeof p === 'boolean') return p ? 1 : 0;
    throw badRequest(`parameter ${i} must be a string, number, boolean or null`);
  });
}

/** Naive splicing, for the SQL-1 mutant only: what an implementer must not do. */
function splice(sql: string, params: (string | number | null)[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const p = params[i++];
    return p === null || p === undefined ? 'NULL' : typeof p === 'number' ? String(p) : `'${p}'`;
  });
}

/** An error of SQLite or of the driver's binding: the client's statement is at fault. */
export function isStatementError(e: unknown): boolean {
  return (
    e instanceof SqlSyntaxError ||
    e instanceof RangeError ||
    (e as { code?: string }).code?.startsWith('SQLITE_') === true
  );
}

/** SQLite's message in the base's names: no physical table or column names, no SQLite-specific hints. */
export function sqlErrorMessage(e: unknown, table: TableMeta): string {
  return String((e as Error).message)
    .replace(/ - should this be a string literal in single-quotes\?/, '')
    .replace(/(?:rows|big)_\d+_[0-9a-f]+/g, table.name)
    .replace(/"?c_(\w{4})"?/g, (m, k: string) => table.columns.find((c) => c.key === k)?.name ?? m)
    .replace(/^no such column: "(.*)"$/, 'no such column: $1')
    .replace(/^incomplete input$/, 'SQL syntax error: incomplete statement')
    .replace(/values were provided/, 'values were given for the ? placeholders');
}

export function runSql(
  ctx: RowsContext,
  base: Base,
  body: { sql?: unknown; parameters?: unknown; convert_keys?: unknown; server_only?: unknown },
  actor = 'sql',
): SqlResult {
  if (typeof body.sql !== 'string') throw badRequest('sql is required');
  const ck = body.convert_keys;
  if (ck !== undefined && ck !== null && typeof ck !== 'boolean' && ck !== 'true' && ck !== 'false')
    throw badRequest('convert_keys must be true or false');
  const params = checkParams(body.parameters, ctx.faults);
  if (params.length && !ctx.behaviour.sqlParameters) throw badRequest('parameters are not supported before 5.0');
  const tr = translate(base, body.sql);
  // OA62 querySQL server_only: true limits a SELECT to the normal store.
  if (body.server_only !== true) selectBothStores(ctx, base, tr);
  if (tr.paramCount !== params.length)
    throw badRequest(`the statement has ${tr.paramCount} parameters, ${params.length} given`);
  const byName = ck === true || ck === 'true';
  const spliced = params.length > 0 && ctx.faults.has('sql-splice');
  const bound = spliced ? [] : params;
  // The switches are queried only where they change something (coverage, src/mutants/coverage.ts): a LIMIT over the cap or not a number; no LIMIT.
  const overCap =
    tr.kind === 'select' && tr.hasLimit && (tr.limitPart < 0 || Number(tr.parts[tr.limitPart]) > SIZE_LIMITS.sqlList);
  const hardCap = overCap && ctx.faults.has('sql-no-cap') ? SIZE_LIMITS.sqlList + 1 : SIZE_LIMITS.sqlList;
  const list =
    tr.kind === 'select'
      ? capped(tr, hardCap, !tr.hasLimit && ctx.faults.has('sql-no-default-limit'))
      : { sql: tr.sql, plain: tr.sql };
  const sql = spliced ? splice(list.sql, params) : list.sql;
  try {
    if (tr.kind === 'select') return select(ctx, base, tr, sql, bound, byName, list);
    return write(ctx, base, tr, sql, bound, actor);
  } catch (e) {
    if (e instanceof HttpError || !isStatementError(e)) throw e;
    if (tr.kind === 'select' && ctx.faults.has('sql-lax-filter'))
      return select(ctx, base, tr, tr.sql.replace(/ WHERE .*$/i, ''), [], byName, {
        sql: '',
        plain: '',
        iterateCap: hardCap,
      });
    throw badRequest(sqlErrorMessage(e, tr.table));
  }
}

/**
 * The list's row cap, applied by SQLite where it can be: a LIMIT appended (100 rows) or a
 * literal count lowered to the cap. A computed LIMIT (`LIMIT ?`) is capped while reading.
 */
interface Capped {
  sql: string;
  plain: string;
  iterateCap?: number;
}
function capped(tr: Translated, hardCap: number, noDefault = false): Capped {
  if (!tr.hasLimit)
    return {
      sql: `${tr.sql} LIMIT ${noDefault ? hardCap : Math.min(SIZE_LIMITS.sqlListDefault, hardCap)}`,
      plain: tr.sql,
    };
  if (tr.limitPart < 0) return { sql: tr.sql, plain: tr.sql, iterateCap: hardCap };
  const parts = [...tr.parts];
  parts[tr.limitPart] = String(Math.min(Number(parts[tr.limitPart]), hardCap));
  return { sql: parts.join(''), plain: tr.sql };
}

function prepareList(base: Base, sql: string, list: Capped) {
  try {
    return base.db.prepare(sql);
  } catch (e) {
    // The appended LIMIT must not show in a syntax error: the client's own statement answers.
    if (list.plain && list.plain !== sql) base.db.prepare(list.plain);
    throw e;
  }
}

/** Computed cells (links, formulas) of the rows whose ids a result column carries. */
function computedCells(ctx: RowsContext, base: Base, table: TableMeta, ids: unknown[]): Map<string, ApiRow> {
  const wanted = [...new Set(ids.filter((x): x is string => typeof x === 'string'))];
  if (!wanted.length) return new Map();
  const phys = fetchPhys(
    base.db,
    `SELECT * FROM ${anyStore(base.db, table)} WHERE _id IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(wanted)],
  );
  const rows = materialise(ctx, base, table, phys, { byName: false });
  return new Map(rows.map((r) => [r._id as string, r]));
}

/** Read at most `cap` rows (a LIMIT SQLite could not be given). */
function readCapped<T>(stmt: Statement, params: unknown[], cap: number): T[] {
  const out: T[] = [];
  for (const row of stmt.iterate(...params) as IterableIterator<T>) {
    out.push(row);
    if (out.length >= cap) break;
  }
  return out;
}

function select(
  ctx: RowsContext,
  base: Base,
  tr: Translated,
  sql: string,
  params: unknown[],
  byName: boolean,
  list: Capped,
): SqlResult {
  const stmt = prepareList(base, sql, list);
  if (!stmt.reader) throw badRequest('the statement returns no rows');
  // A list writes nothing: translate() let through one statement that begins with SELECT, which SQLite never lets write.
  const read = <T>(): T[] =>
    list.iterateCap === undefined ? (stmt.all(...params) as T[]) : readCapped<T>(stmt, params, list.iterateCap);
  if (tr.selectStar) {
    stmt.raw(true);
    const phys: PhysRows = { rows: read<unknown[]>(), columns: stmt.columns().map((c) => c.name) };
    const rows = materialise(ctx, base, tr.table, phys, { byName });
    if (!byName)
      selectCellsAsIds(
        rows,
        tr.table.columns.map((col) => ({ key: col.key, col })),
        ctx.faults,
      );
    return ok(
      tr.table.columns.map((col) => sqlColumn(col, byName, ctx.faults)),
      rows,
    );
  }
  const raw = read<Record<string, unknown>>();
  const byPhys = new Map<string, ColumnMeta>(tr.table.columns.map((c) => [physColumn(c.key), c]));
  // Each result column: a column of the table (decoded, or computed from its row), or an expression.
  const columns = stmt.columns().map((c) => {
    const named = tr.outputs.get(c.name);
    const col = named?.col ?? byPhys.get(c.name);
    const key = named?.alias
      ? c.name
      : col
        ? byName
          ? col.name
          : col.key
        : c.name.replace(/"?c_(\w{4})"?/g, (m, k: string) => tr.table.columns.find((x) => x.key === k)?.name ?? m);
    return {
      name: c.name,
      col,
      key,
      computed: named?.computed
        ? computedCells(
            ctx,
            base,
            tr.table,
            raw.map((r) => r[c.name]),
          )
        : undefined,
    };
  });
  const results = raw.map((r) => {
    const o: ApiRow = {};
    for (const c of columns) {
      const v = r[c.name];
      o[c.key] = c.computed
        ? (c.computed.get(v as string)?.[c.col!.key] ?? null)
        : c.col
          ? decodeValue(c.col, v)
          : c.name in FLAGS
            ? FLAGS[c.name]!(v)
            : v;
    }
    return o;
  });
  if (!byName)
    selectCellsAsIds(
      results,
      columns.flatMap((c) => (c.col && !c.computed ? [{ key: c.key, col: c.col }] : [])),
      ctx.faults,
    );
  const seen = new Set<ColumnMeta>();
  const metadata = columns.flatMap((c) =>
    c.col && !seen.has(c.col) && seen.add(c.col) ? [sqlColumn(c.col, byName, ctx.faults)] : [],
  );
  return ok(metadata, results);
}

/** Row flags read as the row list reads them: `_archived` true/false, `_locked` true/null. */
const FLAGS: Record<string, (v: unknown) => unknown> = { _archived: (v) => !!v, _locked: (v) => (v ? true : null) };

function write(ctx: RowsContext, base: Base, tr: Translated, sql: string, params: unknown[], actor: string): SqlResult {
  let affected = 0;
  // Webhooks hear of SQL writes too; the changed rows are read back only when one listens.
  const listened = ctx.events.wants(base.uuid, 'sql');
  let changed: PhysRow[] = [];
  inBoth(ctx.db, base, () => {
    if (tr.kind === 'delete') {
      const rows = base.db.prepare(`${sql} RETURNING ${listened ? '*' : '_id'}`).all(...params) as PhysRow[];
      const ids = rows.map((r) => r._id);
      dropLinksOfRows(base, ids);
      affected = ids.length;
      if (listened) changed = rows;
    } else if (listened) {
      changed = base.db.prepare(`${sql} RETURNING *`).all(...params) as PhysRow[];
      affected = changed.length;
    } else affected = base.db.prepare(sql).run(...params).changes;
    const big = writeBigStore(ctx.db, base, tr, sql, params, actor, Date.now());
    if (tr.kind === 'delete')
      dropLinksOfRows(
        base,
        big.map((r) => r._id),
      );
    affected += big.length;
    if (listened) changed = [...changed, ...big];
    if (ctx.faults.has('sql-write-cap') && affected > SIZE_LIMITS.sqlList)
      throw badRequest(`the statement touches ${affected} rows, more than ${SIZE_LIMITS.sqlList}`);
  });
  touch(base);
  if (changed.length)
    ctx.events.emit(
      sqlChanges(base, tr.table, tr.kind as 'insert' | 'update' | 'delete', changed, actor, Date.now()),
      'sql',
    );
  return { ...ok([], []), affected_rows: affected };
}

const ok = (metadata: SqlResult['metadata'], results: ApiRow[]): SqlResult => ({
  metadata,
  results,
  success: true,
  is_join_stmt: false,
  error_message: '',
});

/**
 * The row list of a base table (api-shapes §2.1): a page of rows in the order of the view's
 * sorts (or `order_by`), filtered by the view, its hidden columns left out. As row objects
 * (exports) or as the gateway's JSON answer, which keeps each row's JSON for the next list
 * over unchanged data (kept-rows.ts).
 */
import { INTERNAL_FIELD_OF_TYPE } from '../../spec/index.js';
import { fetchPhys, materialise, type ApiRow, type PhysRows } from './cells.js';
import { cachedStatement, qid } from './db.js';
import { listedJson, type KeptRows } from './kept-rows.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta, type ViewMeta } from './model.js';
import type { RowsContext } from './rows.js';
import { hiddenKeys, viewOrder, viewWhere } from './view-query.js';

interface ListQuery {
  start: number;
  limit: number;
  view?: ViewMeta;
  orderBy?: ColumnMeta;
  descending?: boolean;
  byName: boolean;
}

/** A list as SQL following `SELECT <what>`, with its parameters; and the row keys the view hides. */
interface Listing {
  from: string;
  params: unknown[];
  hidden: string[];
}

function listing(ctx: RowsContext, table: TableMeta, q: ListQuery): Listing {
  const where = viewWhere(table, q.view);
  // Mutant (BASE-1): the row list keeps the table's order whatever the view's sorts say.
  const ordered = viewOrder(table, q.view);
  const sorted = ordered.sql && ctx.faults.has('view-sorts-ignored') ? { sql: '', params: [] } : ordered;
  const order = q.orderBy
    ? `${INTERNAL_FIELD_OF_TYPE[q.orderBy.type] ?? qid(physColumn(q.orderBy.key))} ${q.descending ? 'DESC' : 'ASC'}, rowid`
    : sorted.sql
      ? `${sorted.sql}, rowid`
      : 'rowid';
  const params = [...where.params, ...(q.orderBy ? [] : sorted.params), q.limit, q.start];
  // A view shows its visible columns only (api-shapes §2.1); mutant (BASE-1): the hidden ones too.
  const keys = hiddenKeys(q.view);
  const hidden =
    keys.size && !ctx.faults.has('view-shows-hidden-columns')
      ? table.columns.filter((c) => keys.has(c.key)).map((c) => (q.byName ? c.name : c.key))
      : [];
  return { from: `FROM ${qid(table.phys)} ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, params, hidden };
}

/** Rows as the list shows them. */
function rowsOf(
  ctx: RowsContext,
  base: Base,
  table: TableMeta,
  phys: PhysRows,
  q: ListQuery,
  hidden: string[],
): ApiRow[] {
  const rows = materialise(ctx, base, table, phys, { byName: q.byName });
  if (hidden.length) for (const row of rows) for (const k of hidden) delete row[k];
  return rows;
}

export function listRows(ctx: RowsContext, base: Base, table: TableMeta, q: ListQuery): ApiRow[] {
  const l = listing(ctx, table, q);
  return rowsOf(ctx, base, table, fetchPhys(base.db, `SELECT * ${l.from}`, l.params), q, l.hidden);
}

/** The gateway's answer, `{"rows":[…]}`: the bytes JSON.stringify gives for listRows' rows, from the base's `kept` rows where it can. */
export function listRowsJson(ctx: RowsContext, base: Base, table: TableMeta, q: ListQuery, kept: KeptRows): string {
  const l = listing(ctx, table, q);
  const listed = () =>
    (cachedStatement(base.db, `SELECT _id ${l.from}`, true).all(...l.params) as [string][]).map((r) => r[0]);
  const load = (ids?: string[]): [string, string][] => {
    const phys = ids
      ? fetchPhys(base.db, `SELECT * FROM ${qid(table.phys)} WHERE _id IN (SELECT value FROM json_each(?))`, [
          JSON.stringify(ids),
        ])
      : fetchPhys(base.db, `SELECT * ${l.from}`, l.params);
    const iId = phys.columns.indexOf('_id');
    return rowsOf(ctx, base, table, phys, q, l.hidden).map((row, i) => [
      phys.rows[i]![iId] as string,
      JSON.stringify(row),
    ]);
  };
  return `{"rows":[${listedJson(ctx, base, kept, table, JSON.stringify([q.byName, l.hidden]), listed, load).join(',')}]}`;
}

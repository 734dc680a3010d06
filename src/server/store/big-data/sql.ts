/**
 * SQL over both stores (BASE-6; the OpenAPI's querySQL "works across both normal and big
 * data storage"): a SELECT reads the union of the table's normal and big-data rows, an
 * UPDATE or DELETE runs on the big-data rows too. INSERT writes normal rows, as it did
 * before big data existed in this server.
 */
import type { PhysRow } from '../cells.js';
import { qid, type Db } from '../db.js';
import type { Base } from '../model.js';
import type { RowsContext } from '../rows.js';
import type { Translated } from '../sql-translate.js';
import { logBigOps } from './log.js';
import { bigTableOf, bothStores, hasBigStore } from './store.js';

/** Let a SELECT read both stores: its table piece becomes their union (if the table archived rows). */
export function selectBothStores(ctx: RowsContext, base: Base, tr: Translated): void {
  if (tr.kind !== 'select' || tr.tablePart < 0) return;
  const source = bothStores(base.db, tr.table);
  if (!source || ctx.faults.has('sql-normal-rows-only')) return; // mutant: SQL never sees big data
  tr.parts[tr.tablePart] = source;
  tr.sql = tr.parts.join('');
}

/**
 * The UPDATE or DELETE `sql` (as run on the normal rows) run on the big-data rows; returns
 * the rows it changed. A DELETE is logged in `accounts` (restorable). The caller's transaction covers it.
 */
export function writeBigStore(
  accounts: Db,
  base: Base,
  tr: Translated,
  sql: string,
  params: readonly unknown[],
  actor: string,
  at: number,
): PhysRow[] {
  const db = base.db;
  if ((tr.kind !== 'update' && tr.kind !== 'delete') || !hasBigStore(db, tr.table)) return [];
  // The statement's first name is its table (UPDATE t …, DELETE FROM t …): replace that one.
  const onBig = sql.replace(qid(tr.table.phys), qid(bigTableOf(tr.table)));
  const rows = db.prepare(`${onBig} RETURNING *`).all(...params) as PhysRow[];
  if (tr.kind === 'delete') logBigOps(accounts, base, tr.table, 'delete_row', rows, actor, at);
  return rows;
}

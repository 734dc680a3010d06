/**
 * The big-data store's operation log (db-operations/): one entry per row added to big data
 * (`add_row`) or deleted from it by SQL (`delete_row`), with the row's stored cells keyed by
 * column key. Restoring an entry undoes it: an added row is removed, a deleted row comes back.
 */
import { badRequest, notFound } from '../../errors.js';
import { hexUuid } from '../account/webhooks.js';
import { inBoth } from '../base-db.js';
import { cachedStatement, qid, type Db } from '../db.js';
import { physColumn, type Base, type TableMeta } from '../model.js';
import type { PhysRow } from '../cells.js';
import { ensureBigStore, rowsIn } from './store.js';

type BigOpType = 'add_row' | 'delete_row';

interface OpRow {
  id: number;
  base_uuid: string;
  table_id: string;
  row_id: string;
  op_type: BigOpType;
  author: string;
  op_time: number;
  operation: string;
  restored: number;
}

/** A physical row as the log keeps it: row internals as they are, cells under their column keys. */
function loggedRow(table: TableMeta, phys: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['_id', '_ctime', '_mtime', '_creator', '_last_modifier']) out[k] = phys[k] ?? null;
  for (const c of table.columns) if (physColumn(c.key) in phys) out[c.key] = phys[physColumn(c.key)] ?? null;
  return out;
}

/** Record operations on big-data rows; the caller's transaction covers them. `at` in ms. */
export function logBigOps(
  db: Db,
  base: Base,
  table: TableMeta,
  op: BigOpType,
  rows: readonly PhysRow[],
  author: string,
  at: number,
): void {
  const ins = cachedStatement(
    db,
    'INSERT INTO big_data_ops (base_uuid, table_id, row_id, op_type, author, op_time, operation) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const seconds = Math.floor(at / 1000);
  for (const r of rows)
    ins.run(
      base.uuid,
      table._id,
      r._id,
      op,
      author,
      seconds,
      JSON.stringify({ row_id: r._id, table_id: table._id, row_data: loggedRow(table, r) }),
    );
}

/** Newest first, `perPage` per page (pages count from 1). */
export function listBigOps(db: Db, base: Base, page: number, perPage: number) {
  const rows = cachedStatement(
    db,
    'SELECT * FROM big_data_ops WHERE base_uuid = ? ORDER BY id DESC LIMIT ? OFFSET ?',
  ).all(base.uuid, perPage, (page - 1) * perPage) as OpRow[];
  return {
    operations: rows.map((r) => ({
      id: r.id,
      dtable_uuid: hexUuid(r.base_uuid),
      op_time: r.op_time,
      op_type: r.op_type,
      author: r.author,
      operation: r.operation,
    })),
  };
}

/** Undo operation `opId` of the base's log (kept in `accounts`), once. */
export function restoreBigOp(accounts: Db, base: Base, opId: number): void {
  const op = cachedStatement(accounts, 'SELECT * FROM big_data_ops WHERE id = ? AND base_uuid = ?').get(
    opId,
    base.uuid,
  ) as OpRow | undefined;
  if (!op) throw notFound(`operation ${opId} not found`);
  if (op.restored) throw badRequest(`operation ${opId} is already restored`);
  const table = base.meta.tables.find((t) => t._id === op.table_id);
  if (!table) throw badRequest(`the table of operation ${opId} no longer exists`);
  const { row_data: data } = JSON.parse(op.operation) as { row_data: Record<string, unknown> };
  const db = base.db;
  inBoth(accounts, base, () => {
    const big = ensureBigStore(db, table);
    if (op.op_type === 'add_row') {
      if (db.prepare(`DELETE FROM ${qid(big)} WHERE _id = ?`).run(op.row_id).changes === 0)
        throw badRequest(`row ${op.row_id} is no longer in big data`);
    } else {
      if (rowsIn(db, table, [op.row_id]).size || rowsIn(db, table, [op.row_id], true).size)
        throw badRequest(`row ${op.row_id} exists`);
      const cells = table.columns.filter((c) => c.key in data).map((c) => [physColumn(c.key), data[c.key]] as const);
      const names = ['_id', '_ctime', '_mtime', '_creator', '_last_modifier', ...cells.map(([n]) => n)];
      const values = [
        op.row_id,
        data._ctime,
        data._mtime,
        data._creator ?? null,
        data._last_modifier ?? null,
        ...cells.map(([, v]) => v),
      ];
      db.prepare(
        `INSERT INTO ${qid(big)} (${names.map(qid).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      ).run(...values);
    }
    cachedStatement(accounts, 'UPDATE big_data_ops SET restored = 1 WHERE id = ?').run(opId);
  });
}

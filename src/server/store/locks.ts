/**
 * Row locks (lock-rows/, unlock-rows/): `_locked` true and `_locked_by` the locking user on
 * the row, cleared by unlock; both idempotent. Big-data rows cannot be locked (the OpenAPI
 * says so): naming one is refused, as is naming a row the table does not have.
 */
import { SIZE_LIMITS } from '../../spec/index.js';
import { badRequest, notFound } from '../errors.js';
import { hasBigStore, rowsIn } from './big-data/store.js';
import { qid, type Db } from './db.js';
import type { Base, TableMeta } from './model.js';
import { checkCount, requireArray, touch, type RowsContext } from './rows.js';

/** Tables made before locks existed gain their columns on first use. */
function ensureLockColumns(db: Db, table: TableMeta): void {
  const have = new Set(
    (db.prepare(`PRAGMA table_info(${qid(table.phys)})`).all() as { name: string }[]).map((c) => c.name),
  );
  if (!have.has('_locked')) db.exec(`ALTER TABLE ${qid(table.phys)} ADD COLUMN _locked INTEGER`);
  if (!have.has('_locked_by')) db.exec(`ALTER TABLE ${qid(table.phys)} ADD COLUMN _locked_by TEXT`);
}

export function setRowLocks(
  ctx: RowsContext,
  base: Base,
  table: TableMeta,
  idsIn: unknown,
  actor: string,
  lock: boolean,
): { success: true } {
  const ids = requireArray(idsIn, 'row_ids');
  if (ids.some((id) => typeof id !== 'string')) throw badRequest('row_ids must be strings');
  checkCount(ids.length, SIZE_LIMITS.updateRows, lock ? 'lock-rows' : 'unlock-rows', false);
  const list = ids as string[];
  ensureLockColumns(base.db, table);
  base.db.transaction(() => {
    const found = rowsIn(base.db, table, list);
    const missing = list.filter((id) => !found.has(id));
    if (missing.length && hasBigStore(base.db, table) && rowsIn(base.db, table, missing, true).size)
      throw badRequest('rows in big data cannot be locked or unlocked');
    if (missing.length) throw notFound(`row _id not exits: ${missing[0]}`);
    if (lock && ctx.faults.has('lock-rows-noop')) return; // mutant: lock answers success and changes nothing
    base.db
      .prepare(
        `UPDATE ${qid(table.phys)} SET _locked = ?, _locked_by = ? WHERE _id IN (SELECT value FROM json_each(?))`,
      )
      .run(lock ? 1 : null, lock ? actor : null, JSON.stringify(list));
  })();
  touch(base);
  return { success: true };
}

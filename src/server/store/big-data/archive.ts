/**
 * Moving rows between the normal and the big-data store: archive-view (a view's rows, 6.0+;
 * a raw SQL condition before) and unarchive (rows by id). Both move the rows whole, in one
 * transaction, and leave the base's cached answers stale (version bumped).
 */
import { notFound } from '../../errors.js';
import { qid } from '../db.js';
import type { Base, TableMeta, ViewMeta } from '../model.js';
import { touch, type RowsContext } from '../rows.js';
import { viewWhere } from '../view-query.js';
import { moveRows, rowsIn } from './store.js';

export function archiveView(ctx: RowsContext, base: Base, table: TableMeta, view: ViewMeta): number {
  const where = viewWhere(table, view);
  return archiveIds(ctx, base, table, `SELECT _id FROM ${qid(table.phys)} ${where.sql}`, where.params);
}

/**
 * Before 6.0 archive took a raw SQL condition over column names (kept for --api-version < 6.0).
 * `selectIds` translates `SELECT _id FROM table WHERE <condition>` (the SQL endpoint's dialect and checks).
 */
export function archiveWhere(ctx: RowsContext, base: Base, table: TableMeta, selectIds: string): number {
  return archiveIds(ctx, base, table, selectIds, []);
}

function archiveIds(ctx: RowsContext, base: Base, table: TableMeta, selectIds: string, params: unknown[]): number {
  let moved = 0;
  base.db.transaction(() => {
    const ids = base.db
      .prepare(selectIds)
      .pluck()
      .all(...params) as string[];
    // Mutant: the rows are only flagged, not moved — they stay in the normal row list.
    if (ctx.faults.has('archive-flags-only'))
      moved = base.db
        .prepare(`UPDATE ${qid(table.phys)} SET _archived = 1 WHERE _id IN (SELECT value FROM json_each(?))`)
        .run(JSON.stringify(ids)).changes;
    else moved = moveRows(base.db, table, ids, 'big');
  })();
  touch(base);
  return moved;
}

/** Move big-data rows back to the normal rows; every id must be a big-data row of the table. */
export function unarchiveRows(ctx: RowsContext, base: Base, table: TableMeta, ids: readonly string[]): number {
  let moved = 0;
  base.db.transaction(() => {
    const found = rowsIn(base.db, table, ids, true);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw notFound(`row ${missing} is not a big-data row of table ${table.name}`);
    if (ctx.faults.has('unarchive-noop')) return; // mutant: the task is reported, the rows stay in big data
    moved = moveRows(base.db, table, ids, 'normal');
  })();
  touch(base);
  return moved;
}

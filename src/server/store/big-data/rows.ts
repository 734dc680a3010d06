/**
 * add-archived-rows: rows written straight into the big-data store, checked and encoded as
 * the row append checks them (a refused batch writes nothing), each logged as `add_row`.
 */
import { SIZE_LIMITS } from '../../../spec/index.js';
import type { PhysRow } from '../cells.js';
import { inBoth } from '../base-db.js';
import { qid } from '../db.js';
import { isoNow, newRowId, physColumn, type Base, type TableMeta } from '../model.js';
import { checkCount, encodeRow, nextAutoNumbers, requireArray, touch, type RowsContext } from '../rows.js';
import { saveMeta, withMetaRollback } from '../schema.js';
import { logBigOps } from './log.js';
import { ensureBigStore } from './store.js';

/** Column types computed at read time or filled from the row internals: no cell to store. */
const UNSTORED = new Set(['link', 'link-formula', 'formula', 'ctime', 'mtime', 'creator', 'last-modifier']);

export function addBigRows(
  ctx: RowsContext,
  base: Base,
  table: TableMeta,
  rowsIn: unknown,
  actor: string,
  at: number,
): { inserted_row_count: number } {
  const rows = requireArray(rowsIn, 'rows');
  checkCount(rows.length, SIZE_LIMITS.appendRows, 'add-archived-rows', false);
  const stored = table.columns.filter((c) => !UNSTORED.has(c.type));
  const nextAuto = nextAutoNumbers(table);
  const now = isoNow(at);
  withMetaRollback(base, () => {
    const byName = new Map(table.columns.map((c) => [c.name, c]));
    const encoded = rows.map((r, i) => encodeRow(ctx, byName, r, i, 'append'));
    inBoth(ctx.db, base, () => {
      // Mutant: the rows land in the normal store, where the row list shows them.
      const into = ctx.faults.has('big-rows-to-normal') ? table.phys : ensureBigStore(base.db, table);
      const cols = ['_id', '_ctime', '_mtime', '_creator', '_last_modifier', ...stored.map((c) => physColumn(c.key))];
      const insert = base.db.prepare(
        `INSERT INTO ${qid(into)} (${cols.map(qid).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      );
      const logged: PhysRow[] = encoded.map(({ values }) => {
        const cells = stored.map((c) => (c.type === 'auto-number' ? nextAuto(c) : (values.get(c) ?? null)));
        const row: PhysRow = { _id: newRowId(), _ctime: now, _mtime: now, _creator: actor, _last_modifier: actor };
        stored.forEach((c, i) => {
          row[physColumn(c.key)] = cells[i];
        });
        insert.run(row._id, now, now, actor, actor, ...cells);
        return row;
      });
      logBigOps(ctx.db, base, table, 'add_row', logged, actor, at);
      if (stored.some((c) => c.type === 'auto-number') || encoded.some((e) => e.schemaChanged)) saveMeta(ctx.db, base);
    });
  });
  touch(base);
  return { inserted_row_count: rows.length };
}

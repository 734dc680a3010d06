/**
 * Mutants of concurrent writes (ROBUST-6), kept apart from the store they break. A store that
 * reads a table, yields, and writes it back whole — as one that keeps a base as a single
 * document would — loses what another call wrote in between.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { qid } from './db.js';
import type { Base, TableMeta } from './model.js';
import { appendRows, type RowsContext } from './rows.js';

/** The write-back's I/O: long enough that concurrent calls overlap in it. */
const IO_MS = 10;

/** Mutant append-race: the rows present at the read are written back with the new ones; rows appended meanwhile by another call are lost. */
export async function appendRowsRacy(
  ctx: RowsContext,
  base: Base,
  table: TableMeta,
  rowsIn: unknown,
  actor: string,
): Promise<ReturnType<typeof appendRows>> {
  const ids = () =>
    (base.db.prepare(`SELECT _id FROM ${qid(table.phys)}`).all() as { _id: string }[]).map((r) => r._id);
  const seen = ids();
  await sleep(IO_MS);
  const out = appendRows(ctx, base, table, rowsIn, actor);
  const keep = new Set([...seen, ...out.row_ids.map((r) => r._id)]);
  const drop = base.db.prepare(`DELETE FROM ${qid(table.phys)} WHERE _id = ?`);
  base.db.transaction(() => {
    for (const id of ids()) if (!keep.has(id)) drop.run(id);
  })();
  return out;
}

/**
 * Reading and making links in bulk: query-links (a page of each row's linked records, in
 * link creation order, BASE-5) and auto-links (link the rows of the two tables whose
 * matching columns hold equal values).
 */
import { INTERNAL_FIELD_OF_TYPE } from '../../spec/index.js';
import { badRequest } from '../errors.js';
import { anyStore } from './big-data/store.js';
import { linkDisplayValues, type ReadContext } from './cells.js';
import { cachedStatement, qid } from './db.js';
import { linkData, linkSide } from './links.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';

export interface LinkPage {
  row_id: string;
  offset: number;
  limit: number;
}

/** Linked records per row: `{row_id: [{row_id, display_value}]}`. */
export function queryLinks(
  ctx: ReadContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  pages: readonly LinkPage[],
): Record<string, { row_id: string; display_value: unknown }[]> {
  const { mine } = linkSide(col, table);
  const theirs = mine === 'row_id' ? 'other_row_id' : 'row_id';
  const page = cachedStatement(
    base.db,
    `SELECT ${theirs} FROM links WHERE link_id = ? AND ${mine} = ? ORDER BY ctime, rowid LIMIT ? OFFSET ?`,
  );
  const ignoreOffset = ctx.faults.has('query-links-ignore-offset'); // mutant: every page starts at the first link
  const ids = new Map(
    pages.map((p) => [
      p.row_id,
      page.pluck().all(linkData(col).link_id, p.row_id, p.limit, ignoreOffset ? 0 : p.offset) as string[],
    ]),
  );
  const display = linkDisplayValues(ctx, base, table, col, [...new Set([...ids.values()].flat())]);
  return Object.fromEntries(
    [...ids].map(([rowId, list]) => [
      rowId,
      list.map((id) => ({ row_id: id, display_value: display.get(id) ?? null })),
    ]),
  );
}

/** Column types auto-links cannot match on (computed, or no value of their own). */
const UNMATCHABLE = new Set(['link', 'link-formula', 'formula', 'button']);

export interface MatchingKey {
  table1_key: string;
  table2_key: string;
}

/** The link named `linkId`, from the side of its `table_id` (table 1) to its other table (table 2). */
function linkById(base: Base, linkId: string): { col: ColumnMeta; t1: TableMeta; t2: TableMeta } {
  for (const t1 of base.meta.tables) {
    const col = t1.columns.find((c) => c.type === 'link' && c.data?.link_id === linkId && c.data.table_id === t1._id);
    const t2 = col && base.meta.tables.find((t) => t._id === linkData(col).other_table_id);
    if (col && t2) return { col, t1, t2 };
  }
  throw badRequest(`link ${linkId} not found`);
}

function matchColumn(table: TableMeta, key: string, side: string): ColumnMeta {
  const c = table.columns.find((x) => x.key === key);
  if (!c) throw badRequest(`${side}: column ${key} not found in table ${table.name}`);
  if (UNMATCHABLE.has(c.type)) throw badRequest(`${side}: ${c.type} column ${c.name} cannot be matched`);
  return c;
}

/** Link every pair of rows (normal or big data) whose matching columns hold equal, non-empty values. Returns the links made. */
export function autoLink(
  ctx: ReadContext,
  base: Base,
  linkId: string,
  keys: readonly MatchingKey[],
  at: number,
): number {
  const { t1, t2 } = linkById(base, linkId);
  const pairs = keys.map(
    (k) => [matchColumn(t1, k.table1_key, 'table1_key'), matchColumn(t2, k.table2_key, 'table2_key')] as const,
  );
  for (const [a, b] of pairs)
    if ((a.type === 'single-select') !== (b.type === 'single-select'))
      throw badRequest(
        `a single-select column cannot be matched with a ${a.type === 'single-select' ? b.type : a.type} column`,
      );
  const read = (t: TableMeta, cols: ColumnMeta[]) =>
    base.db
      .prepare(
        `SELECT _id, ${cols.map((c) => INTERNAL_FIELD_OF_TYPE[c.type] ?? qid(physColumn(c.key))).join(', ')} FROM ${anyStore(base.db, t)}`,
      )
      .raw()
      .all() as unknown[][];
  const keyOf = (r: unknown[]) =>
    r.slice(1).some((v) => v === null || v === '') ? undefined : JSON.stringify(r.slice(1).map(String));
  const byValue = new Map<string, string[]>();
  for (const r of read(
    t2,
    pairs.map(([, b]) => b),
  )) {
    const k = keyOf(r);
    if (k !== undefined) byValue.set(k, [...(byValue.get(k) ?? []), r[0] as string]);
  }
  const ins = base.db.prepare('INSERT OR IGNORE INTO links (link_id, row_id, other_row_id, ctime) VALUES (?, ?, ?, ?)');
  let made = 0;
  base.db.transaction(() => {
    for (const r of read(
      t1,
      pairs.map(([a]) => a),
    )) {
      const k = keyOf(r);
      for (const other of (k !== undefined && byValue.get(k)) || []) made += ins.run(linkId, r[0], other, at).changes;
    }
  })();
  return made;
}

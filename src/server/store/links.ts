/**
 * Row links. A link column's `data` names the link (`link_id`) and its two tables; links are
 * stored once per pair as (row_id of `table_id`, other_row_id of `other_table_id`), and each
 * of the two link columns reads them from its own side. They live in the base's own database.
 */
import { cachedStatement } from './db.js';
import type { Base, ColumnMeta, TableMeta } from './model.js';

export interface LinkData {
  link_id: string;
  table_id: string;
  other_table_id: string;
  display_column_key: string;
  is_multiple: boolean;
}

export const linkData = (col: ColumnMeta) => col.data as unknown as LinkData;

/** Which side of its link a link column of `table` reads from, and the table on the other side. */
export function linkSide(col: ColumnMeta, table: TableMeta): { mine: 'row_id' | 'other_row_id'; otherTableId: string } {
  const d = linkData(col);
  return d.table_id === table._id
    ? { mine: 'row_id', otherTableId: d.other_table_id }
    : { mine: 'other_row_id', otherTableId: d.table_id };
}

/** Linked row ids per row id, in link creation order, at most `cap` each. */
export function linkedIds(
  base: Base,
  col: ColumnMeta,
  table: TableMeta,
  rowIds: readonly string[],
  cap = 50,
): Map<string, string[]> {
  const { mine } = linkSide(col, table);
  const theirs = mine === 'row_id' ? 'other_row_id' : 'row_id';
  const out = new Map<string, string[]>();
  if (rowIds.length === 0) return out;
  const rows = cachedStatement(
    base.db,
    `SELECT ${mine} AS a, ${theirs} AS b FROM links WHERE link_id = ? AND ${mine} IN (SELECT value FROM json_each(?)) ORDER BY ctime, rowid`,
  ).all(linkData(col).link_id, JSON.stringify(rowIds)) as { a: string; b: string }[];
  for (const r of rows) {
    const list = out.get(r.a) ?? [];
    if (list.length < cap) list.push(r.b);
    out.set(r.a, list);
  }
  return out;
}

export type LinkMap = Readonly<Record<string, readonly string[]>>;

/** Add links (duplicates refused), replace them, or remove them. Returns the number changed. */
export function changeLinks(
  base: Base,
  linkId: string,
  sideIsTable: boolean,
  map: LinkMap,
  op: 'add' | 'replace' | 'remove',
): number {
  const pairs = Object.entries(map).flatMap(([rowId, others]) =>
    others.map((o) => (sideIsTable ? [rowId, o] : [o, rowId]) as [string, string]),
  );
  const now = Date.now();
  let changed = 0;
  const db = base.db;
  db.transaction(() => {
    if (op === 'replace') {
      const col = sideIsTable ? 'row_id' : 'other_row_id';
      const del = db.prepare(`DELETE FROM links WHERE link_id = ? AND ${col} = ?`);
      for (const rowId of Object.keys(map)) del.run(linkId, rowId);
    }
    const ins = db.prepare('INSERT INTO links (link_id, row_id, other_row_id, ctime) VALUES (?, ?, ?, ?)');
    const rm = db.prepare('DELETE FROM links WHERE link_id = ? AND row_id = ? AND other_row_id = ?');
    for (const [a, b] of pairs)
      changed += op === 'remove' ? rm.run(linkId, a, b).changes : ins.run(linkId, a, b, now).changes;
  })();
  return changed;
}

/** Forget the links of deleted rows. */
export function dropLinksOfRows(base: Base, rowIds: readonly string[]): void {
  const ids = JSON.stringify(rowIds);
  base.db
    .prepare(
      'DELETE FROM links WHERE row_id IN (SELECT value FROM json_each(?)) OR other_row_id IN (SELECT value FROM json_each(?))',
    )
    .run(ids, ids);
}

export function dropLink(base: Base, linkId: string): void {
  base.db.prepare('DELETE FROM links WHERE link_id = ?').run(linkId);
}

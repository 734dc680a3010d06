/**
 * Row comments (comments/, comments-count/, comments-within-days/, rows-comments-num/).
 * A comment belongs to a row of a table of the base (normal or big data); creating one
 * notifies the base's other users (`row_comment`, notifications.ts).
 */
import { badRequest, notFound } from '../../errors.js';
import { anyStore } from '../big-data/store.js';
import { cachedStatement, type Db } from '../db.js';
import type { Base, TableMeta } from '../model.js';
import type { Store } from '../store.js';
import { collaborators } from './collaborators.js';
import { notify } from './notifications.js';
import type { Faults } from '../../faults.js';

interface CommentRow {
  id: number;
  base_uuid: string;
  table_id: string;
  row_id: string;
  author: string;
  comment: string;
  resolved: number;
  created_at: string;
  updated_at: string;
}

/** The real service's longest comment is not documented; this bound keeps one row of SQLite reasonable. */
const MAX_COMMENT = 10_000;

const json = (c: CommentRow) => ({
  id: c.id,
  dtable_uuid: c.base_uuid,
  row_id: c.row_id,
  author: c.author,
  comment: c.comment,
  resolved: c.resolved,
  created_at: c.created_at,
  updated_at: c.updated_at,
});

export function createComment(
  store: Store,
  base: Base,
  table: TableMeta,
  rowId: string,
  text: unknown,
  author: string,
  at: number,
): void {
  if (typeof text !== 'string' || text.trim() === '') throw badRequest('comment is required (a non-empty string)');
  if (text.length > MAX_COMMENT) throw badRequest(`comment is longer than ${MAX_COMMENT} characters`);
  const db = store.db;
  if (!base.db.prepare(`SELECT 1 FROM ${anyStore(base.db, table)} WHERE _id = ?`).get(rowId))
    throw notFound('row _id not exits');
  const now = new Date(at).toISOString();
  db.transaction(() => {
    const id = cachedStatement(
      db,
      'INSERT INTO row_comments (base_uuid, table_id, row_id, author, comment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(base.uuid, table._id, rowId, author, text, now, now).lastInsertRowid;
    const detail = { author, comment: text, row_id: rowId, table_id: table._id, comment_id: Number(id) };
    for (const u of collaborators(store, base)) if (u.id !== author) notify(db, base, u.id, 'row_comment', detail, at);
  })();
}

export function rowComments(db: Db, base: Base, rowId: string) {
  return (
    cachedStatement(db, 'SELECT * FROM row_comments WHERE base_uuid = ? AND row_id = ? ORDER BY id').all(
      base.uuid,
      rowId,
    ) as CommentRow[]
  ).map(json);
}

export function commentById(db: Db, base: Base, id: number) {
  const c = cachedStatement(db, 'SELECT * FROM row_comments WHERE base_uuid = ? AND id = ?').get(base.uuid, id) as
    CommentRow | undefined;
  if (!c) throw notFound(`comment ${id} not found`);
  return json(c);
}

export function deleteComment(db: Db, base: Base, id: number, faults: Faults): void {
  commentById(db, base, id);
  if (faults.has('comment-delete-noop')) return; // mutant: delete answers success, the comment stays
  cachedStatement(db, 'DELETE FROM row_comments WHERE base_uuid = ? AND id = ?').run(base.uuid, id);
}

export function commentCount(db: Db, base: Base, rowId: string, faults: Faults): { count: number } {
  if (faults.has('comment-count-zero')) return { count: 0 }; // mutant: the count never changes
  return {
    count: cachedStatement(db, 'SELECT count(*) FROM row_comments WHERE base_uuid = ? AND row_id = ?')
      .pluck()
      .get(base.uuid, rowId) as number,
  };
}

/** Comments made in the last `days` days (now included), newest first. */
export function commentsWithinDays(db: Db, base: Base, days: number, at: number) {
  const since = new Date(at - days * 86_400_000).toISOString();
  return {
    comments: (
      cachedStatement(db, 'SELECT * FROM row_comments WHERE base_uuid = ? AND created_at >= ? ORDER BY id DESC').all(
        base.uuid,
        since,
      ) as CommentRow[]
    ).map(json),
  };
}

/** Number of comments per row, for the rows that have any. */
export function commentsPerRow(db: Db, base: Base): { rows_comments_num: Record<string, number> } {
  const rows = cachedStatement(
    db,
    'SELECT row_id, count(*) AS n FROM row_comments WHERE base_uuid = ? GROUP BY row_id ORDER BY row_id',
  ).all(base.uuid) as { row_id: string; n: number }[];
  return { rows_comments_num: Object.fromEntries(rows.map((r) => [r.row_id, r.n])) };
}

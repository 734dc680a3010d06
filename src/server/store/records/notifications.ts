/**
 * Base notifications (notifications/): per base and user, newest first, each `seen` or not.
 * A base token acting for a user (`username`) sees that user's; an app's token (no user)
 * sees the base's.
 */
import { notFound } from '../../errors.js';
import { cachedStatement, type Db } from '../db.js';
import type { Base } from '../model.js';

interface NotificationRow {
  id: number;
  base_uuid: string;
  username: string;
  msg_type: string;
  detail: string;
  seen: number;
  created_at: string;
}

export function notify(
  db: Db,
  base: Base,
  username: string,
  msgType: string,
  detail: Record<string, unknown>,
  at: number,
): void {
  cachedStatement(
    db,
    'INSERT INTO base_notifications (base_uuid, username, msg_type, detail, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(base.uuid, username, msgType, JSON.stringify(detail), new Date(at).toISOString());
}

/** `user`: whose notifications (undefined: all of the base). */
const WHOSE = 'base_uuid = ? AND (? IS NULL OR username = ?)';

export function listNotifications(db: Db, base: Base, user: string | undefined) {
  const rows = cachedStatement(db, `SELECT * FROM base_notifications WHERE ${WHOSE} ORDER BY id DESC`).all(
    base.uuid,
    user ?? null,
    user ?? null,
  ) as NotificationRow[];
  return {
    notification_list: rows.map((n) => ({
      id: n.id,
      username: n.username,
      msg_type: n.msg_type,
      created_at: n.created_at,
      detail: JSON.parse(n.detail) as unknown,
      seen: n.seen,
    })),
  };
}

export function markAllSeen(db: Db, base: Base, user: string | undefined, seen: boolean): void {
  cachedStatement(db, `UPDATE base_notifications SET seen = ? WHERE ${WHOSE}`).run(
    seen ? 1 : 0,
    base.uuid,
    user ?? null,
    user ?? null,
  );
}

export function markSeen(db: Db, base: Base, user: string | undefined, id: number, seen: boolean): void {
  const n = cachedStatement(db, `UPDATE base_notifications SET seen = ? WHERE id = ? AND ${WHOSE}`).run(
    seen ? 1 : 0,
    id,
    base.uuid,
    user ?? null,
    user ?? null,
  ).changes;
  if (n === 0) throw notFound(`notification ${id} not found`);
}

export function deleteNotifications(db: Db, base: Base, user: string | undefined): void {
  cachedStatement(db, `DELETE FROM base_notifications WHERE ${WHOSE}`).run(base.uuid, user ?? null, user ?? null);
}

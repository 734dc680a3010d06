/**
 * Team operation logs and login logs (List Team Operations / List Team Logins, ACCT-4):
 * seeded, and recorded for real when account operations and logins happen. Times are kept
 * as epoch milliseconds so `start`/`end` filter exactly.
 */
import type { Db } from '../db.js';
import { isoNow } from '../model.js';
import type { User } from '../store.js';
import { prep } from './prepared.js';

export const OPERATION_GROUPS = ['user', 'group', 'base'] as const;
export type OperationGroup = (typeof OPERATION_GROUPS)[number];

interface Operation {
  orgId: number;
  actor: Pick<User, 'id' | 'name'>;
  operation: string;
  group: OperationGroup;
  detail: Record<string, unknown>;
  at: number;
}

export function recordOperation(db: Db, op: Operation): void {
  prep(
    db,
    'INSERT INTO admin_logs (org_id, email, name, operation, operation_group, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(op.orgId, op.actor.id, op.actor.name, op.operation, op.group, JSON.stringify(op.detail), op.at);
}

interface LogQuery {
  start?: number;
  end?: number;
  page: number;
  perPage: number;
}

function where(q: LogQuery, extra: [string, unknown][]): { sql: string; params: unknown[] } {
  const parts: [string, unknown][] = [...extra];
  if (q.start !== undefined) parts.push(['at >= ?', q.start]);
  if (q.end !== undefined) parts.push(['at <= ?', q.end]);
  return { sql: parts.map((p) => p[0]).join(' AND '), params: parts.map((p) => p[1]) };
}

export function listOperations(db: Db, orgId: number, q: LogQuery & { group?: OperationGroup }) {
  const w = where(q, [
    ['org_id = ?', orgId],
    ...(q.group ? [['operation_group = ?', q.group] as [string, unknown]] : []),
  ]);
  const total = (prep(db, `SELECT count(*) AS n FROM admin_logs WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  const rows = prep(db, `SELECT * FROM admin_logs WHERE ${w.sql} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`).all(
    ...w.params,
    q.perPage,
    (q.page - 1) * q.perPage,
  ) as { email: string; name: string; operation: string; operation_group: string; detail: string; at: number }[];
  const logs = rows.map((r) => ({
    email: r.email,
    name: r.name,
    operation: r.operation,
    operation_group: r.operation_group,
    detail: JSON.parse(r.detail) as unknown,
    datetime: isoNow(r.at),
  }));
  return { logs, total_count: total };
}

/** A login attempt of a known user (unknown names are not logged: there is no team to show them to). */
export function recordLogin(db: Db, user: Pick<User, 'id' | 'org_id'>, ip: string, success: boolean, at: number): void {
  prep(db, 'INSERT INTO login_logs (org_id, user_id, login_ip, login_success, at) VALUES (?, ?, ?, ?, ?)').run(
    user.org_id,
    user.id,
    ip,
    success ? 1 : 0,
    at,
  );
}

export function listLogins(db: Db, orgId: number, q: LogQuery & { success?: boolean; userId?: string }) {
  const extra: [string, unknown][] = [['l.org_id = ?', orgId]];
  if (q.success !== undefined) extra.push(['l.login_success = ?', q.success ? 1 : 0]);
  if (q.userId !== undefined) extra.push(['l.user_id = ?', q.userId]);
  const w = where({ ...q }, extra);
  const sql = w.sql.replace(/\bat\b/g, 'l.at');
  const total = (prep(db, `SELECT count(*) AS n FROM login_logs l WHERE ${sql}`).get(...w.params) as { n: number }).n;
  const rows = prep(
    db,
    `SELECT l.*, u.name, u.contact_email, u.email AS login_email FROM login_logs l LEFT JOIN users u ON u.id = l.user_id
      WHERE ${sql} ORDER BY l.at DESC, l.id DESC LIMIT ? OFFSET ?`,
  ).all(...w.params, q.perPage, (q.page - 1) * q.perPage) as {
    user_id: string;
    login_ip: string;
    login_success: number;
    at: number;
    name: string | null;
    contact_email: string | null;
    login_email: string | null;
  }[];
  const login_list = rows.map((r) => ({
    login_time: isoNow(r.at),
    login_ip: r.login_ip,
    login_success: r.login_success === 1,
    email: r.user_id,
    name: r.name ?? '',
    contact_email: r.contact_email ?? r.login_email ?? '',
  }));
  return { login_list, total_count: total };
}

/**
 * Background tasks of the base operations (auto-links, unarchive): the reference server
 * does their work before it answers, so a task is recorded already finished — its id, kind,
 * status (`success` or `failed`) and what it did.
 */
import { randomUUID } from 'node:crypto';
import { notFound } from '../../errors.js';
import { cachedStatement, type Db } from '../db.js';
import type { Base } from '../model.js';

type TaskStatus = 'success' | 'failed' | 'running';

export function recordTask(
  db: Db,
  base: Base,
  kind: string,
  status: TaskStatus,
  detail: Record<string, unknown>,
  at: number,
): string {
  const id = randomUUID();
  cachedStatement(
    db,
    'INSERT INTO base_tasks (id, base_uuid, kind, status, detail, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(id, base.uuid, kind, status, JSON.stringify(detail), at);
  return id;
}

export function taskStatus(db: Db, base: Base, id: string, kind: string): { status: TaskStatus } {
  const t = cachedStatement(db, 'SELECT status FROM base_tasks WHERE id = ? AND base_uuid = ? AND kind = ?').get(
    id,
    base.uuid,
    kind,
  ) as { status: TaskStatus } | undefined;
  if (!t) throw notFound(`task ${id} not found`);
  return { status: t.status };
}

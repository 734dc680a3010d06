/**
 * Background I/O tasks (convert a big-data view to Excel): recorded when asked for, run
 * after the answer, their outcome and result kept. The task id is a millisecond timestamp,
 * as the real service's are (`"1680694429195"`).
 */
import type { Db } from '../db.js';
import { prep } from './prepared.js';

interface Task {
  id: string;
  kind: string;
  base_uuid: string;
  user_id: string;
  params: string;
  status: 'running' | 'success' | 'failed';
  error: string | null;
  result: Buffer | null;
  created_at: number;
  finished_at: number | null;
}

export function createTask(
  db: Db,
  t: { kind: string; baseUuid: string; userId: string; params: Record<string, unknown>; at: number },
): Task {
  let id = t.at;
  while (prep(db, 'SELECT 1 FROM io_tasks WHERE id = ?').get(String(id))) id++;
  prep(
    db,
    "INSERT INTO io_tasks (id, kind, base_uuid, user_id, params, status, created_at) VALUES (?, ?, ?, ?, ?, 'running', ?)",
  ).run(String(id), t.kind, t.baseUuid, t.userId, JSON.stringify(t.params), t.at);
  return taskById(db, String(id))!;
}

export function finishTask(
  db: Db,
  id: string,
  outcome: { ok: true; result: Buffer } | { ok: false; error: string },
  at: number,
): void {
  if (outcome.ok)
    prep(db, "UPDATE io_tasks SET status = 'success', result = ?, finished_at = ? WHERE id = ?").run(
      outcome.result,
      at,
      id,
    );
  else
    prep(db, "UPDATE io_tasks SET status = 'failed', error = ?, finished_at = ? WHERE id = ?").run(
      outcome.error,
      at,
      id,
    );
}

export const taskById = (db: Db, id: string): Task | undefined =>
  prep(db, 'SELECT * FROM io_tasks WHERE id = ?').get(id) as Task | undefined;

/**
 * Webhook registrations (api-shapes §6). A webhook is disabled (`is_valid = 0`) after 5
 * failed deliveries within 24 hours; a 2xx answer clears its failures (the real service's
 * dtable-events semantics). Re-registering (PUT) enables it again.
 */
import type { Db } from '../db.js';
import { prep } from './prepared.js';

interface Webhook {
  id: number;
  dtable_uuid: string;
  url: string;
  secret: string | null;
  creator: string;
  created_at: string;
  is_valid: number;
  failures: string;
}

const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 24 * 3600 * 1000;

/** Base uuids go out as 32 hex digits without dashes, as the real service writes them. */
export const hexUuid = (uuid: string) => uuid.replace(/-/g, '');

export const webhookById = (db: Db, id: number): Webhook | undefined =>
  prep(db, 'SELECT * FROM webhooks WHERE id = ?').get(id) as Webhook | undefined;
export const webhooksOf = (db: Db, baseUuid: string): Webhook[] =>
  prep(db, 'SELECT * FROM webhooks WHERE dtable_uuid = ? ORDER BY id').all(baseUuid) as Webhook[];
export const validWebhooks = (db: Db): Webhook[] =>
  prep(db, 'SELECT * FROM webhooks WHERE is_valid = 1').all() as Webhook[];

export function createWebhook(
  db: Db,
  w: { baseUuid: string; url: string; secret: string | null; creator: string; createdAt: string },
): Webhook {
  const id = Number(
    prep(db, 'INSERT INTO webhooks (dtable_uuid, url, secret, creator, created_at) VALUES (?, ?, ?, ?, ?)').run(
      w.baseUuid,
      w.url,
      w.secret,
      w.creator,
      w.createdAt,
    ).lastInsertRowid,
  );
  return webhookById(db, id)!;
}

export function updateWebhook(db: Db, id: number, patch: { url?: string; secret?: string | null }): Webhook {
  const cur = webhookById(db, id)!;
  prep(db, "UPDATE webhooks SET url = ?, secret = ?, is_valid = 1, failures = '[]' WHERE id = ?").run(
    patch.url ?? cur.url,
    patch.secret === undefined ? cur.secret : patch.secret,
    id,
  );
  return webhookById(db, id)!;
}

export const deleteWebhook = (db: Db, id: number): boolean =>
  prep(db, 'DELETE FROM webhooks WHERE id = ?').run(id).changes > 0;

/** Record a delivery's outcome; returns true when this failure disabled the webhook. */
export function recordDelivery(db: Db, id: number, ok: boolean, now: number): boolean {
  const cur = webhookById(db, id);
  if (!cur) return false;
  if (ok) {
    if (cur.failures !== '[]') prep(db, "UPDATE webhooks SET failures = '[]' WHERE id = ?").run(id);
    return false;
  }
  const recent = (JSON.parse(cur.failures) as number[]).filter((t) => t > now - FAILURE_WINDOW_MS);
  recent.push(now);
  const disable = recent.length >= MAX_FAILURES && cur.is_valid === 1;
  prep(db, 'UPDATE webhooks SET failures = ?, is_valid = CASE WHEN ? THEN 0 ELSE is_valid END WHERE id = ?').run(
    JSON.stringify(recent),
    disable ? 1 : 0,
    id,
  );
  return disable;
}

export function webhookJson(w: Webhook) {
  return {
    id: w.id,
    dtable_uuid: hexUuid(w.dtable_uuid),
    url: w.url,
    creator: w.creator,
    created_at: w.created_at,
    is_valid: w.is_valid === 1,
    settings: { secret: w.secret ?? '' },
  };
}

/**
 * The file server's one-off links (`/seafhttp/upload-api/{token}`, `/seafhttp/files/{token}/…`):
 * an upload link lets its holder write into one folder of a base's assets, a download link
 * read one file. Valid an hour, as the real service's; kept in SQLite like everything else.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db.js';
import { prep } from './prepared.js';

const LINK_MS = 3600_000;

export type LinkKind = 'upload' | 'download';
/** `path`: the folder an upload link may write into ('' = every folder), or the file a download link serves. */
export interface FileLink {
  token: string;
  base_uuid: string;
  path: string;
  kind: LinkKind;
  expires_at: number;
}

/** A new link; expired ones are dropped on the way. The token has the form the OpenAPI shows (a UUID). */
export function grantLink(db: Db, baseUuid: string, path: string, kind: LinkKind, now: number): string {
  const token = randomUUID();
  prep(db, 'DELETE FROM file_links WHERE expires_at <= ?').run(now);
  prep(db, 'INSERT INTO file_links (token, base_uuid, path, kind, expires_at) VALUES (?, ?, ?, ?, ?)').run(
    token,
    baseUuid,
    path,
    kind,
    now + LINK_MS,
  );
  return token;
}

/** The link of `token` if it is of `kind` and still valid. */
export function grantedLink(db: Db, token: string, kind: LinkKind, now: number): FileLink | undefined {
  const link = prep(db, 'SELECT * FROM file_links WHERE token = ?').get(token) as FileLink | undefined;
  return link && link.kind === kind && link.expires_at > now ? link : undefined;
}

/**
 * A base's assets (images, files, the custom folder), stored as blobs by path. Exported
 * with the base unless `ignore_asset` (ACCT-7); the custom-folder endpoints work under `custom/`.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db.js';
import { isoNow } from '../model.js';
import { prep } from './prepared.js';

interface Asset {
  base_uuid: string;
  path: string;
  uuid: string;
  data: Buffer;
  mtime: string;
}
interface Dirent {
  is_file: boolean;
  obj_name: string;
  file_size: number;
  last_update: string;
  uuid?: string;
}

/** `a/b/c.txt` from a client's path; undefined for paths escaping the root or with empty segments. */
export function cleanPath(raw: string): string | undefined {
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..' || p.includes('\\') || p.includes('\0'))) return undefined;
  return parts.join('/');
}

export function putAsset(db: Db, baseUuid: string, path: string, data: Buffer, at: number): Asset {
  const existing = getAsset(db, baseUuid, path);
  const uuid = existing?.uuid ?? randomUUID();
  prep(
    db,
    'INSERT INTO assets (base_uuid, path, uuid, data, mtime) VALUES (?, ?, ?, ?, ?) ON CONFLICT (base_uuid, path) DO UPDATE SET data = excluded.data, mtime = excluded.mtime',
  ).run(baseUuid, path, uuid, data, isoNow(at));
  return getAsset(db, baseUuid, path)!;
}

export const getAsset = (db: Db, baseUuid: string, path: string): Asset | undefined =>
  prep(db, 'SELECT * FROM assets WHERE base_uuid = ? AND path = ?').get(baseUuid, path) as Asset | undefined;

export const allAssets = (db: Db, baseUuid: string): Asset[] =>
  prep(db, 'SELECT * FROM assets WHERE base_uuid = ? ORDER BY path').all(baseUuid) as Asset[];

/** Files and folders directly under `dir` ('' = root); undefined if nothing is there. */
export function listDir(db: Db, baseUuid: string, dir: string): Dirent[] | undefined {
  const prefix = dir ? `${dir}/` : '';
  const under = prep(
    db,
    'SELECT path, uuid, length(data) AS size, mtime FROM assets WHERE base_uuid = ? AND substr(path, 1, ?) = ? ORDER BY path',
  ).all(baseUuid, prefix.length, prefix) as { path: string; uuid: string; size: number; mtime: string }[];
  if (!under.length) return undefined;
  const out = new Map<string, Dirent>();
  for (const a of under) {
    const rest = a.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0)
      out.set(rest, { is_file: true, obj_name: rest, file_size: a.size, last_update: a.mtime, uuid: a.uuid });
    else if (!out.has(rest.slice(0, slash)))
      out.set(rest.slice(0, slash), {
        is_file: false,
        obj_name: rest.slice(0, slash),
        file_size: 0,
        last_update: a.mtime,
      });
  }
  return [...out.values()];
}

/** Remove one file; false if there was none. */
export const deleteAsset = (db: Db, baseUuid: string, path: string): boolean =>
  prep(db, 'DELETE FROM assets WHERE base_uuid = ? AND path = ?').run(baseUuid, path).changes > 0;

/** `name` in `dir`, or the first of `name (1).ext`, `name (2).ext`… that is free (an upload without `replace`). */
export function freeName(db: Db, baseUuid: string, dir: string, name: string): string {
  const at = (n: string) => (dir ? `${dir}/${n}` : n);
  if (!getAsset(db, baseUuid, at(name))) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let i = 1; ; i++) if (!getAsset(db, baseUuid, at(`${stem} (${i})${ext}`))) return `${stem} (${i})${ext}`;
}

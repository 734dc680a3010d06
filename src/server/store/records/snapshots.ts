/**
 * Base snapshots (snapshot/): the base's structure and every row of both stores, as the
 * base file keeps them (cells under column keys), gzipped JSON under a commit id.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { badRequest } from '../../errors.js';
import { bigTableOf, hasBigStore } from '../big-data/store.js';
import { qid, type Db } from '../db.js';
import type { Base } from '../model.js';

export function createSnapshot(db: Db, base: Base, name: unknown, at: number) {
  if (name !== undefined && name !== null && (typeof name !== 'string' || name.trim() === ''))
    throw badRequest('dtable_name must be a non-empty string');
  const dtableName = `${typeof name === 'string' ? name : base.name}.dtable`;
  const all = (name: string) => base.db.prepare(`SELECT * FROM ${qid(name)} ORDER BY rowid`).all();
  const tables = base.meta.tables.map((table) => {
    const { phys: _phys, ...t } = table;
    return { ...t, rows: all(table.phys), archived_rows: hasBigStore(base.db, table) ? all(bigTableOf(table)) : [] };
  });
  const content = gzipSync(
    JSON.stringify({ version: base.version, format_version: base.meta.format_version, dtable_uuid: base.uuid, tables }),
  );
  const commitId = randomBytes(20).toString('hex');
  db.prepare(
    'INSERT INTO base_snapshots (base_uuid, commit_id, dtable_name, ctime, content) VALUES (?, ?, ?, ?, ?)',
  ).run(base.uuid, commitId, dtableName, at, content);
  return {
    status: 'created',
    snapshot: { dtable_uuid: base.uuid, dtable_name: dtableName, commit_id: commitId, ctime: at },
  };
}

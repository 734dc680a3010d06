/**
 * A base's life through the account API (ACCT-8): created empty, as the seeded ones are;
 * copied whole (its database: structure, rows, links; assets, style) under a new uuid; deleted
 * with everything that names it, so its API tokens and base tokens stop working at once.
 * Each runs in one transaction of the accounts' database; a base it made is removed again if
 * that fails, and a deleted base's own database goes once the transaction committed.
 */
import { randomUUID } from 'node:crypto';
import { qid, type Db } from '../db.js';
import type { Base } from '../model.js';
import { saveMeta } from '../schema.js';
import type { Store } from '../store.js';

interface BaseStyle {
  icon: string | null;
  color: string | null;
  text_color: string | null;
}

/** Run `make` in a transaction; a base it registered in memory is forgotten again if the transaction fails. */
function made(store: Store, make: (track: (b: Base) => Base) => Base): Base {
  let base: Base | undefined;
  try {
    return store.db.transaction(() => make((b) => (base = b)))();
  } catch (e) {
    if (base) store.forgetBase(base.uuid);
    throw e;
  }
}

function saveStyle(db: Db, uuid: string, style: BaseStyle): void {
  db.prepare('INSERT INTO base_styles (base_uuid, icon, color, text_color) VALUES (?, ?, ?, ?)').run(
    uuid,
    style.icon,
    style.color,
    style.text_color,
  );
}

function styleOf(db: Db, uuid: string): BaseStyle {
  return (
    (db.prepare('SELECT icon, color, text_color FROM base_styles WHERE base_uuid = ?').get(uuid) as
      BaseStyle | undefined) ?? { icon: null, color: null, text_color: null }
  );
}

export function createBase(store: Store, workspaceId: number, name: string, creator: string, style: BaseStyle): Base {
  return made(store, (track) => {
    const base = track(store.createBase(workspaceId, name, creator));
    saveStyle(store.db, base.uuid, style);
    return base;
  });
}

/** `src` copied into workspace `workspaceId` as `name`: its database whole (tables, rows, links), assets and style; no tokens, apps or webhooks. */
export function copyBase(
  store: Store,
  src: Base,
  workspaceId: number,
  name: string,
  creator: string,
  withTables = true,
): Base {
  const db = store.db;
  return made(store, (track) => {
    const copy = track(store.createBase(workspaceId, name, creator, src));
    if (!withTables) copy.meta.tables = []; // mutant copy-base-without-tables
    saveMeta(db, copy);
    const assets = db.prepare('SELECT path, data, mtime FROM assets WHERE base_uuid = ?').all(src.uuid) as {
      path: string;
      data: Buffer;
      mtime: string;
    }[];
    const put = db.prepare('INSERT INTO assets (base_uuid, path, uuid, data, mtime) VALUES (?, ?, ?, ?, ?)');
    for (const a of assets) put.run(copy.uuid, a.path, randomUUID(), a.data, a.mtime);
    saveStyle(db, copy.uuid, styleOf(db, src.uuid));
    return copy;
  });
}

const tableExists = (db: Db, name: string) => !!db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name);

/** Tables other than `bases` with a row per base (tokens, assets, links, webhooks, apps, logs of tasks…), found by column name. */
function tablesNaming(db: Db): { table: string; column: string }[] {
  return db
    .prepare(
      `SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m JOIN pragma_table_info(m.name) p
      WHERE m.type = 'table' AND m.name <> 'bases' AND p.name IN ('base_uuid', 'dtable_uuid')`,
    )
    .all() as { table: string; column: string }[];
}

/** Delete the base and everything that names it; its database is closed and removed, its base tokens leave memory. */
export function deleteBase(store: Store, base: Base): void {
  const db = store.db;
  db.transaction(() => {
    if (tableExists(db, 'apps')) {
      const apps = `SELECT id FROM apps WHERE dtable_uuid = ?`;
      for (const child of ['app_roles', 'app_users', 'app_invite_links'])
        if (tableExists(db, child)) db.prepare(`DELETE FROM ${qid(child)} WHERE app_id IN (${apps})`).run(base.uuid);
    }
    for (const { table, column } of tablesNaming(db))
      db.prepare(`DELETE FROM ${qid(table)} WHERE ${qid(column)} = ?`).run(base.uuid);
    db.prepare('DELETE FROM bases WHERE uuid = ?').run(base.uuid);
  })();
  store.forgetBase(base.uuid);
}

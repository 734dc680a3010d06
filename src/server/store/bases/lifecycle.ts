/**
 * A base's life through the account API (ACCT-8): created empty, as the seeded ones are;
 * copied whole (structure, rows, links, assets, style) under a new uuid; deleted with
 * everything that names it, so its API tokens and base tokens stop working at once.
 * Each runs in one transaction; the in-memory structure follows only once SQLite committed.
 */
import { randomUUID } from 'node:crypto';
import { qid, type Db } from '../db.js';
import type { Base, BaseMeta } from '../model.js';
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

/** A physical table cloned with its schema objects (the _mtime trigger) and rows. */
function clonePhys(db: Db, from: string, to: string): void {
  const objects = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type = 'table' DESC")
    .all(from) as { name: string; sql: string }[];
  if (!objects.length) throw new Error(`physical table ${from} is missing`);
  for (const o of objects)
    db.exec(o.sql.replaceAll(qid(o.name), qid(o.name.replace(from, to))).replaceAll(qid(from), qid(to)));
  db.exec(`INSERT INTO ${qid(to)} SELECT * FROM ${qid(from)}`);
}

const physTaken = (db: Db, name: string) => !!db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name);

/** `src` copied into workspace `workspaceId` as `name`: tables, rows, links, assets and style; no tokens, apps or webhooks. */
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
    const copy = track(store.createBase(workspaceId, name, creator));
    const meta = structuredClone(src.meta) as BaseMeta;
    if (!withTables) meta.tables = []; // mutant copy-base-without-tables
    const suffix = copy.uuid.replace(/-/g, '').slice(0, 8);
    let n = 1;
    for (const t of meta.tables) {
      let phys: string;
      do phys = `rows_${n++}_${suffix}`;
      while (physTaken(db, phys));
      clonePhys(db, t.phys, phys);
      t.phys = phys;
    }
    meta.nextPhys = n;
    copy.meta = meta;
    saveMeta(db, copy);
    if (withTables)
      db.prepare(
        'INSERT INTO links (base_uuid, link_id, row_id, other_row_id, ctime) SELECT ?, link_id, row_id, other_row_id, ctime FROM links WHERE base_uuid = ?',
      ).run(copy.uuid, src.uuid);
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

/** Tables other than `bases` with a row per base (tokens, assets, links, webhooks, apps, logs of tasks…), found by column name. */
function tablesNaming(db: Db): { table: string; column: string }[] {
  return db
    .prepare(
      `SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m JOIN pragma_table_info(m.name) p
      WHERE m.type = 'table' AND m.name <> 'bases' AND p.name IN ('base_uuid', 'dtable_uuid')`,
    )
    .all() as { table: string; column: string }[];
}

/** Delete the base and everything that names it; its base tokens leave memory too. */
export function deleteBase(store: Store, base: Base): void {
  const db = store.db;
  db.transaction(() => {
    for (const t of base.meta.tables) db.exec(`DROP TABLE IF EXISTS ${qid(t.phys)}`);
    if (physTaken(db, 'apps')) {
      const apps = `SELECT id FROM apps WHERE dtable_uuid = ?`;
      for (const child of ['app_roles', 'app_users', 'app_invite_links'])
        if (physTaken(db, child)) db.prepare(`DELETE FROM ${qid(child)} WHERE app_id IN (${apps})`).run(base.uuid);
    }
    for (const { table, column } of tablesNaming(db))
      db.prepare(`DELETE FROM ${qid(table)} WHERE ${qid(column)} = ?`).run(base.uuid);
    db.prepare('DELETE FROM bases WHERE uuid = ?').run(base.uuid);
  })();
  store.forgetBase(base.uuid);
}

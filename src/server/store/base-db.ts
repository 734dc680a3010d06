/**
 * Each base's own SQLite database: its tables' rows (`rows_<n>`, big data's `big_<n>`), its
 * links and its structure. Client SQL (sql.ts) runs on this connection, so it can reach that
 * base and nothing else: accounts, tokens and other bases live in other databases (db.ts).
 * In memory by default; with `--data FILE`, one file per base in the folder `FILE.bases/`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyDatabase, Db } from './sqlite.js';
import type { BaseMeta } from './model.js';

const BASE_SCHEMA = `
CREATE TABLE IF NOT EXISTS base_meta (id INTEGER PRIMARY KEY CHECK (id = 1), meta TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS links (
  link_id TEXT NOT NULL, row_id TEXT NOT NULL, other_row_id TEXT NOT NULL, ctime INTEGER NOT NULL,
  PRIMARY KEY (link_id, row_id, other_row_id));
CREATE INDEX IF NOT EXISTS links_other ON links (link_id, other_row_id);`;

/** Where the bases' databases of a data file live (none in memory). */
export class BaseFiles {
  constructor(private readonly dataFile?: string) {}

  private path(uuid: string): string | undefined {
    if (!this.dataFile) return undefined;
    const dir = `${this.dataFile}.bases`;
    mkdirSync(dir, { recursive: true });
    return join(dir, `${uuid}.sqlite`);
  }

  /** The base's database, opened (created if new); `copyOf` starts it as a copy of another base's. */
  open(uuid: string, copyOf?: Db): Db {
    const file = this.path(uuid);
    const db = new Db(file);
    if (file) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    if (copyOf) copyDatabase(copyOf, db);
    db.exec(BASE_SCHEMA);
    return db;
  }

  /** Close the base's database and remove its files: the base is gone. */
  remove(uuid: string, db: Db): void {
    if (db.open) db.close();
    const file = this.path(uuid);
    if (file) for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
}

/**
 * Run `fn` in a transaction of each database, the base's inside the accounts': a write that
 * touches both (big data's operation log beside the rows it names) is kept or undone in both.
 */
export function inBoth<T>(accounts: Db, base: { db: Db }, fn: () => T): T {
  return accounts.transaction(() => base.db.transaction(fn)())();
}

export function readMeta(db: Db): BaseMeta | undefined {
  const r = db.prepare('SELECT meta FROM base_meta WHERE id = 1').get() as { meta: string } | undefined;
  return r && (JSON.parse(r.meta) as BaseMeta);
}

export function writeMeta(db: Db, meta: BaseMeta): void {
  db.prepare('INSERT INTO base_meta (id, meta) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET meta = excluded.meta').run(
    JSON.stringify(meta),
  );
}

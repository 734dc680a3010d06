/**
 * The big-data store (BASE-6): archived rows live in a physical table of their own per base
 * table (`big_<n>_<base>`, beside the normal `rows_<n>_<base>`), made when a table first
 * archives. It has every column the normal table has (kept in step lazily: columns added
 * later are added here when next used) and the same cell encoding, so rows move between
 * the two stores by plain INSERT … SELECT.
 *
 * Who sees what (the real service's split between dtable-server and dtable-db):
 * - the row list, get row, update and delete rows, and lock-rows read the normal rows only;
 * - SQL SELECT reads both stores (the table's name stands for their union; `_archived` tells
 *   them apart), SQL UPDATE and DELETE change rows in both, SQL INSERT writes normal rows;
 * - link cells and query-links show linked rows of either store.
 */
import { cachedStatement, qid, type Db } from '../db.js';
import type { TableMeta } from '../model.js';

export const bigTableOf = (table: TableMeta) => table.phys.replace(/^rows_/, 'big_');

/** Columns only normal rows carry a meaning for: a row moved either way gets their defaults. */
const NORMAL_ONLY = new Set(['_archived', '_locked', '_locked_by']);

const ids = (list: readonly string[]) => JSON.stringify(list);
const IN_IDS = '_id IN (SELECT value FROM json_each(?))';

export function hasBigStore(db: Db, table: TableMeta): boolean {
  return !!cachedStatement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(bigTableOf(table));
}

function columnsOf(db: Db, name: string): string[] {
  return (db.prepare(`PRAGMA table_info(${qid(name)})`).all() as { name: string }[]).map((c) => c.name);
}

/** The table's big-data store, made if missing, with every column of the normal table. */
export function ensureBigStore(db: Db, table: TableMeta): string {
  const big = bigTableOf(table);
  if (!hasBigStore(db, table)) {
    db.exec(`CREATE TABLE ${qid(big)} (
      _id TEXT PRIMARY KEY NOT NULL, _ctime TEXT NOT NULL, _mtime TEXT NOT NULL, _creator TEXT, _last_modifier TEXT,
      _archived INTEGER NOT NULL DEFAULT 1, _locked INTEGER, _locked_by TEXT)`);
    // As on the normal table: SQL updates keep _mtime current.
    db.exec(`CREATE TRIGGER ${qid(big + '_mtime')} AFTER UPDATE ON ${qid(big)} FOR EACH ROW WHEN NEW._mtime = OLD._mtime
      BEGIN UPDATE ${qid(big)} SET _mtime = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now') WHERE rowid = NEW.rowid; END`);
  }
  const have = new Set(columnsOf(db, big));
  for (const c of columnsOf(db, table.phys)) if (!have.has(c)) db.exec(`ALTER TABLE ${qid(big)} ADD COLUMN ${qid(c)}`);
  return big;
}

/**
 * What SQL SELECT reads for `table`: the union of both stores when the table has archived
 * rows, else undefined (the normal table alone, as before anything was archived).
 */
export function bothStores(db: Db, table: TableMeta): string | undefined {
  if (!hasBigStore(db, table)) return undefined;
  const big = ensureBigStore(db, table);
  const cols = columnsOf(db, table.phys).map(qid).join(', ');
  return `(SELECT ${cols} FROM ${qid(table.phys)} UNION ALL SELECT ${cols} FROM ${qid(big)})`;
}

/** Where rows of `table` are read from when either store will do (linked rows, comments). */
export const anyStore = (db: Db, table: TableMeta) => bothStores(db, table) ?? qid(table.phys);

/** Which of `list` are rows of the normal store (`big`: of the big-data store). */
export function rowsIn(db: Db, table: TableMeta, list: readonly string[], big = false): Set<string> {
  if (big && !hasBigStore(db, table)) return new Set();
  const name = big ? bigTableOf(table) : table.phys;
  const found = db
    .prepare(`SELECT _id FROM ${qid(name)} WHERE ${IN_IDS}`)
    .pluck()
    .all(ids(list)) as string[];
  return new Set(found);
}

/** Move rows between the stores; the caller runs it in a transaction. Returns how many moved. */
export function moveRows(db: Db, table: TableMeta, list: readonly string[], to: 'big' | 'normal'): number {
  if (list.length === 0) return 0;
  const big = ensureBigStore(db, table);
  const cols = columnsOf(db, table.phys)
    .filter((c) => !NORMAL_ONLY.has(c))
    .map(qid)
    .join(', ');
  const [from, into] = to === 'big' ? [table.phys, big] : [big, table.phys];
  db.prepare(`INSERT INTO ${qid(into)} (${cols}) SELECT ${cols} FROM ${qid(from)} WHERE ${IN_IDS}`).run(ids(list));
  return db.prepare(`DELETE FROM ${qid(from)} WHERE ${IN_IDS}`).run(ids(list)).changes;
}

export function countBigRows(db: Db, table: TableMeta): number {
  return hasBigStore(db, table)
    ? (db
        .prepare(`SELECT count(*) FROM ${qid(bigTableOf(table))}`)
        .pluck()
        .get() as number)
    : 0;
}

export function dropBigStore(db: Db, table: TableMeta): void {
  db.exec(`DROP TABLE IF EXISTS ${qid(bigTableOf(table))}`);
}

/**
 * The embedded SQLite database: in memory by default, in a file with `--data`.
 * Accounts, teams, tokens and the list of bases live here; each base's rows, links and
 * structure live in a database of the base's own (base-db.ts), so a base's SQL reaches none of this.
 */
import { Db, type Statement } from './sqlite.js';
import { BASES_SCHEMA } from './bases/schema.js';
import { RECORDS_SCHEMA } from './records/schema.js';

export type { Db };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS orgs (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL DEFAULT 'org_default',
  max_user_number INTEGER, row_limit INTEGER, asset_quota_mb INTEGER,
  monthly_automation_limit_per_user INTEGER, logo BLOB, logo_type TEXT, logo_path TEXT,
  ctime TEXT NOT NULL, url_prefix TEXT);
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL, contact_email TEXT,
  password_hash TEXT NOT NULL, is_staff INTEGER NOT NULL DEFAULT 0, is_active INTEGER NOT NULL DEFAULT 1,
  org_id INTEGER REFERENCES orgs(id), is_org_admin INTEGER NOT NULL DEFAULT 0, id_in_org TEXT,
  quota_total INTEGER, row_limit INTEGER, asset_quota_mb INTEGER, role TEXT,
  monthly_automation_limit_per_user INTEGER, ctime TEXT NOT NULL, last_login TEXT);
CREATE TABLE IF NOT EXISTS account_tokens (token TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id));
CREATE TABLE IF NOT EXISTS groups_ (id INTEGER PRIMARY KEY, name TEXT NOT NULL, org_id INTEGER, owner TEXT);
CREATE TABLE IF NOT EXISTS group_members (group_id INTEGER NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (group_id, user_id));
CREATE TABLE IF NOT EXISTS workspaces (id INTEGER PRIMARY KEY, org_id INTEGER, owner TEXT NOT NULL, group_id INTEGER, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bases (
  uuid TEXT PRIMARY KEY, workspace_id INTEGER NOT NULL REFERENCES workspaces(id), name TEXT NOT NULL,
  creator TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name));
CREATE TABLE IF NOT EXISTS api_tokens (
  token TEXT PRIMARY KEY, base_uuid TEXT NOT NULL, app_name TEXT NOT NULL, permission TEXT NOT NULL,
  generated_by TEXT, generated_at TEXT NOT NULL, last_access TEXT, UNIQUE (base_uuid, app_name));
CREATE TABLE IF NOT EXISTS base_tokens (
  token TEXT PRIMARY KEY, base_uuid TEXT NOT NULL, permission TEXT NOT NULL, app_name TEXT, username TEXT, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS external_links (token TEXT PRIMARY KEY, base_uuid TEXT NOT NULL, permission TEXT NOT NULL DEFAULT 'r');
${BASES_SCHEMA}
${RECORDS_SCHEMA}`;

export function openDb(file?: string): Db {
  const db = new Db(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  return db;
}

export { qid } from './sqlite.js';

const statements = new WeakMap<Db, Map<string, Statement>>();
const MAX_STATEMENTS = 512;

/**
 * A prepared statement for `sql`, prepared once per database: the row paths prepare the same
 * few statements on every call. SQLite re-prepares a statement itself after a schema change.
 * `raw` statements answer rows as arrays (cached apart: the mode belongs to the statement).
 */
export function cachedStatement(db: Db, sql: string, raw = false): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  const key = raw ? `raw:${sql}` : sql;
  let stmt = cache.get(key);
  if (!stmt) {
    stmt = db.prepare(sql);
    if (raw) stmt.raw(true);
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    cache.set(key, stmt);
  }
  return stmt;
}

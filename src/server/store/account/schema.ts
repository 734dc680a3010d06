/**
 * Tables of the account family (§4.2, §4.3), kept beside the core schema of db.ts in the
 * same database. `CREATE … IF NOT EXISTS`, so a database made before these existed gains them.
 */
import type { Db } from '../db.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS user_profiles (user_id TEXT PRIMARY KEY, login_id TEXT, unit TEXT, institution TEXT);
CREATE TABLE IF NOT EXISTS api_call_counts (org_id INTEGER NOT NULL, month TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (org_id, month));
CREATE TABLE IF NOT EXISTS admin_logs (
  id INTEGER PRIMARY KEY, org_id INTEGER NOT NULL, email TEXT NOT NULL, name TEXT NOT NULL,
  operation TEXT NOT NULL, operation_group TEXT NOT NULL, detail TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS admin_logs_org ON admin_logs (org_id, at);
CREATE TABLE IF NOT EXISTS login_logs (
  id INTEGER PRIMARY KEY, org_id INTEGER, user_id TEXT NOT NULL, login_ip TEXT NOT NULL,
  login_success INTEGER NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS login_logs_org ON login_logs (org_id, at);
CREATE TABLE IF NOT EXISTS apps (
  id INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE, dtable_uuid TEXT NOT NULL, app_name TEXT NOT NULL,
  app_type TEXT NOT NULL DEFAULT 'universal-app', app_config TEXT NOT NULL, creator TEXT NOT NULL,
  created_at TEXT NOT NULL, visit_times INTEGER NOT NULL DEFAULT 0, can_anonymous_access INTEGER NOT NULL DEFAULT 0,
  inactive INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS app_roles (id INTEGER PRIMARY KEY, app_id INTEGER NOT NULL, name TEXT NOT NULL, permission TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS app_users (
  id INTEGER PRIMARY KEY, app_id INTEGER NOT NULL, user_id TEXT NOT NULL, role_id INTEGER NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1, created_at TEXT NOT NULL, UNIQUE (app_id, user_id));
CREATE TABLE IF NOT EXISTS app_invite_links (
  id INTEGER PRIMARY KEY, app_id INTEGER NOT NULL, token TEXT NOT NULL UNIQUE, username TEXT NOT NULL,
  role_id INTEGER NOT NULL, expire_date TEXT, ctime TEXT NOT NULL, is_protected INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS plugins (id INTEGER PRIMARY KEY, plugin_name TEXT NOT NULL UNIQUE, count INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS assets (
  base_uuid TEXT NOT NULL, path TEXT NOT NULL, uuid TEXT NOT NULL, data BLOB NOT NULL, mtime TEXT NOT NULL,
  PRIMARY KEY (base_uuid, path));
CREATE TABLE IF NOT EXISTS io_tasks (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, base_uuid TEXT NOT NULL, user_id TEXT NOT NULL, params TEXT NOT NULL,
  status TEXT NOT NULL, error TEXT, result BLOB, created_at INTEGER NOT NULL, finished_at INTEGER);
CREATE TABLE IF NOT EXISTS webhooks (
  id INTEGER PRIMARY KEY, dtable_uuid TEXT NOT NULL, url TEXT NOT NULL, secret TEXT, creator TEXT NOT NULL,
  created_at TEXT NOT NULL, is_valid INTEGER NOT NULL DEFAULT 1, failures TEXT NOT NULL DEFAULT '[]');
`;

export function ensureAccountSchema(db: Db): void {
  db.exec(SCHEMA);
}

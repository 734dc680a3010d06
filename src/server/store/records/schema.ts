/**
 * Tables of the base records (row comments, notifications, the activity log, snapshots,
 * background tasks) and of the big-data store's operation log. The big-data rows themselves
 * live in one physical table per base table (big-data/store.ts), made when first needed.
 * `CREATE … IF NOT EXISTS`, so a database made before these existed gains them.
 */
export const RECORDS_SCHEMA = `
CREATE TABLE IF NOT EXISTS row_comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT, base_uuid TEXT NOT NULL, table_id TEXT NOT NULL, row_id TEXT NOT NULL,
  author TEXT NOT NULL, comment TEXT NOT NULL, resolved INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS row_comments_row ON row_comments (base_uuid, row_id);
CREATE TABLE IF NOT EXISTS base_notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT, base_uuid TEXT NOT NULL, username TEXT NOT NULL, msg_type TEXT NOT NULL,
  detail TEXT NOT NULL, seen INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS base_notifications_base ON base_notifications (base_uuid, username);
CREATE TABLE IF NOT EXISTS base_activities (
  id INTEGER PRIMARY KEY AUTOINCREMENT, base_uuid TEXT NOT NULL, first_op INTEGER NOT NULL, count INTEGER NOT NULL, changes TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS base_activities_base ON base_activities (base_uuid, id);
CREATE TABLE IF NOT EXISTS base_snapshots (
  id INTEGER PRIMARY KEY, base_uuid TEXT NOT NULL, commit_id TEXT NOT NULL UNIQUE, dtable_name TEXT NOT NULL,
  ctime INTEGER NOT NULL, content BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS base_tasks (
  id TEXT PRIMARY KEY, base_uuid TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL, detail TEXT, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS big_data_ops (
  id INTEGER PRIMARY KEY AUTOINCREMENT, base_uuid TEXT NOT NULL, table_id TEXT NOT NULL, row_id TEXT NOT NULL,
  op_type TEXT NOT NULL, author TEXT NOT NULL, op_time INTEGER NOT NULL, operation TEXT NOT NULL, restored INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS big_data_ops_base ON big_data_ops (base_uuid, id);
`;

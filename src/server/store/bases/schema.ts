/**
 * Tables of the base life cycle and of the file server's links (AUTH-5, ACCT-8, ACCT-9), part
 * of db.ts's schema: how a base shows in listings (icon and colours), temporary API tokens,
 * and the one-off upload and download links (kept, so a link outlives a restart on `--data`).
 */
export const BASES_SCHEMA = `
CREATE TABLE IF NOT EXISTS base_styles (base_uuid TEXT PRIMARY KEY, icon TEXT, color TEXT, text_color TEXT);
CREATE TABLE IF NOT EXISTS temp_api_tokens (
  token TEXT PRIMARY KEY, base_uuid TEXT NOT NULL, user_id TEXT NOT NULL, created_at TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS temp_api_tokens_base ON temp_api_tokens (base_uuid);
CREATE TABLE IF NOT EXISTS file_links (
  token TEXT PRIMARY KEY, base_uuid TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, expires_at INTEGER NOT NULL);
`;

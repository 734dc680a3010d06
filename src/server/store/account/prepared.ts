/**
 * Prepared statements, compiled once per database and SQL text: SQLite compiles on
 * every `prepare`, which would dominate cheap account calls (the rate suites burst them).
 */
import type { Statement } from '../sqlite.js';
import type { Db } from '../db.js';

const cache = new WeakMap<Db, Map<string, Statement>>();

export function prep(db: Db, sql: string): Statement {
  let m = cache.get(db);
  if (!m) {
    m = new Map();
    cache.set(db, m);
  }
  let s = m.get(sql);
  if (!s) {
    s = db.prepare(sql);
    m.set(sql, s);
  }
  return s;
}

/** The secrets a reference server started with a data file holds, read from its database. */
import { existsSync } from 'node:fs';
import { Db } from '../../src/server/store/sqlite.js';
import type { Served } from './cli.js';

/** Every credential the server holds: its seed (passwords, tokens) and every token column of its tables. */
export function serverSecrets(s: Served): string[] {
  if (!existsSync(s.dataFile)) throw new Error(`no data file: ${s.dataFile}`);
  const db = new Db(s.dataFile);
  try {
    db.pragma('query_only = ON'); // read, never write, the server's file
    const found = new Set<string>();
    const seed = db.prepare("SELECT value FROM settings WHERE key = 'seed'").get() as { value: string } | undefined;
    const walk = (v: unknown, key = ''): void => {
      if (typeof v === 'string' && /password|token|external_link|secret/i.test(key)) found.add(v);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, Array.isArray(v) ? key : k);
    };
    walk(seed ? JSON.parse(seed.value) : {});
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      const cols = (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((c) => /(^|_)(token|secret)$/i.test(c));
      for (const c of cols)
        for (const row of db.prepare(`SELECT "${c}" AS v FROM "${name}"`).all() as { v: unknown }[])
          if (typeof row.v === 'string') found.add(row.v);
    }
    return [...found].filter((x) => x.length >= 8);
  } finally {
    db.close();
  }
}

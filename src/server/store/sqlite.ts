/**
 * The SQLite driver, libsql (prebuilt binaries from npm: nothing is compiled at install), behind
 * the calls the store makes, with better-sqlite3's semantics where libsql's differ:
 * - parameters are checked before they reach native code, where a boolean, an object or a lone
 *   Buffer or null aborts the whole process or is taken for named parameters;
 * - `pluck()` holds for `get` and `iterate` too, and `get` adds no `_metadata` to the row;
 * - a BLOB is a Buffer from `all` and `iterate` too (libsql answers a bare ArrayBuffer there);
 * - a string holding NUL is bound as its UTF-8 bytes, a BLOB: libsql reads TEXT only up to the
 *   first NUL (the store's decoders read such a BLOB back as the string, values.ts `textOf`);
 * - a transaction inside a transaction is a savepoint, and a failed one is rolled back only
 *   while SQLite has not already done so (else the ROLLBACK's error would hide the cause);
 * - a database can start as a copy of another (`copyDatabase`; libsql has no serialize()).
 */
import Libsql from 'libsql';

type NativeDb = Libsql.Database;
type NativeStatement = Libsql.Statement;

interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

const BIND_ERROR = 'SQLite3 can only bind numbers, strings, bigints, buffers, and null';

/** The value as libsql binds it intact. */
function bindValue(v: unknown): unknown {
  const t = typeof v;
  if (t === 'string') return (v as string).includes('\0') ? Buffer.from(v as string) : v;
  if (t === 'number' || t === 'bigint' || v === null || v === undefined || v instanceof Uint8Array) return v;
  throw new TypeError(BIND_ERROR);
}

const isNamed = (p: unknown): p is Record<string, unknown> =>
  typeof p === 'object' && p !== null && [Object.prototype, null].includes(Object.getPrototypeOf(p) as object | null);

/** One argument libsql takes as it is meant: an array of positional values, or an object of named ones. */
function bindable(params: unknown[]): unknown[] | Record<string, unknown> {
  if (params.length === 1 && isNamed(params[0])) {
    const named: Record<string, unknown> = {};
    for (const k in params[0]) named[k] = bindValue(params[0][k]);
    return named;
  }
  return (params.some(Array.isArray) ? params.flat() : params).map(bindValue);
}

/** The row with its BLOBs as Buffers. */
function withBuffers<T>(row: T): T {
  if (Array.isArray(row)) {
    for (let i = 0; i < row.length; i++) if (row[i] instanceof ArrayBuffer) row[i] = Buffer.from(row[i] as ArrayBuffer);
  } else {
    const o = row as Record<string, unknown>;
    for (const k in o) if (o[k] instanceof ArrayBuffer) o[k] = Buffer.from(o[k]);
  }
  return row;
}

export class Statement {
  private rawMode = false;
  private plucked = false;

  constructor(private readonly native: NativeStatement) {}

  /** True when the statement answers rows (a SELECT, or a write with RETURNING). */
  get reader(): boolean {
    return this.native.reader;
  }

  /** Rows as arrays of values in column order. */
  raw(on = true): this {
    this.rawMode = on;
    this.native.raw(on || this.plucked);
    return this;
  }

  /** Rows as their first column's value (read as arrays below). */
  pluck(on = true): this {
    this.plucked = on;
    this.native.raw(on || this.rawMode);
    return this;
  }

  columns(): { name: string }[] {
    return this.native.columns();
  }

  run(...params: unknown[]): RunResult {
    return this.native.run(bindable(params));
  }

  get(...params: unknown[]): unknown {
    const row = this.native.get(bindable(params)) as unknown;
    if (row === undefined || row === null) return undefined;
    if (this.plucked) return (row as unknown[])[0];
    if (!this.rawMode) delete (row as { _metadata?: unknown })._metadata;
    return row;
  }

  all(...params: unknown[]): unknown[] {
    const rows = this.native.all(bindable(params));
    for (const r of rows) withBuffers(r);
    return this.plucked ? rows.map((r) => (r as unknown[])[0]) : rows;
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    const rows = this.native.iterate(bindable(params));
    const plucked = this.plucked;
    return (function* () {
      for (const r of rows) yield plucked ? withBuffers(r as unknown[])[0] : withBuffers(r);
    })();
  }
}

export class Db {
  private readonly native: NativeDb;

  /** A database in `file` (created if new), or in memory. */
  constructor(file?: string) {
    this.native = new Libsql(file ?? ':memory:');
  }

  get open(): boolean {
    return this.native.open;
  }

  prepare(sql: string): Statement {
    return new Statement(this.native.prepare(sql));
  }

  exec(sql: string): void {
    this.native.exec(sql);
  }

  /** Run `PRAGMA source`; its rows. */
  pragma(source: string): unknown[] {
    return this.native.prepare(`PRAGMA ${source}`).all();
  }

  close(): void {
    this.native.close();
  }

  /** `fn` in a transaction: committed when it returns, rolled back when it throws; nested ones are savepoints. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const nested = this.native.inTransaction;
      this.exec(nested ? 'SAVEPOINT nested' : 'BEGIN');
      try {
        const result = fn(...args);
        this.exec(nested ? 'RELEASE nested' : 'COMMIT');
        return result;
      } catch (e) {
        if (this.native.inTransaction) this.exec(nested ? 'ROLLBACK TO nested; RELEASE nested' : 'ROLLBACK');
        throw e;
      }
    };
  }
}

/** Quote an identifier for SQLite. Physical names are ours, but quote anyway. */
export const qid = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Copy `from`'s tables (rows with their rowids), then its indexes, triggers and views, into the
 * empty database `to`; a trigger made after the rows fires on none of them. Both stay apart:
 * nothing is attached, so neither connection can reach the other's database afterwards.
 */
export function copyDatabase(from: Db, to: Db): void {
  const schema = from
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
    )
    .all() as { type: string; name: string; sql: string }[];
  to.transaction(() => {
    for (const s of schema.filter((x) => x.type === 'table')) {
      to.exec(s.sql);
      const withRowid = !/\bWITHOUT\s+ROWID\s*$/i.test(s.sql);
      const cols = (from.prepare(`PRAGMA table_xinfo(${qid(s.name)})`).all() as { name: string; hidden: number }[])
        .filter((c) => c.hidden === 0)
        .map((c) => qid(c.name));
      if (withRowid) cols.unshift('rowid');
      const insert = to.prepare(
        `INSERT INTO ${qid(s.name)} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      );
      const read = from.prepare(`SELECT ${cols.join(', ')} FROM ${qid(s.name)}`).raw();
      for (const row of read.iterate()) insert.run(row);
    }
    // AUTOINCREMENT's counters: the copied inserts set them to the copy's largest ids, the source's may be higher.
    if (from.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get()) {
      to.exec('DELETE FROM sqlite_sequence');
      const setSequence = to.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)');
      for (const row of from.prepare('SELECT name, seq FROM sqlite_sequence').raw().iterate()) setSequence.run(row);
    }
    for (const s of schema.filter((x) => x.type !== 'table')) to.exec(s.sql);
  })();
}

/**
 * Client SQL runs on the base's own database (base-db.ts): accounts, tokens, the list of
 * bases and other bases' rows are not in it, so no statement can reach them, whatever the
 * translator lets through. A unit test: a store in memory, no server.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { behaviourAt, NEWEST_VERSION } from '../../spec/index.js';
import { HttpError } from '../errors.js';
import { inBoth } from './base-db.js';
import { deleteBase } from './bases/lifecycle.js';
import { NO_EVENTS } from './events.js';
import type { Base } from './model.js';
import type { RowsContext } from './rows.js';
import { createTable } from './schema.js';
import { seed, type SeedCredentials } from './seed.js';
import { runSql } from './sql.js';
import { Store } from './store.js';

let store: Store;
let ctx: RowsContext;
let mine: Base;
let theirs: Base;
let admin: SeedCredentials['admin'];
test.beforeAll(() => {
  store = new Store();
  ctx = { db: store.db, behaviour: behaviourAt(NEWEST_VERSION), faults: new Set(), events: NO_EVENTS };
  const creds = seed(store);
  admin = creds.admin;
  [mine, theirs] = creds.bases.map((b) => store.base(b.uuid)!) as [Base, Base];
  createTable(ctx, mine, 'T', [{ column_name: 'Name', column_type: 'text' }]);
  createTable(ctx, theirs, 'Secret', [{ column_name: 'Name', column_type: 'text' }]);
  runSql(ctx, mine, { sql: "INSERT INTO T (Name) VALUES ('a')" });
});
test.afterAll(() => store?.close());

/** The 400 a statement answers, or its rows if it ran. */
function answer(sql: string, parameters: unknown[] = []): string | unknown[] {
  try {
    return runSql(ctx, mine, { sql, parameters }).results;
  } catch (e) {
    if (e instanceof HttpError && e.status === 400) return e.message;
    throw e;
  }
}

test("a base's SQL finds no table of the accounts' database nor another base's rows", () => {
  // Each passes the translator (a name it does not know is left to SQLite) and reads the named
  // table where the connection has one: `x IN t`, `(x, y) IN t` compare with its rows.
  for (const name of ['users', 'account_tokens', 'api_tokens', 'base_tokens', 'bases', 'settings']) {
    expect(answer(`SELECT * FROM T WHERE Name IN \`${name}\``), name).toBe(`no such table: ${name}`);
    expect(answer(`SELECT * FROM T WHERE (Name, Name) IN \`${name}\``), name).toBe(`no such table: ${name}`);
  }
  // On a connection that held them, this would list T's rows: the admin's token is there.
  expect(answer('SELECT * FROM T WHERE (?, ?) IN account_tokens', [admin.token, admin.id])).toBe(
    'no such table: account_tokens',
  );
  // Another base's physical table (a physical name reads as the base's table in an error
  // message: sqlErrorMessage); where it is reachable, SQLite finds it and counts its columns.
  const other = theirs.meta.tables[0]!.phys;
  expect(answer(`SELECT * FROM T WHERE Name IN \`${other}\``)).toBe('no such table: T');
});

test("the base's database lists its own tables only, and SQL cannot attach another", () => {
  const names = mine.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  expect(names).toContain(mine.meta.tables[0]!.phys);
  expect(names.filter((n) => !/^(rows|big)_\d+_[0-9a-f]+$/.test(n)).sort()).toEqual(['base_meta', 'links']);
  expect(mine.db.prepare('PRAGMA database_list').all()).toEqual([{ seq: 0, name: 'main', file: '' }]);
  expect(answer("ATTACH DATABASE ':memory:' AS x")).toMatch(/not supported/);
  // What the list answers is the base's own row, read through its own connection.
  expect((answer('SELECT Name FROM T') as { [k: string]: unknown }[]).map((r) => Object.values(r))).toEqual([['a']]);
});

test('a deleted base closes and drops its database', () => {
  const gone = store.createBase(1, 'Gone', admin.id);
  deleteBase(store, gone);
  expect(gone.db.open).toBe(false);
  expect(store.base(gone.uuid)).toBeUndefined();
});

test('with a data file each base is a file of its own: kept over a restart, removed with the base', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-bases-'));
  try {
    const file = join(dir, 'data.sqlite');
    let first = new Store(file);
    first.db.prepare("INSERT INTO workspaces (id, owner, name) VALUES (1, 'u', 'W')").run();
    const kept = first.createBase(1, 'Kept', 'u');
    const gone = first.createBase(1, 'Gone', 'u');
    const fileOf = (b: Base) => join(`${file}.bases`, `${b.uuid}.sqlite`);
    createTable({ db: first.db, faults: new Set() }, kept, 'T', []);
    deleteBase(first, gone);
    first.close();
    expect([existsSync(fileOf(kept)), existsSync(fileOf(gone))]).toEqual([true, false]);
    first = new Store(file);
    expect(first.allBases().map((b) => [b.name, b.meta.tables.map((t) => t.name)])).toEqual([['Kept', ['T']]]);
    first.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a write over both databases (big data's log beside its rows) is undone in both when it fails", () => {
  expect(() =>
    inBoth(store.db, mine, () => {
      store.db.prepare("INSERT INTO settings (key, value) VALUES ('probe', 'x')").run();
      mine.db.prepare("INSERT INTO links (link_id, row_id, other_row_id, ctime) VALUES ('l', 'a', 'b', 0)").run();
      throw new Error('refused');
    }),
  ).toThrow('refused');
  expect(store.setting('probe')).toBeUndefined();
  expect(mine.db.prepare("SELECT count(*) FROM links WHERE link_id = 'l'").pluck().get()).toBe(0);
});

/**
 * The driver adapter (sqlite.ts) keeps better-sqlite3's semantics the store relies on where
 * libsql's differ, and copies a database whole. A unit test: databases in memory, no server.
 */
import { expect, test } from '@playwright/test';
import { copyDatabase, Db } from './sqlite.js';

test('parameters that libsql would abort the process on, or take for named ones, are checked first', () => {
  const db = new Db();
  db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY, b)');
  const insert = db.prepare('INSERT INTO t (b) VALUES (?)');
  insert.run(null);
  insert.run(Buffer.from([1, 2]));
  insert.run([7]);
  insert.run(2n ** 60n);
  insert.run('a\0b');
  expect(() => insert.run(true)).toThrow(TypeError);
  expect(() => insert.run(new Date())).toThrow(TypeError);
  expect(() => insert.run({ x: false })).toThrow(TypeError);
  const rows = db.prepare('SELECT b, typeof(b) AS t FROM t ORDER BY a').all();
  expect(rows).toEqual([
    { b: null, t: 'null' },
    { b: Buffer.from([1, 2]), t: 'blob' },
    { b: 7, t: 'real' },
    { b: 2 ** 60, t: 'integer' },
    { b: Buffer.from('a\0b'), t: 'blob' }, // libsql would read TEXT back as 'a'
  ]);
  expect(db.prepare('SELECT count(*) FROM t WHERE b = @v').pluck().get({ v: 7 })).toBe(1);
  db.close();
  expect(db.open).toBe(false);
});

test('pluck holds for get, all and iterate; get adds nothing to the row', () => {
  const db = new Db();
  db.exec("CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'x'), (2, 'y')");
  const first = db.prepare('SELECT a FROM t ORDER BY a').pluck();
  expect([first.get(), first.all(), [...first.iterate()]]).toEqual([1, [1, 2], [1, 2]]);
  expect(Object.keys(db.prepare('SELECT a, b FROM t').get() as object)).toEqual(['a', 'b']);
  expect(db.prepare('SELECT a, b FROM t').raw().get()).toEqual([1, 'x']);
  expect(db.prepare('SELECT a FROM t WHERE a = 3').pluck().get()).toBeUndefined();
});

test('a transaction inside a transaction is a savepoint: its failure undoes its own writes only', () => {
  const db = new Db();
  db.exec('CREATE TABLE t (a)');
  const add = (a: number) => db.prepare('INSERT INTO t VALUES (?)').run(a);
  db.transaction(() => {
    add(1);
    expect(() =>
      db.transaction(() => {
        add(2);
        throw new Error('inner');
      })(),
    ).toThrow('inner');
    add(3);
  })();
  expect(() => db.transaction(() => (add(4), db.exec('SELECT nope')))()).toThrow(/no such column/);
  expect(db.prepare('SELECT a FROM t ORDER BY a').pluck().all()).toEqual([1, 3]);
});

test('a copy holds the tables with their rowids, indexes, triggers and sequences, and reaches nothing else', () => {
  const from = new Db();
  from.exec(`CREATE TABLE r (_id TEXT, v); CREATE TABLE s (id INTEGER PRIMARY KEY AUTOINCREMENT, x BLOB);
    CREATE INDEX r_v ON r (v); CREATE TABLE log (n);
    CREATE TRIGGER r_ins AFTER INSERT ON r BEGIN INSERT INTO log VALUES (NEW.v); END;
    INSERT INTO r VALUES ('a', 1), ('b', 2), ('c', 3); DELETE FROM r WHERE _id = 'a';
    INSERT INTO s (x) VALUES (x'00ff'), (NULL); DELETE FROM s WHERE id = 2;`);
  const to = new Db();
  copyDatabase(from, to);
  const dump = (db: Db) => ({
    master: db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all(),
    r: db.prepare('SELECT rowid, * FROM r').all(),
    s: db.prepare('SELECT * FROM s').all(),
    log: db.prepare('SELECT * FROM log').all(),
    seq: db.prepare('SELECT * FROM sqlite_sequence').all(),
  });
  expect(dump(to)).toEqual(dump(from));
  expect(dump(to).log).toHaveLength(3); // the trigger fired on the source's 3 inserts, not on the copy's
  to.prepare('INSERT INTO s (x) VALUES (NULL)').run();
  expect(to.prepare('SELECT max(id) FROM s').pluck().get()).toBe(3);
  expect(to.prepare('PRAGMA database_list').all()).toHaveLength(1);
  expect(from.prepare('PRAGMA database_list').all()).toHaveLength(1);
});

/** The `sql/` endpoint (§4.1, api-shapes §2.2): SQL-1, SQL-2, the dialect and its confinement to one table. */
import { expect, test } from '@playwright/test';
import { expectClientError, Kit, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });
let T: string;
test.beforeAll(async () => {
  T = uniq('Sql Table');
  await kit.createTable(T, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Score', column_type: 'number' },
    { column_name: 'Tags', column_type: 'multiple-select' },
    { column_name: 'Done', column_type: 'checkbox' },
  ]);
  await kit.append(T, [
    { Name: 'alpha', Score: 1, Tags: ['x'], Done: true },
    { Name: 'beta', Score: 2, Tags: ['x', 'y'] },
    { Name: 'gamma', Score: 3 },
  ]);
});

const q = (name: string) => `\`${name}\``;
const sqlRaw = (sql: string, extra: Record<string, unknown> = {}) =>
  kit.gwCall('POST', 'sql/', { json: { sql, ...extra } });

test('SQL-1 an injection string passed as a parameter is stored and compared as data', async () => {
  const t = uniq('Inject');
  await kit.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
  const evil = [
    "x'); DROP TABLE users; --",
    "' OR '1'='1",
    'Robert"); DELETE FROM `' + t + '`; --',
    "\\'; SELECT 1; --",
  ];
  for (const s of evil) {
    const r = await kit.sql(`INSERT INTO ${q(t)} (Name) VALUES (?)`, [s]);
    expect(r.affected_rows).toBe(1);
  }
  expect((await kit.list(t)).map((r) => r.Name)).toEqual(evil);
  for (const s of evil) {
    const r = await kit.sql(`SELECT Name FROM ${q(t)} WHERE Name = ?`, [s]);
    expect(r.results).toEqual([{ Name: s }]);
  }
  expect((await kit.sql(`SELECT Name FROM ${q(t)} WHERE Name = ?`, ["nobody' OR '1'='1"])).results).toEqual([]);
  // The account tables the injection aimed at are untouched.
  const login = await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(t)}`);
  expect(login.status).toBe(200);
});

test('SQL-1 parameters fill ? in order, with numbers, booleans and null', async () => {
  const r = await kit.sql(`SELECT Name FROM ${q(T)} WHERE Score >= ? AND Score <= ? ORDER BY Score`, [2, 3]);
  expect(r.results.map((x) => x.Name)).toEqual(['beta', 'gamma']);
  expect((await kit.sql(`SELECT Name FROM ${q(T)} WHERE Done = ?`, [true])).results).toEqual([{ Name: 'alpha' }]);
  expectClientError(await sqlRaw(`SELECT * FROM ${q(T)} WHERE Score = ?`, { parameters: [] }), 400);
  expectClientError(await sqlRaw(`SELECT * FROM ${q(T)}`, { parameters: [1] }), 400);
  expectClientError(await sqlRaw(`SELECT * FROM ${q(T)} WHERE Name = ?`, { parameters: [{ a: 1 }] }), 400);
  expectClientError(await sqlRaw(`SELECT * FROM ${q(T)} WHERE Name = ?`, { parameters: 'alpha' }), 400);
  expectClientError(
    await sqlRaw(`SELECT * FROM ${q(T)} WHERE Name = ?1 AND Score = ?2`, { parameters: ['a', 1, 2] }),
    400,
  );
});

test('SQL-2 a list with an invalid filter is refused with a 400 and a clean message', async () => {
  const cases: [string, RegExp][] = [
    [`SELECT * FROM ${q(T)} WHERE Nope = 1`, /^no such column: Nope$/],
    [`SELECT * FROM ${q(T)} WHERE Name = bareword`, /^no such column: bareword$/],
    [`SELECT * FROM ${q(T)} WHERE Score >`, /syntax error/],
    [`SELECT * FROM ${q(T)} WHERE nosuchfn(Name)`, /no such function/],
    [`SELECT * FROM ${q(T)} WHERE (Score = 1`, /parenthes/],
    [`SELECT * FROM ${q(T)} WHERE Name = 'unterminated`, /unterminated/],
  ];
  for (const [sql, msg] of cases) {
    const m = expectClientError(await sqlRaw(sql), 400);
    expect(m, sql).toMatch(msg);
    expect(m, sql).not.toMatch(/rows_\d|c_[A-Za-z0-9]{4}|string literal in single-quotes|LIMIT/);
  }
});

test('no LIMIT lists 100 rows; LIMIT and OFFSET are honoured', async () => {
  const t = uniq('Many');
  await kit.createTable(t, [{ column_name: 'N', column_type: 'number' }]);
  await kit.append(
    t,
    Array.from({ length: 150 }, (_, i) => ({ N: i })),
  );
  expect((await kit.sql(`SELECT N FROM ${q(t)}`)).results).toHaveLength(100);
  expect((await kit.sql(`SELECT N FROM ${q(t)} LIMIT 120`)).results).toHaveLength(120);
  expect((await kit.sql(`SELECT N FROM ${q(t)} ORDER BY N DESC LIMIT 2 OFFSET 1`)).results).toEqual([
    { N: 148 },
    { N: 147 },
  ]);
  expect((await kit.sql(`SELECT N FROM ${q(t)} ORDER BY N LIMIT 1, 2`)).results).toEqual([{ N: 1 }, { N: 2 }]);
  expect((await kit.sql(`SELECT N FROM ${q(t)} LIMIT ?`, [3])).results).toHaveLength(3);
});

test('identifiers with spaces in backticks, Table.column qualifiers, aliases, COUNT(*) and GROUP BY', async () => {
  const t = uniq('My Table');
  await kit.createTable(t, [
    { column_name: 'Full Name', column_type: 'text' },
    { column_name: 'Group', column_type: 'single-select' },
  ]);
  await kit.append(t, [
    { 'Full Name': 'A B', Group: 'g1' },
    { 'Full Name': 'C D', Group: 'g1' },
    { 'Full Name': 'E F', Group: 'g2' },
  ]);
  expect((await kit.sql(`SELECT \`Full Name\` FROM ${q(t)} WHERE \`Full Name\` = 'C D'`)).results).toEqual([
    { 'Full Name': 'C D' },
  ]);
  expect((await kit.sql(`SELECT ${q(t)}.\`Full Name\` FROM ${q(t)} WHERE ${q(t)}.\`Group\` = 'g2'`)).results).toEqual([
    { 'Full Name': 'E F' },
  ]);
  expect((await kit.sql(`SELECT x.\`Full Name\` AS who FROM ${q(t)} AS x ORDER BY who DESC LIMIT 1`)).results).toEqual([
    { who: 'E F' },
  ]);
  expect((await kit.sql(`SELECT COUNT(*) FROM ${q(t)}`)).results).toEqual([{ 'COUNT(*)': 3 }]);
  expect((await kit.sql(`SELECT COUNT(*) AS n FROM ${q(t)} WHERE \`Group\` = ?`, ['g1'])).results).toEqual([{ n: 2 }]);
  const groups = await kit.sql(`SELECT \`Group\`, COUNT(*) AS n FROM ${q(t)} GROUP BY \`Group\` ORDER BY \`Group\``);
  expect(groups.results).toEqual([
    { Group: 'g1', n: 2 },
    { Group: 'g2', n: 1 },
  ]);
  expect(groups.metadata.map((m) => m.name)).toEqual(['Group']);
});

test('convert_keys: false keys results by column key, true by name; metadata names the columns', async () => {
  const meta = await kit.table(T);
  const key = (n: string) => meta.columns.find((c) => c.name === n)!.key;
  // Keyed by column keys, select cells carry option ids, which the answer's metadata maps to names.
  const optionId = (name: string) =>
    (meta.columns.find((c) => c.name === 'Tags')!.data!.options as { id: string; name: string }[]).find(
      (o) => o.name === name,
    )!.id;
  const byKey = await kit.sql(`SELECT Name, Tags, Done FROM ${q(T)} WHERE Name = 'beta'`, undefined, false);
  expect(byKey.results).toEqual([
    { [key('Name')]: 'beta', [key('Tags')]: [optionId('x'), optionId('y')], [key('Done')]: null },
  ]);
  const tags = byKey.metadata.find((m) => m.key === key('Tags'))!.data as { options: { id: string; name: string }[] };
  expect(tags.options.map((o) => [o.id, o.name])).toEqual([
    [optionId('x'), 'x'],
    [optionId('y'), 'y'],
  ]);
  const starByKey = await kit.sql(`SELECT * FROM ${q(T)} WHERE Name = 'alpha'`, undefined, false);
  expect(starByKey.results[0]).toMatchObject({ [key('Name')]: 'alpha', [key('Tags')]: [optionId('x')] });
  const byName = await kit.sql(`SELECT Name, Tags FROM ${q(T)} WHERE Name = 'beta'`);
  expect(byName.results).toEqual([{ Name: 'beta', Tags: ['x', 'y'] }]);
  expect(byName.metadata.map((m) => [m.key, m.name, m.type])).toEqual([
    [key('Name'), 'Name', 'text'],
    [key('Tags'), 'Tags', 'multiple-select'],
  ]);
  const star = await kit.sql(`SELECT * FROM ${q(T)} LIMIT 1`);
  expect(star.metadata.map((m) => m.name)).toEqual(meta.columns.map((c) => c.name));
  expect(star.results[0]).toMatchObject({ Name: 'alpha', Score: 1, Tags: ['x'], Done: true });
  expect(star.results[0]!._id).toMatch(/^[A-Za-z0-9_-]{22}$/);
});

test('INSERT, UPDATE and DELETE report affected rows and change the table', async () => {
  const t = uniq('Writes');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
  ]);
  expect(
    (await kit.sql(`INSERT INTO ${q(t)} (Name, N) VALUES ('a', 1), ('b', 2), (?, ?)`, ['c', 3])).affected_rows,
  ).toBe(3);
  expect((await kit.sql(`UPDATE ${q(t)} SET N = N * 10 WHERE N >= ?`, [2])).affected_rows).toBe(2);
  expect((await kit.list(t)).map((r) => [r.Name, r.N])).toEqual([
    ['a', 1],
    ['b', 20],
    ['c', 30],
  ]);
  expect((await kit.sql(`DELETE FROM ${q(t)} WHERE Name = ?`, ['a'])).affected_rows).toBe(1);
  expect(await kit.count(t)).toBe(2);
  const inserted = (await kit.list(t))[0]!;
  expect(inserted._id).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(inserted._ctime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
});

test('SQL is confined to the named table: joins, other tables, subqueries and schema functions are refused', async () => {
  const t = uniq('Confined');
  await kit.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
  await kit.append(t, [{ Name: 'keep' }]);
  const refused = [
    `SELECT email FROM ${q(t)}, users`,
    `SELECT email FROM ${q(t)} x, users`,
    `SELECT * FROM ${q(t)} AS x, account_tokens`,
    `SELECT * FROM ${q(t)} JOIN users`,
    `SELECT * FROM ${q(t)} NATURAL JOIN users`,
    `SELECT * FROM ${q(t)} UNION SELECT * FROM users`,
    `SELECT * FROM ${q(t)} WHERE Name IN (SELECT email FROM users)`,
    `SELECT * FROM ${q(t)} WHERE Name IN users`,
    `SELECT * FROM ${q(t)} WHERE Name IN pragma_table_info('users')`,
    `SELECT pragma_table_info('users') FROM ${q(t)}`,
    `UPDATE ${q(t)} SET Name = email FROM users`,
    `INSERT INTO ${q(t)} (Name) SELECT email FROM users`,
    `DELETE FROM ${q(t)}, users`,
    `SELECT * FROM users`,
    `SELECT * FROM sqlite_master`,
    `SELECT 1`,
    `SELECT * FROM ${q(t)}; DROP TABLE users`,
    `DROP TABLE ${q(t)}`,
    `PRAGMA table_info(users)`,
    `ATTACH DATABASE 'x.db' AS x`,
    `WITH x AS (SELECT 1) SELECT * FROM ${q(t)}`,
  ];
  for (const sql of refused) expectClientError(await sqlRaw(sql), 400);
  expect((await kit.list(t)).map((r) => r.Name)).toEqual(['keep']);
});

test('SHAPE-6 SQL cannot change _id or other row internals, nor computed columns', async () => {
  const t = uniq('Internals');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'F', column_type: 'formula', column_data: { formula: '{Name} & "!"' } },
  ]);
  const [id] = await kit.append(t, [{ Name: 'a' }]);
  for (const sql of [
    `UPDATE ${q(t)} SET _id = 'hijacked'`,
    `UPDATE ${q(t)} SET Name = 'b', _ctime = 'x'`,
    `UPDATE ${q(t)} SET F = 'x'`,
    `INSERT INTO ${q(t)} (_id, Name) VALUES ('x', 'y')`,
  ]) {
    expectClientError(await sqlRaw(sql), 400);
  }
  const rows = await kit.list(t);
  expect(rows.map((r) => [r._id, r.Name, r.F])).toEqual([[id, 'a', 'a!']]);
});

test('computed columns selected by name read as in row reads (formula, link, ctime)', async () => {
  const other = uniq('Linked');
  await kit.createTable(other, [{ column_name: 'Title', column_type: 'text' }]);
  const t = uniq('Computed');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Created', column_type: 'ctime' },
  ]);
  await kit.addColumn(t, { column_name: 'Double', column_type: 'formula', column_data: { formula: '{N} * 2' } });
  const link = await kit.addColumn(t, {
    column_name: 'Refs',
    column_type: 'link',
    column_data: { other_table: other },
  });
  const [o1] = await kit.append(other, [{ Title: 'first' }]);
  const [r1] = await kit.append(t, [{ Name: 'a', N: 21 }]);
  await kit.gwCall('POST', 'links/', {
    json: { table_name: t, other_table_name: other, link_id: link.data.link_id, other_rows_ids_map: { [r1!]: [o1] } },
  });
  const row = (await kit.list(t))[0]!;
  const r = await kit.sql(`SELECT Name, Double, Refs, Created AS made FROM ${q(t)}`);
  expect(r.results).toEqual([
    { Name: 'a', Double: 42, Refs: [{ row_id: o1, display_value: 'first' }], made: row.Created },
  ]);
  expect(r.metadata.map((m) => m.name)).toEqual(['Name', 'Double', 'Refs', 'Created']);
});

test('SQL parameters are refused before 5.0 (a 4.4 server)', async () => {
  const old = await Kit.start({ apiVersion: '4.4', unlimited: true });
  try {
    const t = uniq('Old');
    await old.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
    expectClientError(
      await old.gwCall('POST', 'sql/', { json: { sql: `SELECT * FROM ${q(t)} WHERE Name = ?`, parameters: ['x'] } }),
      400,
    );
    expect((await old.gwCall('POST', 'sql/', { json: { sql: `SELECT * FROM ${q(t)}` } })).status).toBe(200);
  } finally {
    await old.close();
  }
});

test('a missing or non-string sql is a 400', async () => {
  expectClientError(await kit.gwCall('POST', 'sql/', { json: {} }), 400);
  expectClientError(await kit.gwCall('POST', 'sql/', { json: { sql: 42 } }), 400);
  expectClientError(await kit.gwCall('POST', 'sql/', { json: { sql: '   ' } }), 400);
  expectClientError(await kit.gwCall('POST', 'sql/', { json: { sql: 'EXPLAIN SELECT 1' } }), 400);
});

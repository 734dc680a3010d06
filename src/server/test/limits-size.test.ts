/** Rows per call (§8.5, SIZE-1..7): the caps, the refusal of one more, and atomic batches. */
import { expect, test } from '@playwright/test';
import { SIZE_LIMITS } from '../../spec/index.js';
import { bulkRows, expectClientError, Kit, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

const COLS = [
  { column_name: 'Name', column_type: 'text' },
  { column_name: 'N', column_type: 'number' },
];

/** A table of `n` rows, written by SQL INSERT in statements of 10,000 rows. */
async function tableOf(n: number, k = kit): Promise<string> {
  const t = uniq('Bulk');
  await k.createTable(t, COLS);
  for (let from = 0; from < n; from += 10_000) {
    const values = Array.from(
      { length: Math.min(10_000, n - from) },
      (_, i) => `('row ${from + i}', ${from + i})`,
    ).join(',');
    const r = await k.gwCall('POST', 'sql/', { json: { sql: `INSERT INTO \`${t}\` (Name, N) VALUES ${values}` } });
    expect(r.status, r.text).toBe(200);
  }
  return t;
}

const ids = async (t: string, limit: number, offset = 0) =>
  (await kit.sql(`SELECT _id FROM \`${t}\` ORDER BY N LIMIT ${limit} OFFSET ${offset}`)).results.map(
    (r) => r._id as string,
  );

test('SIZE-1 list returns at most 1,000 rows, also when a larger limit is asked', async () => {
  const t = await tableOf(1_200);
  expect(await kit.list(t)).toHaveLength(SIZE_LIMITS.listRows);
  expect(await kit.list(t, { limit: 5000 })).toHaveLength(1000);
  expect(await kit.list(t, { limit: 1001 })).toHaveLength(1000);
  const rest = await kit.list(t, { start: 1000, limit: 5000 });
  expect(rest).toHaveLength(200);
  expect(rest[0]!.N).toBe(1000);
});

test('SIZE-2 append takes 1,000 rows; 1,001 is refused with a 400 and nothing is written', async () => {
  const t = uniq('Append');
  await kit.createTable(t, COLS);
  const ok = await kit.gwCall('POST', 'rows/', { json: { table_name: t, rows: bulkRows(1000) } });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body.inserted_row_count).toBe(1000);
  const tooMany = await kit.gwCall('POST', 'rows/', { json: { table_name: t, rows: bulkRows(1001, 5000) } });
  expect(expectClientError(tooMany, 400)).toMatch(/1,?000/);
  expect(await kit.count(t)).toBe(1000);
  expect((await kit.sql(`SELECT COUNT(*) AS n FROM \`${t}\` WHERE N >= 5000`)).results[0]!.n).toBe(0);
});

test('SIZE-3 update takes 1,000 rows; 1,001 is refused with a 400 and nothing is changed', async () => {
  const t = await tableOf(1_001);
  const all = await ids(t, 1001);
  const ok = await kit.gwCall('PUT', 'rows/', {
    json: { table_name: t, updates: all.slice(0, 1000).map((row_id) => ({ row_id, row: { Name: 'updated' } })) },
  });
  expect(ok.status, ok.text).toBe(200);
  expect((await kit.sql(`SELECT COUNT(*) AS n FROM \`${t}\` WHERE Name = 'updated'`)).results[0]!.n).toBe(1000);
  const tooMany = await kit.gwCall('PUT', 'rows/', {
    json: { table_name: t, updates: all.map((row_id) => ({ row_id, row: { Name: 'again' } })) },
  });
  expectClientError(tooMany, 400);
  expect((await kit.sql(`SELECT COUNT(*) AS n FROM \`${t}\` WHERE Name = 'again'`)).results[0]!.n).toBe(0);
});

test('SIZE-4 delete takes 10,000 rows; 10,001 is refused with a 400 and nothing is deleted', async () => {
  const t = await tableOf(10_010);
  const first = [...(await ids(t, 10_000)), ...(await ids(t, 1, 10_000))];
  expect(first).toHaveLength(10_001);
  const tooMany = await kit.gwCall('DELETE', 'rows/', { json: { table_name: t, row_ids: first } });
  expectClientError(tooMany, 400);
  expect(await kit.count(t)).toBe(10_010);
  const ok = await kit.gwCall('DELETE', 'rows/', { json: { table_name: t, row_ids: first.slice(0, 10_000) } });
  expect(ok.status, ok.text).toBe(200);
  expect(await kit.count(t)).toBe(10);
});

test('SIZE-5 an SQL list returns 100 rows without LIMIT and at most 10,000 even with LIMIT 20000', async () => {
  const t = await tableOf(10_050);
  expect((await kit.sql(`SELECT N FROM \`${t}\``)).results).toHaveLength(SIZE_LIMITS.sqlListDefault);
  expect((await kit.sql(`SELECT N FROM \`${t}\` LIMIT 20000`)).results).toHaveLength(SIZE_LIMITS.sqlList);
  expect((await kit.sql(`SELECT * FROM \`${t}\` LIMIT 10001`)).results).toHaveLength(10_000);
  expect((await kit.sql(`SELECT N FROM \`${t}\` LIMIT 100 OFFSET 10000`)).results).toHaveLength(50);
});

test('SIZE-6 SQL UPDATE and DELETE have no row limit (20,000 rows)', async () => {
  const t = await tableOf(20_000);
  const u = await kit.sql(`UPDATE \`${t}\` SET Name = 'all'`);
  expect(u.affected_rows).toBe(20_000);
  expect((await kit.sql(`SELECT COUNT(*) AS n FROM \`${t}\` WHERE Name = 'all'`)).results[0]!.n).toBe(20_000);
  expect((await kit.sql(`DELETE FROM \`${t}\` WHERE N >= 0`)).affected_rows).toBe(20_000);
  expect(await kit.count(t)).toBe(0);
});

test('SIZE-7 several maximal calls in a row are allowed while the rate limit is respected', async () => {
  const limited = await Kit.start(); // the edition's default rate limits
  try {
    const t = uniq('Maximal');
    await limited.createTable(t, COLS);
    for (let i = 0; i < 4; i++) {
      const r = await limited.gwCall('POST', 'rows/', { json: { table_name: t, rows: bulkRows(1000, i * 1000) } });
      expect(r.status, r.text).toBe(200);
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
    }
    for (let start = 0; start < 4000; start += 1000)
      expect(await limited.list(t, { start, limit: 1000 })).toHaveLength(1000);
    const all = (await limited.list(t, { limit: 1000 })).map((r) => r._id as string);
    const u = await limited.gwCall('PUT', 'rows/', {
      json: { table_name: t, updates: all.map((row_id) => ({ row_id, row: { N: -1 } })) },
    });
    expect(u.status).toBe(200);
    const big = await limited.gwCall('POST', 'sql/', { json: { sql: `SELECT _id FROM \`${t}\` LIMIT 10000` } });
    expect(big.body.results).toHaveLength(4000);
    const d = await limited.gwCall('DELETE', 'rows/', {
      json: { table_name: t, row_ids: big.body.results.map((r: { _id: string }) => r._id) },
    });
    expect(d.status).toBe(200);
    expect(await limited.count(t)).toBe(0);
  } finally {
    await limited.close();
  }
});

test('a batch is atomic: one bad row among 1,000 writes nothing', async () => {
  const t = uniq('Atomic');
  await kit.createTable(t, COLS);
  const rows: unknown[] = bulkRows(1000);
  rows[999] = { Name: 'bad', N: 'not a number' };
  expectClientError(await kit.gwCall('POST', 'rows/', { json: { table_name: t, rows } }), 400);
  expect(await kit.count(t)).toBe(0);
  const [id] = await kit.append(t, [{ Name: 'x', N: 1 }]);
  const updates = [
    { row_id: id, row: { N: 2 } },
    { row_id: 'AAAAAAAAAAAAAAAAAAAAAA', row: { N: 3 } },
  ];
  expectClientError(await kit.gwCall('PUT', 'rows/', { json: { table_name: t, updates } }), 404);
  expect((await kit.list(t))[0]!.N).toBe(1);
});

/** Row operations of the gateway (§4.1, api-shapes §2.1): ROUTE-1, ROUTE-6, ROUTE-7 and the row shapes. */
import { expect, test } from '@playwright/test';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

const COLS = [
  { column_name: 'Name', column_type: 'text' },
  { column_name: 'N', column_type: 'number' },
];

test('ROUTE-1 every base operation of 4.1 answers an authorised call (not 404, not 405)', async () => {
  const t = uniq('Route1');
  await kit.createTable(t, COLS);
  await kit.gwCall('POST', 'views/', { json: { table_name: t, name: 'All' } });
  const [id] = await kit.append(t, [{ Name: 'a', N: 1 }]);
  const calls: [string, string, unknown?][] = [
    ['GET', `rows/?table_name=${encodeURIComponent(t)}`],
    ['POST', 'rows/', { table_name: t, rows: [{ Name: 'b' }] }],
    ['PUT', 'rows/', { table_name: t, updates: [{ row_id: id, row: { N: 2 } }] }],
    ['DELETE', 'rows/', { table_name: t, row_ids: ['not-there'] }],
    ['POST', 'sql/', { sql: `SELECT * FROM \`${t}\`` }],
    ['POST', 'archive-view/', { table_name: t, view_name: 'All' }],
  ];
  for (const [method, path, json] of calls) {
    const r = await kit.gwCall(method, path, json === undefined ? {} : { json });
    expect(r.status, `${method} ${path}: ${r.text}`).toBe(200);
  }
  // The specification's own archive path (§4.1) as well as the gateway's.
  const archive = await fetch(`${kit.url}/api/v1/dtables/${kit.base.uuid}/archive-view/`, {
    method: 'POST',
    headers: { authorization: `Token ${kit.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ table_name: t, view_name: 'All' }),
  });
  expect(archive.status).toBe(200);
});

test('append answers inserted_row_count, row_ids and first_row keyed by column keys', async () => {
  const t = await kit.createTable(uniq('Append'), COLS);
  const r = await kit.gwCall('POST', 'rows/', {
    json: { table_name: t.name, rows: [{ Name: 'x', N: 7 }, { Name: 'y' }] },
  });
  expect(r.status).toBe(200);
  expect(r.body.inserted_row_count).toBe(2);
  expect(r.body.row_ids).toHaveLength(2);
  for (const { _id } of r.body.row_ids) expect(_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const name = t.columns.find((c) => c.name === 'Name')!.key;
  expect(r.body.first_row._id).toBe(r.body.row_ids[0]._id);
  expect(r.body.first_row[name]).toBe('x');
});

test('list pages with start and limit, keys by column key unless convert_keys', async () => {
  const t = await kit.createTable(uniq('Paging'), COLS);
  await kit.append(
    t.name,
    Array.from({ length: 10 }, (_, i) => ({ Name: `r${i}`, N: i })),
  );
  const page = await kit.list(t.name, { start: 3, limit: 4 });
  expect(page.map((r) => r.N)).toEqual([3, 4, 5, 6]);
  const byKey = await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(t.name)}&limit=1`);
  const key = t.columns.find((c) => c.name === 'N')!.key;
  expect(byKey.body.rows[0][key]).toBe(0);
  expect(byKey.body.rows[0].N).toBeUndefined();
  const past = await kit.list(t.name, { start: 50 });
  expect(past).toEqual([]);
});

test('list by view_name applies the view filter', async () => {
  const t = uniq('View');
  await kit.createTable(t, COLS);
  await kit.append(t, [
    { Name: 'small', N: 1 },
    { Name: 'big', N: 10 },
    { Name: 'bigger', N: 20 },
  ]);
  const v = await kit.gwCall('POST', 'views/', {
    json: { table_name: t, name: 'Big', filters: [{ column_name: 'N', filter_predicate: 'greater', filter_term: 5 }] },
  });
  expect(v.status, v.text).toBe(200);
  expect((await kit.list(t, { view_name: 'Big' })).map((r) => r.Name)).toEqual(['big', 'bigger']);
  expectClientError(await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(t)}&view_name=Nope`));
});

test('single-row get returns the row; an unknown row is a 404 with an error body', async () => {
  const t = uniq('Get');
  await kit.createTable(t, COLS);
  const [id] = await kit.append(t, [{ Name: 'one', N: 1 }]);
  const r = await kit.gwCall('GET', `rows/${id}/?table_name=${encodeURIComponent(t)}&convert_keys=true`);
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ _id: id, Name: 'one', N: 1 });
  expectClientError(await kit.gwCall('GET', `rows/AAAAAAAAAAAAAAAAAAAAAA/?table_name=${encodeURIComponent(t)}`), 404);
});

test('update changes only the named cells; delete removes the rows', async () => {
  const t = uniq('Update');
  await kit.createTable(t, COLS);
  const [a, b] = await kit.append(t, [
    { Name: 'a', N: 1 },
    { Name: 'b', N: 2 },
  ]);
  const u = await kit.gwCall('PUT', 'rows/', { json: { table_name: t, updates: [{ row_id: a, row: { N: 10 } }] } });
  expect(u.status).toBe(200);
  expect(u.body).toEqual({ success: true });
  expect((await kit.list(t)).map((r) => [r.Name, r.N])).toEqual([
    ['a', 10],
    ['b', 2],
  ]);
  const d = await kit.gwCall('DELETE', 'rows/', { json: { table_name: t, row_ids: [b] } });
  expect(d.status).toBe(200);
  expect(d.body.success).toBe(true);
  expect((await kit.list(t)).map((r) => r._id)).toEqual([a]);
});

test('ROUTE-6 order_by and direction do not change the order of the row list', async () => {
  const t = uniq('Order');
  await kit.createTable(t, COLS);
  await kit.append(t, [
    { Name: 'b', N: 2 },
    { Name: 'c', N: 3 },
    { Name: 'a', N: 1 },
  ]);
  const plain = (await kit.list(t)).map((r) => r._id);
  for (const q of [
    { order_by: 'N' },
    { order_by: 'Name', direction: 'desc' },
    { order_by: 'N', direction: 'asc', start: 0, limit: 3 },
  ]) {
    expect((await kit.list(t, q)).map((r) => r._id)).toEqual(plain);
  }
});

test('ROUTE-7 a repeated GET after a write never answers stale rows', async () => {
  const t = uniq('Stale');
  await kit.createTable(t, COLS);
  const [id] = await kit.append(t, [{ Name: 'v1', N: 1 }]);
  const get = () => kit.gwCall('GET', `rows/${id}/?table_name=${encodeURIComponent(t)}&convert_keys=true`);
  // Warm the cache, then change the base in each way a client can.
  expect((await kit.list(t))[0]!.Name).toBe('v1');
  expect((await get()).body.Name).toBe('v1');
  await kit.gwCall('PUT', 'rows/', { json: { table_name: t, updates: [{ row_id: id, row: { Name: 'v2' } }] } });
  expect((await kit.list(t))[0]!.Name).toBe('v2');
  expect((await get()).body.Name).toBe('v2');
  await kit.sql(`UPDATE \`${t}\` SET Name = 'v3'`);
  expect((await kit.list(t))[0]!.Name).toBe('v3');
  expect((await get()).body.Name).toBe('v3');
  await kit.append(t, [{ Name: 'second' }]);
  expect(await kit.list(t)).toHaveLength(2);
  await kit.addColumn(t, { column_name: 'Extra', column_type: 'text' });
  expect(Object.keys((await kit.list(t))[0]!)).toContain('Extra');
  expect(Object.keys((await get()).body)).toContain('Extra');
  await kit.gwCall('PUT', 'rows/', { json: { table_name: t, updates: [{ row_id: id, row: { Extra: 'e' } }] } });
  expect((await kit.list(t))[0]!.Extra).toBe('e');
  await kit.gwCall('DELETE', 'rows/', { json: { table_name: t, row_ids: [id] } });
  expect(await kit.list(t)).toHaveLength(1);
  expectClientError(await get(), 404);
  await kit.sql(`DELETE FROM \`${t}\``);
  expect(await kit.list(t)).toHaveLength(0);
});

test('ROUTE-7 metadata is fresh after a structure change, a repeated unchanged GET is identical', async () => {
  const t = uniq('StaleMeta');
  await kit.createTable(t, COLS);
  const first = await kit.gwCall('GET', 'metadata/');
  const again = await kit.gwCall('GET', 'metadata/');
  expect(again.text).toBe(first.text);
  await kit.addColumn(t, { column_name: 'Later', column_type: 'number' });
  expect((await kit.table(t)).columns.map((c) => c.name)).toContain('Later');
  await kit.append(t, [{ Name: 'x' }]);
  const rows1 = await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(t)}`);
  const rows2 = await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(t)}`);
  expect(rows2.text).toBe(rows1.text);
});

test('a column added after rows were read appears in later reads', async () => {
  const t = uniq('AddCol');
  await kit.createTable(t, COLS);
  await kit.append(t, [{ Name: 'a' }]);
  await kit.list(t);
  await kit.sql(`SELECT * FROM \`${t}\``);
  await kit.addColumn(t, { column_name: 'Flag', column_type: 'checkbox' });
  await kit.gwCall('PUT', 'rows/', {
    json: { table_name: t, updates: [{ row_id: (await kit.list(t))[0]!._id, row: { Flag: true } }] },
  });
  expect((await kit.list(t))[0]!.Flag).toBe(true);
  expect((await kit.sql(`SELECT * FROM \`${t}\``)).results[0]!.Flag).toBe(true);
});

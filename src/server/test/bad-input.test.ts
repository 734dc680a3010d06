/**
 * Bad input to the base operations: each gets a 4xx with a readable error body, never a 5xx
 * or a crash, and never a partial write (the table is checked after each refusal).
 */
import { expect, test } from '@playwright/test';
import { call, expectClientError, uniq, type Res, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });
let T: string;
test.beforeAll(async () => {
  T = uniq('Target');
  await kit.createTable(T, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
  ]);
  await kit.append(T, [{ Name: 'seed', N: 1 }]);
});

/** The table holds exactly the seeded row, and the server still answers. */
async function untouched() {
  const rows = await kit.list(T);
  expect(rows.map((r) => [r.Name, r.N])).toEqual([['seed', 1]]);
  expect((await call(kit.url, 'GET', '/ping/')).status).toBe(200);
}

const raw = (method: string, path: string, body: string | Uint8Array, contentType?: string) =>
  kit.gwCall(method, path, { raw: body, contentType });

test('malformed JSON is a 400 with an error body', async () => {
  for (const body of ['{bad json', '{"table_name": "x", "rows": [', '{"a":1}}', 'undefined', "{'table_name': 'x'}"]) {
    for (const [method, path] of [
      ['POST', 'rows/'],
      ['PUT', 'rows/'],
      ['DELETE', 'rows/'],
      ['POST', 'sql/'],
      ['POST', 'links/'],
      ['POST', 'tables/'],
    ]) {
      expectClientError(await raw(method!, path!, body, 'application/json'), 400);
    }
  }
  await untouched();
});

test('a body that is JSON but not an object is a 400', async () => {
  for (const body of ['[]', '[{"table_name": "x"}]', '"rows"', '42', 'null', 'true']) {
    expectClientError(await raw('POST', 'rows/', body, 'application/json'), 400);
    expectClientError(await raw('POST', 'sql/', body, 'application/json'), 400);
  }
  await untouched();
});

test('a wrong content type is a 415 with an error body', async () => {
  const json = JSON.stringify({ table_name: T, rows: [{ Name: 'sneaky' }] });
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'application/xml',
    'application/octet-stream',
    'multipart/form-data; boundary=x',
  ]) {
    const body = type.startsWith('application/x-www')
      ? 'table_name=x&rows=1'
      : type.startsWith('multipart')
        ? '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'
        : json;
    const r = await raw('POST', 'rows/', body, type);
    expect(r.status, `${type}: ${r.text}`).toBe(415);
    expectClientError(r);
  }
  await untouched();
});

test('a 10 MB body is refused with 413 and an error body; the server keeps serving', async () => {
  const big = JSON.stringify({ table_name: T, rows: [{ Name: 'x'.repeat(10 * 1024 * 1024) }] });
  let r: Res | undefined;
  try {
    r = await raw('POST', 'rows/', big, 'application/json');
  } catch {
    // The server may close the connection before the whole body is sent; that is no 5xx either.
  }
  if (r) {
    expect(r.status).toBe(413);
    expectClientError(r);
  }
  await untouched();
});

test('an empty body, or a DELETE without a body, is a 400', async () => {
  expectClientError(await raw('POST', 'rows/', '', 'application/json'), 400);
  expectClientError(await kit.gwCall('POST', 'rows/'), 400);
  expectClientError(await kit.gwCall('DELETE', 'rows/'), 400);
  expectClientError(await kit.gwCall('PUT', 'rows/'), 400);
  expectClientError(await kit.gwCall('POST', 'sql/'), 400);
  await untouched();
});

test('missing fields are 400s naming the field', async () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['POST', 'rows/', { rows: [{ Name: 'x' }] }, /table_name/],
    ['POST', 'rows/', { table_name: T }, /rows/],
    ['PUT', 'rows/', { table_name: T }, /updates/],
    ['PUT', 'rows/', { table_name: T, updates: [{ row: { Name: 'x' } }] }, /row_id/],
    ['PUT', 'rows/', { table_name: T, updates: [{ row_id: 'x' }] }, /row/],
    ['DELETE', 'rows/', { table_name: T }, /row_ids/],
    ['DELETE', 'rows/', { row_ids: [] }, /table_name/],
    ['POST', 'sql/', { parameters: [] }, /sql/],
    ['POST', 'tables/', { columns: [] }, /table_name/],
    ['POST', 'links/', { table_name: T }, /other_table_name|link_id/],
  ];
  for (const [method, path, json, msg] of cases)
    expect(expectClientError(await kit.gwCall(method, path, { json }), 400), `${method} ${path}`).toMatch(msg);
  expectClientError(await kit.gwCall('GET', 'rows/'), 400);
  await untouched();
});

test('`rows`, `updates` and `row_ids` that are not arrays are 400s', async () => {
  for (const rows of [{ Name: 'x' }, 'Name', 1, null, true])
    expectClientError(await kit.gwCall('POST', 'rows/', { json: { table_name: T, rows } }), 400);
  for (const updates of [{ row_id: 'x' }, 'x', 0])
    expectClientError(await kit.gwCall('PUT', 'rows/', { json: { table_name: T, updates } }), 400);
  for (const row_ids of ['abc', { a: 1 }, [1, 2], [null], [['x']]])
    expectClientError(await kit.gwCall('DELETE', 'rows/', { json: { table_name: T, row_ids } }), 400);
  for (const rows of [[1], ['x'], [null], [[{ Name: 'x' }]]])
    expectClientError(await kit.gwCall('POST', 'rows/', { json: { table_name: T, rows } }), 400);
  await untouched();
});

test('unknown table, column and row: 404 for tables and rows, 400 for columns', async () => {
  const nope = encodeURIComponent('No Such Table');
  expectClientError(await kit.gwCall('GET', `rows/?table_name=${nope}`), 404);
  expectClientError(await kit.gwCall('GET', `rows/AAAAAAAAAAAAAAAAAAAAAA/?table_name=${nope}`), 404);
  expectClientError(
    await kit.gwCall('POST', 'rows/', { json: { table_name: 'No Such Table', rows: [{ Name: 'x' }] } }),
    404,
  );
  expectClientError(await kit.gwCall('PUT', 'rows/', { json: { table_name: 'No Such Table', updates: [] } }), 404);
  expectClientError(await kit.gwCall('DELETE', 'rows/', { json: { table_name: 'No Such Table', row_ids: [] } }), 404);
  expect(
    expectClientError(
      await kit.gwCall('POST', 'rows/', { json: { table_name: T, rows: [{ Name: 'x', Nope: 1 }] } }),
      400,
    ),
  ).toMatch(/Nope/);
  expect(
    expectClientError(
      await kit.gwCall('PUT', 'rows/', {
        json: { table_name: T, updates: [{ row_id: (await kit.list(T))[0]!._id, row: { Nope: 1 } }] },
      }),
      400,
    ),
  ).toMatch(/Nope/);
  expectClientError(await kit.gwCall('GET', `rows/AAAAAAAAAAAAAAAAAAAAAA/?table_name=${encodeURIComponent(T)}`), 404);
  expectClientError(
    await kit.gwCall('PUT', 'rows/', {
      json: { table_name: T, updates: [{ row_id: 'AAAAAAAAAAAAAAAAAAAAAA', row: { Name: 'ghost' } }] },
    }),
    404,
  );
  expect(
    expectClientError(await kit.gwCall('POST', 'sql/', { json: { sql: 'SELECT * FROM `No Such Table`' } }), 400),
  ).toBe('no such table: No Such Table');
  expect(expectClientError(await kit.gwCall('POST', 'sql/', { json: { sql: `SELECT Nope FROM \`${T}\`` } }), 400)).toBe(
    'no such column: Nope',
  );
  // An unknown base: the token is for another base, so the answer is a 403, not a 5xx.
  expectClientError(
    await call(kit.url, 'GET', '/api-gateway/api/v2/dtables/00000000-0000-0000-0000-000000000000/metadata/', {
      token: kit.token,
    }),
    403,
  );
  await untouched();
});

test('limit and start must be integers in range', async () => {
  const t = encodeURIComponent(T);
  for (const q of [
    'limit=abc',
    'limit=0',
    'limit=-5',
    'limit=1.5',
    'limit=1e3',
    'limit=0x10',
    'start=-1',
    'start=x',
    'start=0.5',
    'start=100000000000000000000',
    'start=1e400',
  ]) {
    expectClientError(await kit.gwCall('GET', `rows/?table_name=${t}&${q}`), 400);
  }
  expect((await kit.gwCall('GET', `rows/?table_name=${t}&limit=1&start=0`)).status).toBe(200);
});

test('injection strings in names and values are data, not SQL', async () => {
  const evil = [
    "x'; DROP TABLE users; --",
    'Robert"); DROP TABLE links;--',
    '`; DELETE FROM bases; --',
    '\u0000nul',
    '${jndi:ldap://x}',
  ];
  for (const s of evil) {
    expectClientError(await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(s)}`), 404);
    expectClientError(
      await kit.gwCall('GET', `rows/${encodeURIComponent(s)}/?table_name=${encodeURIComponent(T)}`),
      404,
    );
    expectClientError(await kit.gwCall('POST', 'rows/', { json: { table_name: T, rows: [{ [s]: 'x' }] } }), 400);
    expectClientError(
      await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(T)}&view_name=${encodeURIComponent(s)}`),
      400,
    );
    const d = await kit.gwCall('DELETE', 'rows/', { json: { table_name: T, row_ids: [s] } });
    expect(d.status).toBe(200);
  }
  await untouched();
  const t = uniq("Evil'); DROP TABLE users; --");
  await kit.createTable(t, [{ column_name: "Col'; DROP TABLE x; --", column_type: 'text' }]);
  await kit.append(
    t,
    evil.map((s) => ({ "Col'; DROP TABLE x; --": s })),
  );
  expect((await kit.list(t)).map((r) => r["Col'; DROP TABLE x; --"])).toEqual(evil);
  expect((await kit.sql(`SELECT COUNT(*) AS n FROM \`${t.replace(/`/g, '``')}\``)).results[0]!.n).toBe(evil.length);
  expect(
    (
      await call(kit.url, 'POST', '/api2/auth-token/', {
        form: { username: kit.srv.ctx.creds.admin.email, password: kit.srv.ctx.creds.admin.password },
      })
    ).status,
  ).toBe(200);
});

test('prototype-polluting keys and deeply nested JSON are refused without harm', async () => {
  expectClientError(
    await raw(
      'POST',
      'rows/',
      `{"table_name": ${JSON.stringify(T)}, "rows": [{"__proto__": {"Name": "polluted"}}]}`,
      'application/json',
    ),
    400,
  );
  expectClientError(
    await raw(
      'POST',
      'rows/',
      `{"table_name": ${JSON.stringify(T)}, "constructor": {"prototype": {"x": 1}}, "rows": []}`,
      'application/json',
    ),
    400,
  );
  const deep = `{"table_name": ${JSON.stringify(T)}, "rows": [{"Name": ${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
  expectClientError(await raw('POST', 'rows/', deep, 'application/json'), 400);
  expect(({} as Record<string, unknown>).Name).toBeUndefined();
  await untouched();
});

test('wrong types beside valid fields, and names no store should take, are 400s', async () => {
  expectClientError(
    await kit.gwCall('POST', 'sql/', { json: { sql: `SELECT * FROM \`${T}\``, convert_keys: 5 } }),
    400,
  );
  expectClientError(
    await kit.gwCall('POST', 'views/', { json: { table_name: T, name: uniq('V'), filter_conjunction: 5 } }),
    400,
  );
  for (const name of ['a\u0000b', 'a\ud800b', 'tab\there', 'x'.repeat(10_000)]) {
    expectClientError(await kit.gwCall('POST', 'tables/', { json: { table_name: name } }), 400);
    expectClientError(
      await kit.gwCall('POST', 'columns/', { json: { table_name: T, column_name: name, column_type: 'text' } }),
      400,
    );
    expectClientError(await kit.gwCall('POST', 'views/', { json: { table_name: T, name } }), 400);
  }
  await untouched();
  expect((await kit.table(T)).views.map((v) => v.name)).toEqual(['Default View']);
});

test('a wrong value type for a column is a 400 naming the column (every type: see shapes SHAPE-7)', async () => {
  for (const row of [
    { N: 'abc' },
    { N: [1] },
    { N: { v: 1 } },
    { Name: 12 },
    { Name: ['a'] },
    { Name: { text: 'x' } },
    { N: true },
  ]) {
    const m = expectClientError(
      await kit.gwCall('POST', 'rows/', { json: { table_name: T, rows: [{ Name: 'fine' }, row] } }),
      400,
    );
    expect(m).toMatch(/Name|N/);
  }
  await untouched();
});

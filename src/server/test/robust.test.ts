/**
 * What the ROBUST family holds the reference server to beyond the generic body handling
 * (malformed.test.ts): documented optional fields a handler does not act on still refuse a
 * wrong type (ROBUST-2); a cell value comes back exactly as written, and one SQLite could not
 * store exactly (a lone surrogate) is refused, writing nothing (ROBUST-4); concurrent
 * appenders and creators (ROBUST-6); and each ROBUST mutant does what its catalog entry says.
 */
import { expect, test } from '@playwright/test';
import { rawCall } from '../../harness/robust/raw-http.js';
import { expectClientError, Kit, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });
test.beforeAll(async () => {
  await kit.createTable('R', [{ column_name: 'Name', column_type: 'text' }]);
});

test('ROBUST-2: a wrong type at apply_default, server_only or anchor_column is a 400', async () => {
  expectClientError(
    await kit.gwCall('POST', 'rows/', { json: { table_name: 'R', rows: [{ Name: 'x' }], apply_default: 'maybe' } }),
    400,
  );
  expectClientError(await kit.gwCall('POST', 'sql/', { json: { sql: 'SELECT * FROM R', server_only: 2 } }), 400);
  expectClientError(
    await kit.gwCall('POST', 'columns/', {
      json: { table_name: 'R', column_name: 'C', column_type: 'text', anchor_column: 12345 },
    }),
    400,
  );
  expect(await kit.count('R')).toBe(0);
  expect((await kit.table('R')).columns.map((c) => c.name)).toEqual(['Name']);
  // The documented types themselves are taken.
  expect((await kit.gwCall('POST', 'rows/', { json: { table_name: 'R', rows: [], apply_default: true } })).status).toBe(
    200,
  );
  expect((await kit.gwCall('POST', 'sql/', { json: { sql: 'SELECT * FROM R', server_only: false } })).status).toBe(200);
});

test('ROBUST-4: NUL and 10,000 characters in a cell read back exactly; a lone surrogate is a 400 and writes nothing', async () => {
  const values = ['\u0000', 'a\u0000b', 'x'.repeat(10_000)];
  const ids = await kit.append(
    'R',
    values.map((Name) => ({ Name })),
  );
  for (const [i, id] of ids.entries()) {
    const r = await kit.gwCall('GET', `rows/${id}/?table_name=R&convert_keys=true`);
    expect(r.body.Name).toBe(values[i]);
  }
  const before = await kit.count('R');
  const bad = await kit.gwCall('POST', 'rows/', {
    json: { table_name: 'R', rows: [{ Name: 'ok' }, { Name: 'a\ud800' }] },
  });
  expect(expectClientError(bad, 400)).toMatch(/lone surrogate/);
  expectClientError(
    await kit.gwCall('PUT', 'rows/', {
      json: { table_name: 'R', updates: [{ row_id: ids[0], row: { Name: '\udfff' } }] },
    }),
    400,
  );
  expect(await kit.count('R')).toBe(before);
});

test('ROBUST-6: 20 concurrent appenders lose and duplicate nothing; of 8 concurrent creates of one name exactly one wins', async () => {
  await kit.createTable('C', [{ column_name: 'Name', column_type: 'text' }]);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, a) =>
      kit.gwCall('POST', 'rows/', {
        json: { table_name: 'C', rows: Array.from({ length: 25 }, (__, i) => ({ Name: `${a}-${i}` })) },
      }),
    ),
  );
  const acknowledged = answers.flatMap((r) => (r.body.row_ids as { _id: string }[]).map((x) => x._id));
  expect(new Set(acknowledged).size).toBe(500);
  expect((await kit.list('C', { limit: 1000 })).map((r) => r._id as string).sort()).toEqual([...acknowledged].sort());
  expect(await kit.count('C')).toBe(500);
  const creates = await Promise.all(
    Array.from({ length: 8 }, () => kit.gwCall('POST', 'tables/', { json: { table_name: 'Same', columns: [] } })),
  );
  expect(creates.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of creates.filter((x) => x.status !== 200)) expectClientError(r);
  expect((await kit.metadata()).tables.filter((t) => t.name === 'Same')).toHaveLength(1);
});

test('ROBUST mutants: the multipart, depth, surrogate, CONNECT and append faults do what their catalog entries say', async () => {
  const faulty = await Kit.start({
    unlimited: true,
    faults: [
      'multipart-no-boundary-500',
      'deep-json-500',
      'surrogate-500',
      'connect-hangs',
      'append-race',
      'wrong-type-500',
    ],
  });
  const quiet = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write; // the faults' 500s are logged with their stacks
  try {
    await faulty.createTable('M', [{ column_name: 'Name', column_type: 'text' }]);
    const noBoundary = await fetch(`${faulty.url}/api2/auth-token/`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: '--x\r\n',
    });
    expect(noBoundary.status).toBe(500);
    expect(
      (
        await faulty.gwCall('POST', 'rows/', {
          raw: `{"table_name":${'['.repeat(100)}${']'.repeat(100)}}`,
          contentType: 'application/json',
        })
      ).status,
    ).toBe(500);
    expect(
      (await faulty.gwCall('POST', 'rows/', { json: { table_name: 'M', rows: [{ Name: 'a\ud800' }] } })).status,
    ).toBe(500);
    expect((await faulty.gwCall('POST', 'rows/', { json: { table_name: 12345, rows: [] } })).status).toBe(500);
    const connect = await rawCall(
      faulty.url,
      { method: 'CONNECT', path: '/ping/' },
      { connectMs: 2_000, answerMs: 1_000 },
    );
    expect(connect.ok ? connect.status : connect.kind).toBe('timeout');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, a) =>
        faulty.gwCall('POST', 'rows/', { json: { table_name: 'M', rows: [{ Name: `${a}` }] } }),
      ),
    );
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(await faulty.count('M')).toBeLessThan(10);
  } finally {
    process.stderr.write = quiet;
    await faulty.close();
  }
});

/** `/ping/`, `/server-info/` (ROUTE-4), the removed endpoints of §4.4 (GONE-1..8), and the legacy families before 5.3. */
import { expect, test } from '@playwright/test';
import { ALL_METHODS, compareVersions, fillPath, REMOVED } from '../../spec/index.js';
import { call, expectClientError, Kit, uniq, fileServer } from './kit.js';

const kit = fileServer();

test('ROUTE-4 /ping/, /api2/ping/ and /server-info/ answer without credentials', async () => {
  for (const path of ['/ping/', '/api2/ping/', '/ping', '/api2/ping']) {
    const r = await call(kit.url, 'GET', path);
    expect(r.status, path).toBe(200);
    expect(r.body, path).toBe('pong');
  }
  const info = await call(kit.url, 'GET', '/server-info/');
  expect(info.status).toBe(200);
  expect(typeof info.body.version).toBe('string');
  expect(typeof info.body.edition).toBe('string');
  expect(info.body).toMatchObject({ edition: 'self-hosted', api_version: '6.2' });
  // Credentials, even bad ones, do not matter there.
  expect((await call(kit.url, 'GET', '/ping/', { token: 'garbage' })).status).toBe(200);
  expect((await call(kit.url, 'GET', '/server-info/', { token: 'garbage' })).status).toBe(200);
});

/** Every probe of every removed endpoint at `version`, with each method and credential. */
async function expectGone(k: Kit, version: string, clause: string) {
  const gone = REMOVED.filter((r) => r.clause === clause);
  expect(gone.length).toBeGreaterThan(0);
  const creds: [string, string | undefined][] = [
    ['none', undefined],
    ['base token', k.token],
    ['account token', k.srv.ctx.creds.admin.token],
    ['API token', k.base.api_token],
  ];
  let probed = 0;
  for (const r of gone) {
    if (compareVersions(version, r.removed) < 0) continue;
    for (const probe of r.probes) {
      const path =
        fillPath(probe.replace(/\?.*$/, ''), {
          base_uuid: k.base.uuid,
          token: 'abcdef0123456789abcd',
          uuid_token: 'abcdef0123456789abcd',
        }) + (probe.includes('?') ? probe.slice(probe.indexOf('?')).replace('{token}', 'abcdef') : '');
      for (const method of ALL_METHODS) {
        for (const [who, token] of creds) {
          const res = await call(k.url, method, path, { token, ...(method === 'GET' ? {} : { json: {} }) });
          expect(res.status, `${clause} ${method} ${path} (${who}): ${res.text}`).toBe(404);
          expect(
            res.headers.get('x-ratelimit-limit'),
            `${method} ${path}: no rate-limit headers on a removed endpoint`,
          ).toBeNull();
          probed++;
        }
      }
    }
  }
  return probed;
}

for (const clause of ['GONE-1', 'GONE-2', 'GONE-3', 'GONE-4', 'GONE-5', 'GONE-6', 'GONE-7', 'GONE-8']) {
  test(`${clause} is not offered: 404 for GET, POST, PUT and DELETE, with and without credentials`, async () => {
    expect(await expectGone(kit, '6.2', clause)).toBeGreaterThan(0);
  });
}

test('GONE-2 GONE-3 removed endpoints are not counted against the rate limit', async () => {
  const before = await kit.gwCall('GET', 'metadata/');
  const remaining = Number(before.headers.get('x-ratelimit-remaining'));
  for (let i = 0; i < 5; i++)
    await call(kit.url, 'GET', `/dtable-server/api/v1/dtables/${kit.base.uuid}/rows/`, { token: kit.token });
  const after = await kit.gwCall('GET', 'metadata/');
  expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
});

test('GONE-4 GONE-5 GONE-6 GONE-7 stay removed at 5.2, where /dtable-server, /dtable-db and the external-link token are still served', async () => {
  const old = await Kit.start({ apiVersion: '5.2' });
  try {
    for (const clause of ['GONE-4', 'GONE-5', 'GONE-6', 'GONE-7'])
      expect(await expectGone(old, '5.2', clause), clause).toBeGreaterThan(0);
    // 5.2 still has the external-link token (removed 6.1) and the legacy families (removed 5.3).
    const link = old.srv.ctx.creds.bases[0]!.external_link;
    const ext = await call(old.url, 'GET', `/api/v2.1/external-link-tokens/${link}/access-token/`);
    expect(ext.status, ext.text).toBe(200);
    expect((await call(old.url, 'GET', '/dtable-server/ping/')).text).toBe('pong');
    const t = uniq('Legacy');
    await old.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
    const legacy = `/dtable-server/api/v1/dtables/${old.base.uuid}`;
    const add = await call(old.url, 'POST', `${legacy}/rows/`, {
      token: old.token,
      json: { table_name: t, row: { Name: 'via dtable-server' } },
    });
    expect(add.status, add.text).toBe(200);
    const list = await call(old.url, 'GET', `${legacy}/rows/?table_name=${encodeURIComponent(t)}&convert_keys=true`, {
      token: old.token,
    });
    expect(list.body.rows.map((r: { Name: string }) => r.Name)).toEqual(['via dtable-server']);
    expect(
      (await call(old.url, 'GET', `${legacy}/metadata/`, { token: old.token })).body.metadata.tables.map(
        (x: { name: string }) => x.name,
      ),
    ).toContain(t);
    const q = await call(old.url, 'POST', `/dtable-db/api/v1/query/${old.base.uuid}/`, {
      token: old.token,
      json: { sql: `SELECT Name FROM \`${t}\``, convert_keys: true },
    });
    expect(q.body.results).toEqual([{ Name: 'via dtable-server' }]);
    // The app-access-token answer names the legacy servers before 5.3.
    const bt = await call(old.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: old.base.api_token });
    expect(bt.body.dtable_server).toBe(`${old.url}/dtable-server/`);
    expect(bt.body.dtable_db).toBe(`${old.url}/dtable-db/`);
  } finally {
    await old.close();
  }
});

test('archive-view names rows by view_name from 6.0 and by a SQL where before', async () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['6.2', { view_name: 'Big' }, { where: 'N > 5' }],
    ['5.2', { where: 'N > 5' }, { view_name: 'Big' }],
  ];
  for (const [version, good, wrong] of cases) {
    const k = version === '6.2' ? kit : await Kit.start({ apiVersion: version });
    try {
      const t = uniq('Archive');
      await k.createTable(t, [
        { column_name: 'Name', column_type: 'text' },
        { column_name: 'N', column_type: 'number' },
      ]);
      await k.gwCall('POST', 'views/', {
        json: {
          table_name: t,
          name: 'Big',
          filters: [{ column_name: 'N', filter_predicate: 'greater', filter_term: 5 }],
        },
      });
      await k.append(t, [
        { Name: 'small', N: 1 },
        { Name: 'big', N: 10 },
      ]);
      expectClientError(await k.gwCall('POST', 'archive-view/', { json: { table_name: t, ...wrong } }), 400);
      const r = await k.gwCall('POST', 'archive-view/', { json: { table_name: t, ...good } });
      expect(r.status, `${version}: ${r.text}`).toBe(200);
      expect(r.body).toMatchObject({ success: true, error_message: '' });
      const rows = await k.list(t);
      // The archived row left the normal rows for the big-data store (BASE-6): SQL still reads it.
      expect(
        rows.map((x) => [x.Name, x._archived]),
        version,
      ).toEqual([['small', false]]);
      expect((await k.sql(`SELECT Name, _archived FROM \`${t}\` ORDER BY Name`)).results, version).toEqual([
        { Name: 'big', _archived: true },
        { Name: 'small', _archived: false },
      ]);
      if (version === '5.2') {
        for (const where of [
          'Nope = 1',
          '1=1) OR (1=1',
          'N > 0; DROP TABLE users',
          'Name IN (SELECT email FROM users)',
        ]) {
          expectClientError(await k.gwCall('POST', 'archive-view/', { json: { table_name: t, where } }), 400);
        }
        expect((await k.list(t)).map((x) => x._archived)).toEqual([false]);
      }
    } finally {
      if (k !== kit) await k.close();
    }
  }
});

/**
 * `--api-version`: the server behaves as the release named, where §9 names a change. The
 * expectations are written out per release here (not derived from versions.ts), so a wrong
 * switch in the facts module fails this test.
 */
import { expect, test } from '@playwright/test';
import { Acct } from './account-kit.js';
import { call, Kit } from './kit.js';

interface Expect {
  scripts: 'scripts_running_limit' | 'scripts_running_total';
  externalLinkToken: boolean;
  legacy: boolean;
  archiveBy: 'view_name' | 'where';
  userFlags: boolean;
  logFilters: boolean;
  automationOption: boolean;
}

// One row per release: scripts field of org info, external-link access token, legacy dtable-server,
// archive by, user flags, log filters, automation option.
const ROWS: [string, Expect['scripts'], boolean, boolean, Expect['archiveBy'], boolean, boolean, boolean][] = [
  ['6.2', 'scripts_running_limit', false, false, 'view_name', true, true, true],
  ['6.1', 'scripts_running_total', false, false, 'view_name', true, true, true],
  ['6.0', 'scripts_running_total', true, false, 'view_name', false, false, false],
  ['5.3', 'scripts_running_total', true, false, 'where', false, false, false],
  ['5.2', 'scripts_running_total', true, true, 'where', false, false, false],
  ['5.0', 'scripts_running_total', true, true, 'where', false, false, false],
  ['4.4', 'scripts_running_total', true, true, 'where', false, false, false],
];
const RELEASES: Record<string, Expect> = Object.fromEntries(
  ROWS.map(([v, scripts, externalLinkToken, legacy, archiveBy, userFlags, logFilters, automationOption]) => [
    v,
    { scripts, externalLinkToken, legacy, archiveBy, userFlags, logFilters, automationOption },
  ]),
);

for (const [version, e] of Object.entries(RELEASES)) {
  test(`VER ${version}: server-info, ACCT-1..4, GONE-1/2/3, ACCT-7 archive as release ${version}`, async () => {
    const a = await Acct.start({ apiVersion: version });
    try {
      const k = new Kit(a.srv);
      k.token = await k.baseToken(k.base.api_token);
      expect((await a.ok('GET', '/server-info/', a.admin)).version).toBe(`${version}.0`);

      const info = await a.ok('GET', '/api/v2.1/org/admin/info/', a.admin);
      expect(
        Object.keys(info).filter((x) => x.startsWith('scripts_running_') && x !== 'scripts_running_count'),
      ).toEqual([e.scripts]);

      const ext = await a.call(
        'GET',
        `/api/v2.1/external-link-tokens/${a.creds.bases[0]!.external_link}/access-token/`,
        undefined,
      );
      expect(ext.status, ext.text).toBe(e.externalLinkToken ? 200 : 404);

      expect((await a.call('GET', '/dtable-server/ping/', undefined)).status).toBe(e.legacy ? 200 : 404);
      // ROUTE-3's per-release fact (src/spec/base-token.ts): the dtable-server while it is served, else the gateway.
      const bt = await call(a.url, 'GET', '/api/v2.1/dtable/app-access-token/', { token: k.base.api_token });
      expect(bt.body, bt.text).toMatchObject({
        use_api_gateway: true,
        dtable_server: expect.stringMatching(e.legacy ? /\/dtable-server\/$/ : /\/api-gateway\/$/),
      });
      const legacySql = await call(a.url, 'POST', `/dtable-db/api/v1/query/${k.base.uuid}/`, {
        token: k.token,
        json: { sql: 'SELECT 1' },
      });
      expect(legacySql.status === 404).toBe(!e.legacy);

      await k.createTable('T', [
        { column_name: 'Name', column_type: 'text' },
        { column_name: 'N', column_type: 'number' },
      ]);
      await k.append('T', [
        { Name: 'a', N: 1 },
        { Name: 'b', N: 2 },
      ]);
      await k.gwCall('POST', 'views/', {
        json: {
          table_name: 'T',
          name: 'Big',
          filters: [{ column_name: 'N', filter_predicate: 'greater', filter_term: 1 }],
        },
      });
      const byView = await call(a.url, 'POST', `/api/v1/dtables/${k.base.uuid}/archive-view/`, {
        token: k.token,
        json: { table_name: 'T', view_name: 'Big' },
      });
      const byWhere = await call(a.url, 'POST', `/api/v1/dtables/${k.base.uuid}/archive-view/`, {
        token: k.token,
        json: { table_name: 'T', where: 'N > 1' },
      });
      expect([byView.status, byWhere.status]).toEqual(e.archiveBy === 'view_name' ? [200, 400] : [400, 200]);

      const user = await a.ok('GET', `/api/v2.1/org/1/admin/users/${a.creds.member.id}/`, a.admin);
      expect('is_active' in user && 'is_org_admin' in user).toBe(e.userFlags);

      const logs = await a.ok('GET', '/api/v2.1/org/1/admin/admin-logs/?operation_group=group&per_page=100', a.admin);
      const groups = new Set(logs.logs.map((l: { operation_group: string }) => l.operation_group));
      expect(groups.size === 1 && groups.has('group')).toBe(e.logFilters);

      const opt = await a.call('PUT', '/api/v2.1/admin/organizations/1/', a.admin, {
        json: { monthly_automation_limit_per_user: 5 },
      });
      expect(opt.status, opt.text).toBe(e.automationOption ? 200 : 400);
    } finally {
      await a.close();
    }
  });
}

test('VER the edition selects the limits: cloud 1000/200/60, dedicated and self-hosted 3000/500/unlimited', async () => {
  for (const [edition, rate] of [
    ['cloud', { account: 1000, gateway: 200, 'auth-token': 60 }],
    ['dedicated', { account: 3000, gateway: 500, 'auth-token': null }],
    ['self-hosted', { account: 3000, gateway: 500, 'auth-token': null }],
  ] as const) {
    const a = await Acct.start({ edition });
    try {
      expect(a.srv.ctx.limits.rate).toEqual(rate);
      expect((await a.ok('GET', '/server-info/', a.admin)).edition).toBe(edition);
      expect((await a.ok('GET', '/api/v2.1/org/admin/info/', a.admin)).api_calls_limit === -1).toBe(
        edition !== 'cloud',
      );
    } finally {
      await a.close();
    }
  }
});

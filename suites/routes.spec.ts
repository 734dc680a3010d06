/**
 * Routes (ROUTE-*): every base and account operation of §4.1/§4.2 exists with its method,
 * generated from the facts module's endpoint table; the families live at their prefixes;
 * ping, server-info and auth-token answer; row list ignores order_by; the gateway's
 * base-unchanged check never serves stale rows.
 */
import {
  BASE_TOKEN_CLIENT_BUILDS_GATEWAY,
  BASE_TOKEN_NAMES_GATEWAY,
  ENDPOINTS,
  endpointEvidence,
  fillPath,
  offeredAt,
  pathParams,
  type Endpoint,
} from '../src/spec/index.js';
import { expectStatus } from '../src/harness/assert.js';
import { withTeamLogo } from '../src/harness/lock.js';
import { readLogo, restoreLogo } from '../src/harness/logo.js';
import { appendAll, listRows, scratchTable } from '../src/harness/tables.js';
import { behaviour, clause, expect, needsAccount, needsAdmin, test, ev } from '../src/harness/test.js';
import type { Auth, Target } from '../src/harness/target.js';
import { routeMissing } from '../src/harness/notfound.js';
import { fixtureTables } from '../src/harness/state.js';

/** Values for path parameters, discovered from the target where the descriptor does not give them. */
async function pathValues(target: Target, ep: Endpoint): Promise<Record<string, string | number> | string> {
  const s = target.state.target;
  const v: Record<string, string | number> = { base_uuid: s.bases[0]!.uuid, base_name: s.bases[0]!.name };
  for (const p of pathParams(ep.path)) {
    if (p in v) continue;
    if (p === 'org_id') {
      if (s.org_id === undefined) return 'needs org_id in the target descriptor';
      v.org_id = s.org_id;
    } else if (p === 'workspace_id') {
      if (s.workspace_id === undefined) return 'needs workspace_id in the target descriptor';
      v.workspace_id = s.workspace_id;
    } else if (p === 'app_token') {
      const r = await target.account('GET', '/api/v2.1/universal-apps/', {}, { expect: [403] });
      const apps =
        r.status === 200 ? (r.json<{ my_managed_apps?: { app_token?: string }[] }>().my_managed_apps ?? []) : [];
      const token = apps.find((a) => a.app_token)?.app_token;
      if (!token) return 'needs a universal app (the account manages none)';
      v.app_token = token;
    } else if (p === 'username' || p === 'user_id') {
      const r = await target.account(
        'GET',
        '/api/v2.1/admin/search-user-by-org-id/',
        {},
        { query: { org_id: s.org_id, query: s.username ?? '' }, expect: [403] },
      );
      const users = r.status === 200 ? (r.json<{ users?: { email?: string }[] }>().users ?? []) : [];
      if (!users[0]?.email) return "needs the account's user id (search-user-by-org-id found none)";
      v[p] = users[0].email;
    } else if (p === 'webhook_id') v.webhook_id = 999_999_999;
    else if (p === 'app_name') v.app_name = 'conformance-no-such-app';
    else if (p === 'row_id') v.row_id = 'AAAAAAAAAAAAAAAAAAAAAA';
    else return `no value for {${p}}`;
  }
  return v;
}

function authFor(ep: Endpoint): Auth {
  switch (ep.credential) {
    case 'base-token':
      return { base: 0 };
    case 'api-token':
      return { api: 0 };
    case 'none':
    case 'external-link':
      return 'none';
    default:
      return 'account';
  }
}

/** The run's fixture table: a base route is probed with it, so a route that exists answers 200 or a 4xx of its own. */
const fixtureTable = (target: Target) => fixtureTables(target.state).types;

function bodyFor(ep: Endpoint, target: Target): unknown {
  if (ep.method === 'GET') return undefined;
  if (ep.family === 'gateway' || ep.family === 'base-v1')
    return { table_name: fixtureTable(target), rows: [], updates: [], row_ids: [], view_name: 'no-such-view' };
  return {};
}

async function exists(target: Target, ep: Endpoint): Promise<void> {
  const values = await pathValues(target, ep);
  test.skip(typeof values === 'string', typeof values === 'string' ? values : '');
  const path = fillPath(ep.path, values as Record<string, string | number>);
  const query = ep.id === 'listRows' ? { table_name: fixtureTable(target), limit: 1 } : undefined;
  const json = bodyFor(ep, target);
  const call = () =>
    target.call({ method: ep.method, path, auth: authFor(ep), json, query, expect: [400, 401, 403, 404, 405] });
  // Probing DELETE/POST org-logo/ changes a real team's logo: read it first, put it back after,
  // while no other check uses the logo (src/harness/lock.ts).
  const r =
    ep.id === 'deleteTeamLogo' || ep.id === 'setTeamLogo'
      ? await withTeamLogo(async () => {
          const logo = await readLogo(target, path);
          const answer = await call();
          if (answer.status < 300) await restoreLogo(target, path, logo);
          return answer;
        })
      : await call();
  const missing = await routeMissing(target, r, path, authFor(ep));
  expect(missing, `${ep.method} ${path}: ${missing} — the operation must exist`).toBeUndefined();
  expect
    .because(OWED_NO_5XX)(r.status, `${ep.method} ${path}: answered ${r.status} to an authorised call`)
    .toBeLessThan(500);
}

/** A 5xx answers no request correctly, whatever the route (RFC 9110 §15.6): owed by every server. */
const OWED_NO_5XX = ev.owed('a 5xx to an authorised call: no correct server answers so (RFC 9110 §15.6)');

const ROUTE1 = ENDPOINTS.filter((e) => e.clauses.includes('ROUTE-1'));
const ROUTE2 = ENDPOINTS.filter((e) => e.clauses.includes('ROUTE-2'));

for (const ep of ROUTE1) {
  test(
    ...clause('ROUTE-1', `${ep.operation}: ${ep.method} ${ep.path} exists`, endpointEvidence(ep, '4.1')),
    async ({ target, state }) => {
      test.skip(!offeredAt(ep, state.apiVersion), `not offered by release ${state.apiVersion}`);
      if (ep.credential === 'admin') needsAdmin(state);
      if (ep.id === 'archiveView') {
        // The real service moved this call to the gateway (api-shapes §7): either path satisfies the clause.
        // release-form: ROUTE-1 asks only that the path exists (any answer but 404 and 405), not for the release's form.
        const gw = ENDPOINTS.find((e) => e.id === 'archiveViewGateway')!;
        const values = { base_uuid: target.base(0).uuid };
        const json = bodyFor(ep, target);
        const missing: string[] = [];
        for (const at of [fillPath(ep.path, values), fillPath(gw.path, values)]) {
          const r = await target.call({
            method: 'POST',
            path: at,
            auth: { base: 0 },
            json,
            expect: [400, 403, 404, 405],
          });
          const why = await routeMissing(target, r, at, { base: 0 });
          if (!why) return;
          missing.push(`${at} ${why}`);
        }
        expect(missing.join('; '), 'POST archive-view is offered at neither path').toBe('');
      }
      await exists(target, ep);
    },
  );
}

for (const ep of ROUTE2) {
  test(
    ...clause('ROUTE-2', `${ep.operation}: ${ep.method} ${ep.path} exists`, endpointEvidence(ep, '4.2')),
    async ({ target, state }) => {
      test.skip(!offeredAt(ep, state.apiVersion), `not offered by release ${state.apiVersion}`);
      needsAccount(state);
      if (ep.credential === 'admin' || ep.credential === 'team-admin') needsAdmin(state);
      await exists(target, ep);
    },
  );
}

test(
  ...clause(
    'ROUTE-3',
    'base operations answer under /api-gateway/api/v2/, account operations under /api/v2.1/',
    ev.spec('1'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    const token = await target.call({ path: '/api/v2.1/dtable/app-access-token/', auth: { api: 0 } });
    expectStatus(
      token,
      200,
      'Get Base-Token (an account-family call under /api/v2.1/)',
      ev.documented('OA62 authentication#getBaseTokenWithApiToken: GET /api/v2.1/dtable/app-access-token/ answers 200'),
    );
    const info = token.json<{ dtable_server?: string; use_api_gateway?: boolean }>();
    // Which server the answer names is the release's (src/spec/base-token.ts): the gateway from
    // 5.3 (documented); before, the dtable-server is served and may be named — a client told
    // use_api_gateway: true builds the gateway's address itself (the official Python client).
    if (info.use_api_gateway !== undefined && behaviour(state).baseTokenServer === 'api-gateway') {
      expect
        .because(BASE_TOKEN_NAMES_GATEWAY)(
          info.dtable_server ?? '',
          `the base token names the gateway as the base server (release ${state.apiVersion})`,
        )
        .toMatch(/\/api-gateway\/?$/);
    } else if (info.use_api_gateway !== undefined) {
      expect
        .because(BASE_TOKEN_CLIENT_BUILDS_GATEWAY)(
          info.dtable_server ?? '',
          `the base token names the dtable-server or the gateway as the base server (release ${state.apiVersion} still serves the dtable-server; told use_api_gateway, the official client goes to the gateway either way)`,
        )
        .toMatch(/\/(dtable-server|api-gateway)\/?$/);
    }
    const meta = await target.gw(0, 'GET', 'metadata/');
    expectStatus(
      meta,
      200,
      'GET /api-gateway/api/v2/dtables/{uuid}/metadata/',
      ev.documented('OA62 base_operations#getMetadata: GET /api-gateway/api/v2/dtables/{base_uuid}/metadata/'),
    );
    const rows = await target.gw(0, 'GET', 'rows/', { query: { table_name: fixtureTable(target), limit: 1 } });
    expectStatus(rows, 200, 'GET /api-gateway/api/v2/dtables/{uuid}/rows/', ev.spec('1, 4.1 (List rows)'));
    const search = await target.account(
      'GET',
      '/api/v2.1/dtable/items-search/',
      {},
      { query: { query_str: 'Conformance' } },
    );
    expect
      .because(ev.spec('1, 4.2 (GET /api/v2.1/dtable/items-search/)'))(
        search.status,
        `GET /api/v2.1/dtable/items-search/ answered ${search.status}`,
      )
      .toBe(200);
  },
);

/** /ping and /server-info exist (§1); that they need no credentials and what they answer is the real service's documentation. */
const PING_AND_INFO = ev.documented(
  'OA43 ping_and_info.yaml (seatable/openapi v4.3): GET /server-info/ "this anonymous call" answers {version, edition} (strings), GET /api2/ping/ without security answers the string pong (api-shapes §4)',
);

test(...clause('ROUTE-4', '/ping/ and /server-info/ answer without credentials', PING_AND_INFO), async ({ target }) => {
  for (const path of ['/ping/', '/server-info/']) {
    const r = await target.call({ path, auth: 'none' });
    expectStatus(r, 200, `GET ${path} without credentials`);
  }
});

test(
  ...clause('ROUTE-4', '/ping/ says pong and /server-info/ gives version and edition as strings', PING_AND_INFO),
  async ({ target }) => {
    const ping = await target.call({ path: '/ping/', auth: 'none' });
    expect(ping.text.replace(/"/g, '').trim(), `/ping/ answered ${ping.text.slice(0, 80)}, not pong`).toBe('pong');
    const info = (await target.call({ path: '/server-info/', auth: 'none' })).json<Record<string, unknown>>();
    expect(typeof info.version, `server-info version: ${JSON.stringify(info.version)}`).toBe('string');
    expect(typeof info.edition, `server-info edition: ${JSON.stringify(info.edition)}`).toBe('string');
  },
);

test(
  ...clause(
    'ROUTE-5',
    '/api2/auth-token/ issues an account token that opens account operations',
    ev.documented(
      'OA62 authentication#getAccountTokenfromUsername: POST /api2/auth-token/, form username and password, answers 200 {"token"} (§1, 5.1: the endpoint issues an account token)',
    ),
  ),
  async ({ target, state }) => {
    test.skip(!state.target.username || !state.target.password, 'needs username and password in the target descriptor');
    const r = await target.call({
      method: 'POST',
      path: '/api2/auth-token/',
      form: { username: state.target.username!, password: state.target.password! },
    });
    expectStatus(r, 200, 'POST /api2/auth-token/');
    const token = r.json<{ token?: unknown }>().token;
    expect(typeof token === 'string' && token.length >= 20, 'the answer carries a token').toBe(true);
    const use = await target.call({
      path: '/api/v2.1/dtable/items-search/',
      query: { query_str: 'x' },
      auth: { raw: `Token ${token as string}` },
    });
    expect
      .because(
        ev.client(
          "seatable-api-python seatable_api/main.py Account.auth and Account.token_headers: the token of /api2/auth-token/ is sent as 'Authorization: Token …' to the account operations",
        ),
      )(use.status, `the issued token opens an account operation (items-search answered ${use.status})`)
      .toBe(200);
  },
);

test(
  ...clause(
    'ROUTE-6',
    'row list ignores order_by and direction',
    ev.spec('4.1 ("The row list endpoint has no order_by or direction options"), 9 (4.4)'),
  ),
  async ({ target, state }) => {
    test.skip(behaviour(state).rowListOrderBy, `release ${state.apiVersion} still has order_by (removed 4.4)`);
    const t = await scratchTable(target, 'order', [{ column_name: 'Name', column_type: 'text' }]);
    try {
      await appendAll(
        target,
        t,
        ['m', 'z', 'a', 'q'].map((Name) => ({ Name })),
      );
      const plain = (await listRows(target, t)).map((r) => r.Name);
      for (const direction of ['asc', 'desc']) {
        const ordered = (await listRows(target, t, { order_by: 'Name', direction, start: 0, limit: 100 })).map(
          (r) => r.Name,
        );
        expect(ordered, `order_by=Name&direction=${direction} changed the order`).toEqual(plain);
      }
    } finally {
      await t.drop();
    }
  },
);

test(
  ...clause(
    'ROUTE-7',
    'a repeated row list after a write, an update and a delete shows the change',
    ev.spec('4.1 (the /api-gateway/ endpoints check whether the base is unchanged since the last request)'),
  ),
  async ({ target }) => {
    const t = await scratchTable(target, 'fresh', [{ column_name: 'Name', column_type: 'text' }]);
    // The row list promises no order (OA62 listRows): rows are compared by id, names as sets.
    const names = async () => (await listRows(target, t)).map((r) => String(r.Name)).sort();
    const byId = (rows: Record<string, unknown>[]) =>
      [...rows].sort((x, y) => String(x._id).localeCompare(String(y._id)));
    try {
      const [id] = await appendAll(target, t, [{ Name: 'first' }]);
      const a = await listRows(target, t);
      const b = await listRows(target, t);
      expect(byId(b), 'an unchanged base answers the same rows twice').toEqual(byId(a));
      await appendAll(target, t, [{ Name: 'second' }]);
      expect(await names(), 'after an append').toEqual(['first', 'second']);
      const u = await target.gw(t.base, 'PUT', 'rows/', {
        json: { table_name: t.name, updates: [{ row_id: id, row: { Name: 'changed' } }] },
      });
      expectStatus(u, 200, 'update');
      expect(await names(), 'after an update').toEqual(['changed', 'second']);
      const single = await target.gw(t.base, 'GET', `rows/${id}/`, {
        query: { table_name: t.name, convert_keys: 'true' },
      });
      expect(single.json<Record<string, unknown>>().Name, 'single-row read after an update').toBe('changed');
      const d = await target.gw(t.base, 'DELETE', 'rows/', { json: { table_name: t.name, row_ids: [id] } });
      expectStatus(d, 200, 'delete');
      expect(await names(), 'after a delete').toEqual(['second']);
    } finally {
      await t.drop();
    }
  },
);

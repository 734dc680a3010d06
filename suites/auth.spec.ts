/**
 * Authentication (AUTH-*): the account token from /api2/auth-token/, Bearer authentication
 * (4.0+), base tokens obtained with an API token and with the account token opening their
 * base's row operations, and refusals — every endpoint of the ENDPOINTS table but the open
 * ones refuses a call without credentials or with a garbage token, and a base token of one
 * base opens no other base.
 */
import { randomBytes } from 'node:crypto';
import { registerSecret } from '../src/client/redact.js';
import { ENDPOINTS, endpoint, endpointEvidence, offeredAt } from '../src/spec/index.js';
import { expectStatus } from '../src/harness/assert.js';
import { isGenericNotFound } from '../src/harness/notfound.js';
import { skipNotOffered } from '../src/harness/offered.js';
import { probeCall } from '../src/harness/probe.js';
import { appendAll, countRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import { fixtureTables } from '../src/harness/state.js';
import type { Auth, Reply, Target } from '../src/harness/target.js';
import { behaviour, clause, expect, needsAccount, needsBases, needsRelease, test, ev } from '../src/harness/test.js';

const AUTH_TOKEN = endpoint('authToken').path;
/** A cheap account operation every release offers, to prove a token works. */
const ACCOUNT_OP = endpoint('listUniversalApps').path;

type Login = Record<string, string>;

/** Refused logins (api-shapes §1.3): wrong password, unknown user, missing password. */
function badLogins(username: string, password: string, runId: string): [string, Login][] {
  return [
    ['a wrong password', { username, password: `${password}-wrong` }],
    ['an unknown user', { username: `conformance-nobody-${runId}@example.invalid`, password }],
    ['a missing password', { username }],
  ];
}

const login = (target: Target, form: Login) =>
  target.call({ method: 'POST', path: AUTH_TOKEN, auth: 'none', form, expect: [400, 401, 403] });

test(
  ...clause(
    'AUTH-1',
    '/api2/auth-token/ issues a working token for valid credentials and refuses a wrong password, an unknown user and a missing password',
    ev.spec('5'),
  ),
  async ({ target, state }) => {
    const { username, password } = state.target;
    test.skip(!username || !password, 'needs username and password in the target descriptor');
    const ok = await login(target, { username: username!, password: password! });
    expectStatus(ok, 200, 'POST /api2/auth-token/ with valid credentials');
    const body = ok.json<Record<string, unknown>>();
    const token = body.token;
    expect
      .because(ev.documented('OA62 authentication#getAccountTokenfromUsername (200 {"token": …}; api-shapes §1.3)'))(
        typeof token === 'string' && token.length >= 20,
        `valid credentials: the answer has no token string (fields: ${Object.keys(body).join(', ') || 'none'})`,
      )
      .toBe(true);
    registerSecret(token as string);
    const use = await target.call({ path: ACCOUNT_OP, auth: { raw: `Token ${token as string}` }, expect: [401, 403] });
    expect
      .because(
        ev.client(
          'seatable-api-python seatable_api/utils.py parse_headers: the account token is sent as "Authorization: Token <token>" (api-shapes §1.2)',
        ),
      )(use.status, `the issued token does not open an account operation: GET ${ACCOUNT_OP} answered ${use.status}`)
      .toBe(200);
    for (const [what, form] of badLogins(username!, password!, state.runId)) {
      const r = await login(target, form);
      expect
        .soft(
          r.status >= 400 && r.status < 500,
          `a login with ${what} answered ${r.status} — must be refused with a 4xx`,
        )
        .toBe(true);
      expect.soft(/"token"\s*:/.test(r.text), `a login with ${what} answered with a token`).toBe(false);
    }
  },
);

test(
  ...clause(
    'AUTH-1',
    'a refused login answers 400 with non_field_errors',
    ev.recorded(
      'seatable/openapi tests/test_auth_errors.py: 400 {"non_field_errors": ["Unable to login with provided credentials."]} (api-shapes §1.3)',
    ),
  ),
  async ({ target, state }) => {
    const { username, password } = state.target;
    test.skip(!username || !password, 'needs username and password in the target descriptor');
    for (const [what, form] of badLogins(username!, password!, state.runId)) {
      const r = await login(target, form);
      expect.soft(r.status, `a login with ${what} answered ${r.status}, not 400`).toBe(400);
      if (r.status !== 400) continue;
      const errors = r.json<{ non_field_errors?: unknown }>().non_field_errors;
      const ok = Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof e === 'string');
      expect
        .soft(ok, `a login with ${what}: body ${r.text.slice(0, 160)} has no non_field_errors list of messages`)
        .toBe(true);
    }
  },
);

test(
  ...clause('AUTH-2', 'an account token is accepted as Authorization: Bearer', ev.spec('5, 9 (4.0)')),
  async ({ target, state }) => {
    needsRelease(state, 'bearerAuth', true, 'Bearer authentication (4.0+)');
    needsAccount(state);
    const token = await target.accountToken();
    const r = await target.call({ path: ACCOUNT_OP, auth: { raw: `Bearer ${token!}` }, expect: [401, 403] });
    expect(
      r.status,
      `GET ${ACCOUNT_OP} with "Authorization: Bearer <account token>" answered ${r.status}: ${r.text.slice(0, 160)}`,
    ).toBe(200);
  },
);

test(
  ...clause('AUTH-2', 'a base token is accepted as Authorization: Bearer', ev.spec('5, 9 (4.0)')),
  async ({ target, state }) => {
    needsRelease(state, 'bearerAuth', true, 'Bearer authentication (4.0+)');
    const token = await target.baseToken(0);
    const path = target.gatewayPath(0, 'rows/');
    const r = await target.call({
      path,
      query: { table_name: fixtureTables(state).types, limit: 1 },
      auth: { raw: `Bearer ${token}` },
      expect: [401, 403],
    });
    expect(
      r.status,
      `GET ${path} with "Authorization: Bearer <base token>" answered ${r.status}: ${r.text.slice(0, 160)}`,
    ).toBe(200);
  },
);

/** Append, list, update, query and delete a row of `t` with `token` alone: each must answer 200. */
async function rowOperations(target: Target, t: Scratch, token: string, how: string): Promise<void> {
  const auth: Auth = { raw: `Token ${token}` };
  const gw = (method: string, sub: string, o: { json?: unknown; query?: Record<string, string | number> } = {}) =>
    target.call({ method, path: target.gatewayPath(t.base, sub), auth, expect: [401, 403], ...o });
  const ok = (r: Reply, what: string) =>
    expect(r.status, `${what} with the base token obtained ${how} answered ${r.status}: ${r.text.slice(0, 160)}`).toBe(
      200,
    );
  const append = await gw('POST', 'rows/', { json: { table_name: t.name, rows: [{ Name: 'first' }] } });
  ok(append, 'append rows (POST rows/)');
  const id = append.json<{ row_ids?: { _id?: string }[] }>().row_ids?.[0]?._id;
  expect(typeof id, `append with the base token obtained ${how}: no row id in ${append.text.slice(0, 160)}`).toBe(
    'string',
  );
  const list = await gw('GET', 'rows/', { query: { table_name: t.name, convert_keys: 'true' } });
  ok(list, 'list rows (GET rows/)');
  expect(
    list.json<{ rows?: { Name?: unknown }[] }>().rows?.map((r) => r.Name),
    `list rows with the base token obtained ${how}`,
  ).toEqual(['first']);
  ok(
    await gw('PUT', 'rows/', { json: { table_name: t.name, updates: [{ row_id: id, row: { Name: 'second' } }] } }),
    'update rows (PUT rows/)',
  );
  const sql = await gw('POST', 'sql/', { json: { sql: `SELECT Name FROM \`${t.name}\``, convert_keys: true } });
  ok(sql, 'SQL (POST sql/)');
  expect(
    sql.json<{ results?: { Name?: unknown }[] }>().results?.map((r) => r.Name),
    `SQL with the base token obtained ${how} reads the update`,
  ).toEqual(['second']);
  ok(await gw('DELETE', 'rows/', { json: { table_name: t.name, row_ids: [id] } }), 'delete rows (DELETE rows/)');
  expect(await countRows(target, t), `rows left after the delete with the base token obtained ${how}`).toBe(0);
}

/** What Get Base-Token answers (either way of obtaining one). */
const BASE_TOKEN_ANSWER = ev.documented(
  'OA62 authentication#getBaseTokenWithApiToken, #getBaseTokenWithAccountToken (access_token, dtable_uuid; api-shapes §1.4, §1.5)',
);

function accessToken(r: Reply, what: string, uuid: string): string {
  expectStatus(r, 200, what);
  const body = r.json<{ access_token?: unknown; dtable_uuid?: unknown }>();
  expect
    .because(BASE_TOKEN_ANSWER)(
      typeof body.access_token === 'string' && body.access_token.length > 0,
      `${what}: no access_token in the answer`,
    )
    .toBe(true);
  registerSecret(body.access_token as string);
  if (body.dtable_uuid !== undefined)
    expect
      .because(BASE_TOKEN_ANSWER)
      .soft(String(body.dtable_uuid).replace(/-/g, ''), `${what}: dtable_uuid names another base`)
      .toBe(uuid.replace(/-/g, ''));
  return body.access_token as string;
}

test(
  ...clause(
    'AUTH-3',
    "a base token obtained with the API token (app-access-token) opens that base's row operations",
    ev.spec('5'),
  ),
  async ({ target }) => {
    const path = endpoint('appAccessToken').path;
    const token = accessToken(
      await target.call({ path, auth: { api: 0 } }),
      `GET ${path} with the API token`,
      target.base(0).uuid,
    );
    const t = await scratchTable(target, 'auth3api');
    try {
      await rowOperations(target, t, token, 'with the API token');
    } finally {
      await t.drop();
    }
  },
);

test(
  ...clause(
    'AUTH-3',
    "a base token obtained with the account token (workspace/{ws}/dtable/{name}/access-token/) opens that base's row operations",
    ev.spec('5'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    test.skip(state.target.workspace_id === undefined, 'needs workspace_id in the target descriptor');
    const ep = endpoint('accountAccessToken');
    const r = await target.account('GET', ep.path, {
      workspace_id: state.target.workspace_id!,
      base_name: target.base(0).name,
    });
    const token = accessToken(r, `GET ${ep.path} with the account token`, target.base(0).uuid);
    const t = await scratchTable(target, 'auth3acct');
    try {
      await rowOperations(target, t, token, 'with the account token');
    } finally {
      await t.drop();
    }
  },
);

// AUTH-4: every endpoint that takes credentials, from the table. The open ones are /ping/,
// /server-info/, /api2/auth-token/ (and the pings of §4 / api-shapes §4); the external-link
// token endpoint (removed 6.1) and the file server's upload take their credential in the
// path and need no header.
const GUARDED = ENDPOINTS.filter(
  (e) => e.credential !== 'none' && e.credential !== 'external-link' && e.credential !== 'upload-link',
);
const garbage = () => randomBytes(20).toString('hex');

for (const ep of GUARDED) {
  test(
    ...clause(
      'AUTH-4',
      `${ep.method} ${ep.path} refuses a call without credentials and with a garbage token`,
      endpointEvidence(ep, 'implied by 5'),
    ),
    async ({ target, state }) => {
      test.skip(!offeredAt(ep, state.apiVersion), `not offered by release ${state.apiVersion}`);
      const tries: [string, Auth][] = [
        ['without credentials', 'none'],
        ['with a garbage token ("Token …")', { raw: `Token ${garbage()}` }],
      ];
      if (behaviour(state).bearerAuth)
        tries.push(['with a garbage token ("Bearer …")', { raw: `Bearer ${garbage()}.${garbage()}` }]);
      for (const [how, auth] of tries) {
        const r = await target.call(probeCall(ep, state, { auth, expect: [401, 403, 404, 405] }));
        if (r.status === 404 || r.status === 405) {
          // The generic 404 of a path that never existed: either the route hides itself from
          // strangers (a refusal) or it is not there at all, as a 405 says (ROUTE-8's verdict,
          // not this clause's: src/harness/offered.ts). A handler's own 404 ("table not found")
          // means the call got through.
          const probe = probeCall(ep, state, { auth });
          await skipNotOffered(target, state, ep, r, probe);
          if (r.status === 404 && (await isGenericNotFound(target, r, probe.path, { auth }))) continue;
        }
        expect
          .soft(
            [401, 403],
            `${ep.method} ${ep.path} ${how} answered ${r.status}: ${r.text.slice(0, 120)} — must be refused with 401 or 403`,
          )
          .toContain(r.status);
      }
    },
  );
}

test(
  ...clause('AUTH-4', 'a base token of base A opens no row operation or SQL on base B', ev.spec('implied by 5')),
  async ({ target, state }) => {
    needsBases(state, 2);
    const t = await scratchTable(target, 'auth4', [{ column_name: 'Name', column_type: 'text' }], 1);
    try {
      const [id] = await appendAll(target, t, [{ Name: 'kept' }]);
      const other: Auth = { base: 0 };
      const calls: [string, string, string, unknown, Record<string, string | number>?][] = [
        ['list rows', 'GET', 'rows/', undefined, { table_name: t.name, convert_keys: 'true' }],
        ['append rows', 'POST', 'rows/', { table_name: t.name, rows: [{ Name: 'intruder' }] }],
        ['update rows', 'PUT', 'rows/', { table_name: t.name, updates: [{ row_id: id, row: { Name: 'changed' } }] }],
        ['delete rows', 'DELETE', 'rows/', { table_name: t.name, row_ids: [id] }],
        ['SQL', 'POST', 'sql/', { sql: `SELECT Name FROM \`${t.name}\``, convert_keys: true }],
      ];
      for (const [what, method, sub, json, query] of calls) {
        const r = await target.call({
          method,
          path: target.gatewayPath(1, sub),
          auth: other,
          json,
          query,
          expect: [400, 401, 403, 404],
        });
        expect
          .soft(
            r.status >= 400 && r.status < 500,
            `${what} on base B with base A's token answered ${r.status}: ${r.text.slice(0, 120)} — must be refused (a 4xx)`,
          )
          .toBe(true);
        expect
          .soft(r.text.includes('kept'), `${what} on base B with base A's token revealed base B's rows`)
          .toBe(false);
      }
      const rows = await target.gw(1, 'GET', 'rows/', { query: { table_name: t.name, convert_keys: 'true' } });
      expect(
        rows.json<{ rows?: { Name?: unknown }[] }>().rows?.map((r) => r.Name),
        "base B's rows after the calls with base A's token: must be unchanged",
      ).toEqual(['kept']);
    } finally {
      await t.drop();
    }
  },
);

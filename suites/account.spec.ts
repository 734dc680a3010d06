/**
 * Account and team operations (ACCT-*): Get Team Info's running-scripts field, the monthly
 * automation option of Update User / Update Team, Get User's flags, the filters of the team
 * logs, the team logo, the external-app status switch, the base export with and without
 * assets, and moving rows to big data by view. Paths and bodies the specification leaves
 * open follow api-shapes.md §7. Checks that change team state put it back afterwards.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { registerSecret } from '../src/client/redact.js';
import { expectClientError, expectStatus } from '../src/harness/assert.js';
import { readZip, tinyPng } from '../src/harness/files.js';
import { withTeamLogo } from '../src/harness/lock.js';
import { extOf, hasLogo, readLogo, uploadLogo, type Logo } from '../src/harness/logo.js';
import { findTableInfo } from '../src/harness/metadata.js';
import { Undecided } from '../src/harness/outcome.js';
import { archiveBody } from '../src/harness/release-forms.js';
import { appendAll, listRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import type { Reply, Target } from '../src/harness/target.js';
import { restored } from '../src/harness/restore.js';
import {
  behaviour,
  clause,
  expect,
  needsAccount,
  needsAdmin,
  needsRelease,
  test,
  warnState,
  ev,
} from '../src/harness/test.js';
import { endpoint, fillPath } from '../src/spec/index.js';
import type { RunState } from '../src/harness/state.js';

const DAY = 86_400_000;
/**
 * A UTC date `days` away from `ms`. Date-only bounds, a day or two away from the instant they
 * must include or exclude, hold whatever time zone the target reads them in (UTC-12 to +14).
 */
const dateOf = (ms: number, days: number) => new Date(ms + days * DAY).toISOString().slice(0, 10);
const path = (id: string, params: Record<string, string | number> = {}) => fillPath(endpoint(id).path, params);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function needsOrg(state: RunState): number {
  test.skip(state.target.org_id === undefined, 'needs org_id in the target descriptor');
  return state.target.org_id!;
}

const userIds = new Map<string, Promise<string>>();

/** The account's user id (`<32 hex>@auth.local`), found with Search User by Team (api-shapes §7). */
function accountUserId(target: Target, state: RunState): Promise<string> {
  const orgId = needsOrg(state);
  test.skip(!state.target.username, "needs username in the target descriptor (to find the account's user id)");
  const username = state.target.username!;
  let p = userIds.get(username);
  if (!p) {
    p = (async () => {
      const r = await target.account(
        'GET',
        path('searchUserByOrgId'),
        {},
        { query: { org_id: orgId, query: username } },
      );
      if (r.status !== 200)
        throw new Undecided('fixture', `search-user-by-org-id answered ${r.status}: cannot find the account's user id`);
      const users = (obj(r.json()).users ?? []) as { email?: string; contact_email?: string }[];
      const me =
        users.find((u) => u.contact_email === username || u.email === username) ??
        (users.length === 1 ? users[0] : undefined);
      if (!me?.email)
        throw new Undecided('fixture', `search-user-by-org-id found no user for the account (${users.length} results)`);
      return me.email;
    })();
    userIds.set(username, p);
    p.catch(() => userIds.delete(username));
  }
  return p;
}

// ACCT-1 ────────────────────────────────────────────────────────────────────────────────

test(
  ...clause(
    'ACCT-1',
    'Get Team Info has scripts_running_limit (6.2+; scripts_running_total before), not the other name',
    ev.spec('2, 4.3, 9 (6.2: scripts_running_total renamed scripts_running_limit)'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    needsAdmin(state);
    const field = behaviour(state).scriptsRunningField;
    const other = field === 'scripts_running_limit' ? 'scripts_running_total' : 'scripts_running_limit';
    const r = await target.account('GET', path('getTeamInfo'));
    expectStatus(r, 200, 'Get Team Info');
    const info = obj(r.json());
    // The real service shows the field only where its scripts service is configured (6.x): absence of both is no verdict.
    test.skip(
      !(field in info) && !(other in info),
      `Get Team Info carries neither ${field} nor ${other}: the field appears only where the target's scripts service is configured`,
    );
    expect
      .soft(
        other in info,
        `Get Team Info carries ${other}: release ${state.apiVersion} names the field ${field} (renamed in 6.2)`,
      )
      .toBe(false);
    expect
      .soft(
        field in info,
        `Get Team Info has no ${field}, which release ${state.apiVersion} names (fields: ${Object.keys(info).join(', ')})`,
      )
      .toBe(true);
  },
);

// ACCT-2 ────────────────────────────────────────────────────────────────────────────────

/** A number field of an answer, also when nested one level down (`{"user": {...}}`). */
function automationLimitOf(body: unknown): number | undefined {
  const b = obj(body);
  const v =
    'monthly_automation_limit_per_user' in b
      ? b.monthly_automation_limit_per_user
      : Object.values(b)
          .map(obj)
          .find((x) => 'monthly_automation_limit_per_user' in x)?.monthly_automation_limit_per_user;
  return v === undefined || v === null || v === '' ? undefined : Number(v);
}

/** The option's read-back: the API description's Update User / Update Team answers carry it (OA62 example: 1000). */
const READ_BACK = ev.documented(
  'OA62 system_admin_account_operations#updateUser, #updateTeam (the 200 answer carries monthly_automation_limit_per_user)',
);

/** PUT the option, then read it back from the answer or, failing that, a GET of the same path; put the original back. */
async function automationOption(target: Target, label: string, where: string): Promise<void> {
  const before = await target.call({ path: where, auth: 'account', expect: [404, 405] });
  const original = before.status === 200 ? automationLimitOf(before.json()) : undefined;
  let value = randomInt(1000, 10_000);
  if (value === original) value++;
  const put = await target.call({
    method: 'PUT',
    path: where,
    auth: 'account',
    json: { monthly_automation_limit_per_user: value },
  });
  try {
    expectStatus(put, [200, 201], `${label} with monthly_automation_limit_per_user=${value}`);
    let readBack = automationLimitOf(put.json());
    if (readBack === undefined) {
      const after = await target.call({ path: where, auth: 'account', expect: [404, 405] });
      if (after.status === 200) readBack = automationLimitOf(after.json());
    }
    expect
      .because(READ_BACK)(
        readBack,
        `${label}: monthly_automation_limit_per_user=${value} was accepted but reads back ${readBack === undefined ? 'nowhere (neither in the answer nor from GET of the same path)' : readBack}`,
      )
      .toBe(value);
  } finally {
    if (put.status < 300) {
      // The original, where the target lets it be read; else -1 (unlimited, the default's meaning).
      const back = original ?? -1;
      await restored(`${label}: monthly_automation_limit_per_user back to ${back}`, () =>
        target.call({
          method: 'PUT',
          path: where,
          auth: 'account',
          json: { monthly_automation_limit_per_user: back },
          expect: [400],
        }),
      );
      if (original === undefined)
        warnState(
          `${label}: the original monthly_automation_limit_per_user could not be read; it was left at -1`,
          false,
        );
    }
  }
}

test(
  ...clause(
    'ACCT-2',
    'Update User (system admin) accepts monthly_automation_limit_per_user and it reads back',
    ev.spec('4.3, 9 (6.1)'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    needsAdmin(state);
    needsRelease(
      state,
      'monthlyAutomationLimitOption',
      true,
      'Update User gains monthly_automation_limit_per_user in 6.1',
    );
    const userId = await accountUserId(target, state);
    await automationOption(target, 'Update User', path('updateUser', { user_id: userId }));
  },
);

test(
  ...clause(
    'ACCT-2',
    'Update Team (system admin) accepts monthly_automation_limit_per_user and it reads back',
    ev.spec('4.3, 9 (6.1)'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    needsAdmin(state);
    needsRelease(
      state,
      'monthlyAutomationLimitOption',
      true,
      'Update Team gains monthly_automation_limit_per_user in 6.1',
    );
    await automationOption(target, 'Update Team', path('updateTeam', { org_id: needsOrg(state) }));
  },
);

// ACCT-3 ────────────────────────────────────────────────────────────────────────────────

async function teamUser(target: Target, state: RunState): Promise<Record<string, unknown>> {
  needsAccount(state);
  needsAdmin(state);
  needsRelease(state, 'teamAdminUserFlags', true, 'Get User (team admin) gains is_active and is_org_admin in 6.1');
  const userId = await accountUserId(target, state);
  const r = await target.account('GET', path('getTeamUser', { org_id: needsOrg(state), user_id: userId }));
  expectStatus(r, 200, 'Get User (team admin)');
  return obj(r.json());
}

test(
  ...clause('ACCT-3', 'Get User (team admin) has is_active and is_org_admin', ev.spec('4.3, 9 (6.1)')),
  async ({ target, state }) => {
    const u = await teamUser(target, state);
    for (const f of ['is_active', 'is_org_admin'])
      expect.soft(f in u, `Get User (team admin) has no ${f} (fields: ${Object.keys(u).join(', ')})`).toBe(true);
  },
);

test(
  ...clause(
    'ACCT-3',
    'Get User (team admin): is_active and is_org_admin are booleans, true for the active team admin asking',
    ev.spec('4.3, 9 (6.1)'),
  ),
  async ({ target, state }) => {
    const u = await teamUser(target, state);
    for (const f of ['is_active', 'is_org_admin']) {
      expect
        .soft(u[f], `Get User (team admin) of the calling team admin: ${f} is ${JSON.stringify(u[f])}, expected true`)
        .toBe(true);
    }
  },
);

// ACCT-4 ────────────────────────────────────────────────────────────────────────────────

type Entry = Record<string, unknown>;

async function listLog(
  target: Target,
  id: 'listTeamOperations' | 'listTeamLogins',
  orgId: number,
  query: Record<string, string>,
): Promise<Entry[]> {
  const r = await target.account('GET', path(id, { org_id: orgId }), {}, { query: { per_page: 100, ...query } });
  const what = `${endpoint(id).operation} ?${new URLSearchParams(query).toString()}`;
  expectStatus(r, 200, what);
  const list = obj(r.json())[id === 'listTeamOperations' ? 'logs' : 'login_list'];
  expect
    .because(LOG_ANSWER)(
      Array.isArray(list),
      `${what}: answer has no ${id === 'listTeamOperations' ? 'logs' : 'login_list'} array`,
    )
    .toBe(true);
  return (list as unknown[]).map(obj);
}

/** The logs' answers as the API description shows them (a `logs` / `login_list` array; ISO date-times). */
const LOG_ANSWER = ev.documented(
  'OA62 team_admin_account_operations#listTeamOperationLog, #listTeamLogins (answer examples: logs[].datetime, login_list[].login_time, ISO date-times)',
);
/** How the operation groups relate: our reading, not a source's. */
const GROUPS_DISJOINT = ev.inferred(
  'OA62 listTeamOperationLog documents operation_group (user, group, base) as a filter; that every operation belongs to exactly one of these groups is our reading',
);

const opKey = (e: Entry) => JSON.stringify([e.email, e.operation, e.datetime, e.detail]);
const loginKey = (e: Entry) => JSON.stringify([e.login_time, e.login_ip, e.email, e.login_success]);
const timeOf = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);

test(
  ...clause('ACCT-4', 'List Team Operations filters by operation_group, start and end', ev.spec('4.3, 9 (6.1)')),
  async ({ target, state }) => {
    needsAccount(state);
    needsAdmin(state);
    needsRelease(state, 'teamLogFilters', true, 'List Team Operations gains operation_group, start, end in 6.1');
    const orgId = needsOrg(state);
    // A fresh operation of the team, where the target allows it: the admin renames a user to its own name.
    const userId = state.target.username ? await accountUserId(target, state).catch(() => undefined) : undefined;
    if (userId) {
      const u = await target.account(
        'GET',
        path('getTeamUser', { org_id: orgId, user_id: userId }),
        {},
        { expect: [403, 404] },
      );
      const name = u.status === 200 ? obj(u.json()).name : undefined;
      if (typeof name === 'string' && name) {
        const form = new FormData();
        form.append('name', name);
        await target.account(
          'PUT',
          path('updateTeamUser', { org_id: orgId, user_id: userId }),
          {},
          { multipart: form, expect: [400, 403, 404] },
        );
      }
    }
    const all = await listLog(target, 'listTeamOperations', orgId, {});
    if (all.length === 0) throw new Undecided('fixture', 'the team operation log is empty: there is nothing to filter');
    const newest = all.reduce((a, b) => (timeOf(b.datetime) > timeOf(a.datetime) ? b : a));
    const at = timeOf(newest.datetime);
    expect
      .because(LOG_ANSWER)(
        Number.isFinite(at),
        `List Team Operations: datetime ${JSON.stringify(newest.datetime)} is not an ISO date-time`,
      )
      .toBe(true);
    const has = (list: Entry[]) => list.some((e) => opKey(e) === opKey(newest));
    const label = `the operation "${String(newest.operation)}" of ${String(newest.datetime)}`;

    const around = await listLog(target, 'listTeamOperations', orgId, { start: dateOf(at, -1), end: dateOf(at, 2) });
    expect.soft(has(around), `start=${dateOf(at, -1)}&end=${dateOf(at, 2)} leaves out ${label}`).toBe(true);
    const endBefore = await listLog(target, 'listTeamOperations', orgId, { end: dateOf(at, -2) });
    expect.soft(has(endBefore), `end=${dateOf(at, -2)} still lists ${label}: end does not filter`).toBe(false);
    const late = endBefore.filter((e) => timeOf(e.datetime) > at - DAY / 2);
    expect
      .soft(
        late.length,
        `end=${dateOf(at, -2)} lists ${late.length} operation(s) dated after it, e.g. ${String(late[0]?.datetime)}`,
      )
      .toBe(0);
    const startAfter = await listLog(target, 'listTeamOperations', orgId, { start: dateOf(at, 2) });
    expect.soft(has(startAfter), `start=${dateOf(at, 2)} still lists ${label}: start does not filter`).toBe(false);

    const groups = ['user', 'group', 'base'] as const;
    const byGroup = new Map<string, Entry[]>();
    for (const g of groups) {
      const list = await listLog(target, 'listTeamOperations', orgId, { operation_group: g });
      const wrong = list.filter((e) => 'operation_group' in e && e.operation_group !== g);
      expect
        .soft(
          wrong.length,
          `operation_group=${g} lists ${wrong.length} operation(s) of another group, e.g. ${JSON.stringify(wrong[0]?.operation_group)}`,
        )
        .toBe(0);
      byGroup.set(g, list);
    }
    const inGroups = groups.filter((g) => has(byGroup.get(g)!));
    // The filter must filter: every group answering the whole log is a filter ignored.
    const allKeys = new Set(all.map(opKey));
    const whole = groups.filter((g) => {
      const keys = new Set(byGroup.get(g)!.map(opKey));
      return keys.size === allKeys.size && [...allKeys].every((k) => keys.has(k));
    });
    expect
      .soft(
        whole.length,
        `operation_group=user, group and base each list the whole unfiltered log (${all.length} operation(s)): the group filter does not filter`,
      )
      .toBeLessThan(groups.length);
    expect
      .because(GROUPS_DISJOINT)
      .soft(
        inGroups.length,
        `${label} is listed under ${inGroups.length} of the groups user, group, base (${inGroups.join(', ') || 'none'}): each operation belongs to exactly one`,
      )
      .toBe(1);
    for (const [i, a] of groups.entries()) {
      for (const b of groups.slice(i + 1)) {
        const keys = new Set(byGroup.get(a)!.map(opKey));
        const shared = byGroup.get(b)!.filter((e) => keys.has(opKey(e)));
        expect
          .because(GROUPS_DISJOINT)
          .soft(
            shared.length,
            `operation_group=${a} and operation_group=${b} both list ${shared.length} operation(s): the group filter does not filter`,
          )
          .toBe(0);
      }
    }
  },
);

test(
  ...clause(
    'ACCT-4',
    'List Team Logins filters by login_status, start and end: a fresh login shows only where it belongs',
    ev.spec('4.3, 9 (6.1)'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    needsAdmin(state);
    needsRelease(state, 'teamLogFilters', true, 'List Team Logins gains login_status, start, end in 6.1');
    const orgId = needsOrg(state);
    test.skip(
      !state.target.username || !state.target.password,
      'needs username and password in the target descriptor (the check logs in)',
    );
    const username = state.target.username!;
    const userId = await accountUserId(target, state);
    const mine = (e: Entry) => e.email === userId || e.email === username || e.contact_email === username;
    const now = Date.now();
    const range = { start: dateOf(now, -1), end: dateOf(now, 2) };
    // `login_status` is the specification's name; the real service reads `status` (api-shapes §7): send both.
    const status = (s: string) => ({ login_status: s, status: s });
    const before = new Set(
      (await listLog(target, 'listTeamLogins', orgId, { ...range, ...status('success') })).map(loginKey),
    );
    const login = await target.call({
      method: 'POST',
      path: endpoint('authToken').path,
      form: { username, password: state.target.password! },
    });
    if (login.status !== 200)
      throw new Undecided('fixture', `log in through /api2/auth-token/: status ${login.status}`);

    let fresh: Entry[] = [];
    let after: Entry[] = [];
    for (let i = 0; i < 3 && fresh.length === 0; i++) {
      if (i) await new Promise((r) => setTimeout(r, 1000));
      after = await listLog(target, 'listTeamLogins', orgId, { ...range, ...status('success') });
      fresh = after.filter((e) => !before.has(loginKey(e)) && mine(e));
    }
    expect
      .because(
        ev.inferred(
          'OA62 listTeamLogins "retrieves the login activities of all team members"; that a login through /api2/auth-token/ (not the web login) is one of them is our reading',
        ),
      )(
        fresh.length,
        `a login through /api2/auth-token/ does not show in List Team Logins with login_status=success&start=${range.start}&end=${range.end}`,
      )
      .toBeGreaterThan(0);
    const failed = after.filter((e) => e.login_success === false);
    expect.soft(failed.length, `login_status=success lists ${failed.length} failed login(s)`).toBe(0);
    const isFresh = (list: Entry[]) => list.some((e) => fresh.some((f) => loginKey(f) === loginKey(e)));

    const endBefore = await listLog(target, 'listTeamLogins', orgId, { end: dateOf(now, -2), ...status('success') });
    expect
      .soft(isFresh(endBefore), `end=${dateOf(now, -2)} still lists the login just made: end does not filter`)
      .toBe(false);
    const late = endBefore.filter((e) => timeOf(e.login_time) > now - DAY / 2);
    expect
      .soft(
        late.length,
        `end=${dateOf(now, -2)} lists ${late.length} login(s) dated after it, e.g. ${String(late[0]?.login_time)}`,
      )
      .toBe(0);
    const startAfter = await listLog(target, 'listTeamLogins', orgId, { start: dateOf(now, 2) });
    expect
      .soft(isFresh(startAfter), `start=${dateOf(now, 2)} still lists the login just made: start does not filter`)
      .toBe(false);
    const failures = await listLog(target, 'listTeamLogins', orgId, { ...range, ...status('failure') });
    expect.soft(isFresh(failures), 'login_status=failure lists the successful login just made').toBe(false);
    const succeeded = failures.filter((e) => e.login_success === true);
    expect.soft(succeeded.length, `login_status=failure lists ${succeeded.length} successful login(s)`).toBe(0);
  },
);

// ACCT-5 ────────────────────────────────────────────────────────────────────────────────

test(
  ...clause(
    'ACCT-5',
    'team logo: set (multipart file), get the same image, delete (then get shows none)',
    ev.spec('4.2'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    needsAdmin(state);
    const at = path('getTeamLogo', { org_id: needsOrg(state) });
    // Other checks change the logo and put it back (ROUTE-2, SHAPE-8): one at a time.
    await withTeamLogo(async () => {
      const original = await readLogo(target, at);
      const png = tinyPng([randomInt(256), randomInt(256), randomInt(256)]);
      try {
        let got: Logo | undefined;
        // Another check of the run may probe DELETE org-logo at the same moment: one second try.
        for (let i = 0; i < 2 && !(got && hasLogo(got)); i++) {
          const set = await uploadLogo(target, at, png);
          expectStatus(set, [200, 201], 'set the team logo (POST org-logo/, multipart file)');
          got = await readLogo(target, at);
        }
        expect(hasLogo(got!), `after setting a logo, GET org-logo/ shows none (status ${got!.status})`).toBe(true);
        if (got!.bytes)
          expect
            .because(
              ev.inferred(
                'OA62 team_admin_account_operations#getTeamLogo gives the logo_path only; that the image is served byte for byte as uploaded (not re-encoded) is our reading',
              ),
            )(
              got!.bytes.equals(png),
              `GET org-logo/ serves ${got!.bytes.length} bytes that are not the ${png.length}-byte PNG just uploaded`,
            )
            .toBe(true);
        else
          test.info().annotations.push({
            type: 'note',
            description: `the logo path ${got!.path} is not served by the target at a known place: bytes not compared`,
          });

        const del = await target.call({ method: 'DELETE', path: at, auth: 'account' });
        expectStatus(del, [200, 204], 'delete the team logo');
        const gone = await readLogo(target, at);
        expect(gone.status === 404 || !gone.path, `after DELETE org-logo/, GET still names a logo: ${gone.path}`).toBe(
          true,
        );
        expect(gone.bytes?.equals(png) ?? false, 'after DELETE org-logo/, the deleted image is still served').toBe(
          false,
        );
      } finally {
        if (original.bytes)
          await restored('the team logo put back', () =>
            uploadLogo(target, at, original.bytes!, extOf(original.bytes!)),
          );
        else if (original.path)
          warnState(`the team had a logo (${original.path}) whose bytes could not be read: it was not put back`);
      }
    });
  },
);

// ACCT-6 ────────────────────────────────────────────────────────────────────────────────

test(
  ...clause('ACCT-6', 'external app status switches inactive and back to active', ev.spec('3, 4.2')),
  async ({ target, state }) => {
    needsAccount(state);
    needsRelease(state, 'appStatus', true, 'app status added in 4.2');
    const apps = await target.account('GET', path('listUniversalApps'));
    expectStatus(apps, 200, 'List Universal Apps (to find an app token)');
    const token = ((obj(apps.json()).my_managed_apps ?? []) as { app_token?: string }[]).find(
      (a) => a.app_token,
    )?.app_token;
    test.skip(!token, 'needs a universal app the account manages');
    registerSecret(token);
    const at = path('externalAppStatus', { app_token: token! });
    let last: boolean | undefined;
    const set = async (inactive: boolean) => {
      const r = await target.call({ method: 'PUT', path: at, auth: 'account', json: { is_inactive: inactive } });
      expectStatus(r, 200, `PUT external-apps/{token}/status/ {"is_inactive": ${inactive}}`);
      last = inactive;
      const app = obj(obj(r.json()).external_app);
      const shown = 'inactive' in app ? app.inactive : app.is_inactive;
      expect
        .because(ev.documented('OA62 user_account_operations#changeAppStatus (the answer external_app.inactive)'))(
          shown,
          `after {"is_inactive": ${inactive}} the app reads inactive=${JSON.stringify(shown)}`,
        )
        .toBe(inactive);
    };
    try {
      await set(true);
      await set(false);
    } finally {
      // The status cannot be read without writing it: the check leaves the app active, as apps start.
      if (last !== false)
        await restored('the external app set active again', () =>
          target.call({ method: 'PUT', path: at, auth: 'account', json: { is_inactive: false } }),
        );
    }
  },
);

// ACCT-7 ────────────────────────────────────────────────────────────────────────────────

/** Put a small file of our own into the base's assets (its custom folder), so the base surely has one. */
async function addAsset(target: Target, name: string): Promise<boolean> {
  const link = await target.call({
    path: path('customUploadLink'),
    auth: { api: 0 },
    query: { path: '/' },
    expect: [400, 403, 404],
  });
  if (link.status !== 200) return false;
  // The OpenAPI wraps the link in `dirent`; the Python client reads it unwrapped: take either.
  const body = obj(link.json());
  const l = 'dirent' in body ? obj(body.dirent) : body;
  if (typeof l.upload_link !== 'string') return false;
  const form = new FormData();
  form.append('file', new Blob([`conformance asset ${name}\n`], { type: 'text/plain' }), name);
  if (typeof l.parent_path === 'string') form.append('parent_dir', l.parent_path);
  if (typeof l.relative_path === 'string') form.append('relative_path', l.relative_path);
  form.append('replace', '1');
  const up = await target.call({
    method: 'POST',
    path: l.upload_link,
    auth: 'none',
    multipart: form,
    expect: [400, 403, 404],
  });
  return up.status === 200;
}

async function exportBase(target: Target, ignoreAsset?: boolean) {
  const r = await target.call({
    path: path('exportBase', { base_uuid: target.base(0).uuid }),
    auth: 'account',
    query: ignoreAsset === undefined ? undefined : { ignore_asset: String(ignoreAsset) },
    headers: { accept: '*/*' }, // the admin path answers 406 to Accept: application/x-zip-compressed (api-shapes §7)
  });
  const what = `export base${ignoreAsset === undefined ? '' : ` with ignore_asset=${ignoreAsset}`}`;
  expectStatus(r, 200, what);
  const entries = await readZip(r.res.body);
  expect
    .because(
      ev.documented('OA62 system_admin_account_operations#exportBase (the answer is application/x-zip-compressed)'),
    )(typeof entries === 'string' ? entries : 'ok', `${what}: the ${r.res.body.length}-byte answer is not a valid zip`)
    .toBe('ok');
  return entries as Exclude<typeof entries, string>;
}

test(
  ...clause(
    'ACCT-7',
    'export a base with and without assets: two valid zips, only the first with the asset files',
    ev.spec('4.1, 9'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    needsAdmin(state);
    if (!behaviour(state).exportAssetOption) {
      await exportBase(target);
      return;
    }
    const name = `${state.tablePrefix}asset_${randomBytes(3).toString('hex')}.txt`;
    const added = await addAsset(target, name);
    const withAssets = await exportBase(target, false);
    const without = await exportBase(target, true);
    const names = new Set(without.map((e) => e.name));
    const extra = withAssets.filter((e) => !names.has(e.name) && e.size > 0);
    if (!added && extra.length === 0)
      throw new Undecided(
        'fixture',
        'both exports hold the same files and no asset could be added to base #1 (custom folder upload failed): cannot tell whether ignore_asset works',
      );
    expect(
      extra.length,
      `the export with assets (${withAssets.length} entries) holds no file that the export with ignore_asset=true (${without.length} entries) lacks${added ? `, though the base holds the asset ${name} this check uploaded` : ''}`,
    ).toBeGreaterThan(0);
    if (added) {
      const leaked = without.filter((e) => e.name.endsWith(name));
      expect
        .soft(
          leaked.map((e) => e.name),
          'the export with ignore_asset=true still carries the asset this check uploaded',
        )
        .toEqual([]);
    }
  },
);

/** Move rows to big data: the specification's path, else the gateway's (api-shapes §7: 6.x serves it there). */
async function archive(
  target: Target,
  t: Scratch,
  body: Record<string, unknown>,
  expectStatuses: number[] = [],
): Promise<Reply> {
  // release-form: the caller's body (archiveBody, or a form a check sends on purpose).
  const json = { table_name: t.name, ...body };
  const uuid = target.base(t.base).uuid;
  const gw = await target.call({
    method: 'POST',
    path: path('archiveViewGateway', { base_uuid: uuid }),
    auth: { base: t.base },
    json,
    expect: [404, ...expectStatuses],
  });
  if (gw.status !== 404) return gw;
  return target.call({
    method: 'POST',
    path: path('archiveView', { base_uuid: uuid }),
    auth: { base: t.base },
    json,
    expect: expectStatuses,
  });
}

const ARCHIVE_ROWS = [
  { Name: 'keep-1', N: 1 },
  { Name: 'move-1', N: 11 },
  { Name: 'keep-2', N: 2 },
  { Name: 'move-2', N: 12 },
  { Name: 'move-3', N: 13 },
];
const names = (rows: Record<string, unknown>[]) => rows.map((r) => r.Name).sort();

/** A view of `t` showing the rows with N ≥ 10, checked through the row list. */
async function filteredView(target: Target, t: Scratch, view: string): Promise<void> {
  const table = await findTableInfo(target, t.name, t.base);
  const key = table?.columns.find((c) => c.name === 'N')?.key;
  const filters = [{ column_key: key, column_name: 'N', filter_predicate: 'greater_or_equal', filter_term: 10 }];
  const created = await target.gw(t.base, 'POST', 'views/', {
    json: { table_name: t.name, name: view, type: 'table', filters, filter_conjunction: 'And' },
  });
  if (created.status !== 200 && created.status !== 201)
    throw new Undecided('fixture', `create view: status ${created.status}: ${created.text.slice(0, 200)}`);
  const want = ['move-1', 'move-2', 'move-3'];
  let shown = names(await listRows(target, t, { view_name: view }));
  if (JSON.stringify(shown) !== JSON.stringify(want)) {
    await target.gw(t.base, 'PUT', `views/${encodeURIComponent(view)}/`, {
      json: { table_name: t.name, filters, filter_conjunction: 'And' },
      expect: [400, 404, 405],
    });
    shown = names(await listRows(target, t, { view_name: view }));
  }
  if (JSON.stringify(shown) !== JSON.stringify(want))
    throw new Undecided('fixture', `could not make a view with the filter N >= 10: it shows ${JSON.stringify(shown)}`);
}

test(
  ...clause(
    'ACCT-7',
    "move rows to big data in the release's form (by view_name from 6.0, by a raw SQL condition before): the rows it names are archived, the others untouched",
    ev.spec('4.1, 9'),
  ),
  async ({ target, state }) => {
    const t = await scratchTable(target, 'archive', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'N', column_type: 'number' },
    ]);
    try {
      await appendAll(target, t, ARCHIVE_ROWS);
      await filteredView(target, t, 'to big data');
      const body = archiveBody(state.apiVersion, t.name, { view: 'to big data', where: '`N` >= 10' });
      const r = await archive(target, t, body);
      expectStatus(
        r,
        200,
        `archive-view with ${Object.keys(body).join(' and ')} (the form of release ${state.apiVersion})`,
      );
      expect(obj(r.json()).success, `archive-view answered ${r.text.slice(0, 200)}`).not.toBe(false);
      const rows = await listRows(target, t, { limit: 1000 });
      const byName = new Map(rows.map((row) => [row.Name as string, row]));
      for (const { Name } of ARCHIVE_ROWS) {
        const row = byName.get(Name);
        if (Name.startsWith('move'))
          expect
            .soft(
              row === undefined || row._archived === true,
              `row ${Name} (in the view) still reads _archived=${JSON.stringify(row?._archived)} after archiving the view`,
            )
            .toBe(true);
        else
          expect
            .soft(
              row !== undefined && row._archived !== true,
              `row ${Name} (not in the view) ${row ? 'was archived' : 'is gone'} after archiving the view`,
            )
            .toBe(true);
      }
    } finally {
      await t.drop();
    }
  },
);

test(
  ...clause('ACCT-7', 'move rows to big data refuses a raw SQL condition without view_name (6.0+)', ev.spec('4.1, 9')),
  async ({ target, state }) => {
    needsRelease(
      state,
      'archiveByViewName',
      true,
      'Move Rows to Big Data takes view_name instead of a raw SQL query from 6.0',
    );
    const t = await scratchTable(target, 'archsql', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'N', column_type: 'number' },
    ]);
    try {
      await appendAll(target, t, ARCHIVE_ROWS);
      const where = '`N` >= 10';
      const r = await archive(target, t, { where, query: where }, [400, 403, 404]);
      expectClientError(
        r,
        'archive-view with a raw SQL where and no view_name',
        ev.inferred(
          '§9 (6.0): Move Rows to Big Data takes view_name instead of a raw SQL query; that the old form is refused with a 4xx (not ignored) is our reading — what it must not do is move rows',
        ),
      );
      const rows = await listRows(target, t, { limit: 1000 });
      expect(
        names(rows.filter((row) => row._archived !== true)),
        'archive-view with a raw SQL where (refused or not) moved rows to big data',
      ).toEqual(names(ARCHIVE_ROWS));
    } finally {
      await t.drop();
    }
  },
);

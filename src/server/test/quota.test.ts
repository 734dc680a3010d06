/** The monthly API quota of the cloud edition (RATE-8), with an injectable clock and a small configured formula. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Acct } from './account-kit.js';
import { call } from './kit.js';

const formula = {
  base: { org_default: 5, org_plus: 20, org_enterprise: 100 },
  perUser: { org_default: 2, org_plus: 5, org_enterprise: 10 },
};

function configFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'quota-')), 'limits.json');
  writeFileSync(file, JSON.stringify({ monthly_quota: formula }));
  return file;
}

/** A base token of team 2's base, from its team admin's account token. */
async function otherTeamToken(a: Acct): Promise<{ token: string; uuid: string }> {
  const r = await a.ok(
    'GET',
    `/api/v2.1/workspace/2/dtable/${encodeURIComponent('Other Team Base')}/access-token/`,
    a.other,
  );
  return { token: r.access_token, uuid: r.dtable_uuid };
}

const gw = (a: Acct, b: { token: string; uuid: string }) =>
  call(a.url, 'GET', `/api-gateway/api/v2/dtables/${b.uuid}/metadata/`, { token: b.token });
const info = async (a: Acct, token: string) =>
  (await a.ok('GET', '/api/v2.1/org/admin/info/', token)) as { api_calls_count: number; api_calls_limit: number };

test("RATE-8 cloud: gateway calls are counted per team, refused once the month's quota is used up, raised at once on added users and upgrades, reset each month", async () => {
  let now = Date.UTC(2026, 0, 31, 23, 0, 0);
  const a = await Acct.start({ edition: 'cloud', configFile: configFile(), clock: () => now });
  try {
    const b = await otherTeamToken(a);
    expect(await info(a, a.other)).toMatchObject({ api_calls_count: 0, api_calls_limit: 5 + 2 * 1 });
    for (let i = 0; i < 7; i++) expect((await gw(a, b)).status).toBe(200);
    const refused = await gw(a, b);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error_message: 'The monthly API call quota of the team is used up.',
      error_type: 'exceed_api_quota',
    });
    expect(await info(a, a.other)).toMatchObject({ api_calls_count: 7, api_calls_limit: 7 });

    // Another team's quota is its own.
    const mine = await a.ok(
      'GET',
      `/api/v2.1/workspace/1/dtable/${encodeURIComponent('Conformance A')}/access-token/`,
      a.admin,
    );
    expect((await gw(a, { token: mine.access_token, uuid: mine.dtable_uuid })).status).toBe(200);
    expect(await info(a, a.admin)).toMatchObject({ api_calls_count: 1, api_calls_limit: 100 + 10 * 2 });

    // A new user raises the limit at once (§8.3.4).
    await a.ok('POST', '/api/v2.1/org/2/admin/users/', a.other, {
      form: { email: 'extra@example.com', password: 'pw-extra' },
    });
    expect(await info(a, a.other)).toMatchObject({ api_calls_count: 7, api_calls_limit: 9 });
    expect((await gw(a, b)).status).toBe(200);
    expect((await gw(a, b)).status).toBe(200);
    expect((await gw(a, b)).status).toBe(403);

    // So does an upgrade of the plan.
    await a.ok('PUT', '/api/v2.1/admin/organizations/2/', a.admin, { json: { role: 'org_plus' } });
    expect(await info(a, a.other)).toMatchObject({ api_calls_count: 9, api_calls_limit: 20 + 5 * 2 });
    expect((await gw(a, b)).status).toBe(200);

    // A new month starts from zero.
    now = Date.UTC(2026, 1, 1, 0, 0, 1);
    expect(await info(a, a.other)).toMatchObject({ api_calls_count: 0, api_calls_limit: 30 });
    expect((await gw(a, b)).status).toBe(200);
    expect((await info(a, a.other)).api_calls_count).toBe(1);
  } finally {
    await a.close();
  }
});

test('RATE-8 the count survives a restart on the same data file', async () => {
  const data = join(mkdtempSync(join(tmpdir(), 'quota-data-')), 'db.sqlite');
  const now = Date.UTC(2026, 4, 10);
  let a = await Acct.start({ edition: 'cloud', configFile: configFile(), clock: () => now, dataFile: data });
  const b = await otherTeamToken(a);
  for (let i = 0; i < 3; i++) expect((await gw(a, b)).status).toBe(200);
  await a.close();
  a = await Acct.start({ edition: 'cloud', configFile: configFile(), clock: () => now, dataFile: data });
  try {
    expect((await info(a, a.other)).api_calls_count).toBe(3);
  } finally {
    await a.close();
  }
});

test('RATE-8 is cloud only: other editions count calls but show -1 and never refuse', async () => {
  const a = await Acct.start({ edition: 'dedicated', configFile: configFile() });
  try {
    const b = await otherTeamToken(a);
    for (let i = 0; i < 10; i++) expect((await gw(a, b)).status).toBe(200);
    expect(await info(a, a.other)).toMatchObject({ api_calls_count: 10, api_calls_limit: -1 });
  } finally {
    await a.close();
  }
});

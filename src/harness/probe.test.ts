/**
 * The harmless-probe rule of probe.ts holds for every row of the endpoint table: a probe that
 * a faulty target lets through names nothing of the account under test but the base, workspace
 * and team it must reach — and not even those where the operation acts on the whole of one.
 */
import { expect, test } from '@playwright/test';
import { ENDPOINTS, pathParams } from '../spec/index.js';
import { aimsElsewhere, nowhereBase, probeCall } from './probe.js';
import type { RunState } from './state.js';

const state = {
  runId: 'r1',
  tablePrefix: 'cf_r1_',
  target: {
    url: 'http://127.0.0.1:1',
    edition: 'self-hosted',
    api_version: '6.2',
    admin: true,
    org_id: 7,
    workspace_id: 3,
    username: 'me@example.com',
    rate_window_seconds: 1,
    bases: [{ name: 'Real Base', uuid: '11111111-2222-4333-8444-555555555555', api_token: 'x'.repeat(40) }],
  },
} as unknown as RunState;

const REAL = new Set(['Real Base', 'me@example.com', state.target.bases[0]!.uuid]);
/** The path parameters a probe may fill with the account's own values: the route must be reached. */
const REACHED = new Set(['base_uuid', 'workspace_id', 'org_id']);

test('every probe names nothing of the account but the base, workspace and team its route needs', () => {
  for (const ep of ENDPOINTS) {
    const call = probeCall(ep, state);
    const segs = call.path.split('/');
    const tpl = ep.path.split('/');
    for (const p of pathParams(ep.path)) {
      const value = decodeURIComponent(segs[tpl.indexOf(`{${p}}`)]!);
      if (!REACHED.has(p))
        expect(REAL.has(value) || value === '7' || value === '3', `${ep.id}: {${p}} = ${value}`).toBe(false);
    }
    const body = JSON.stringify(call.json ?? call.form ?? {});
    for (const v of REAL) expect(body.includes(v), `${ep.id}: body names ${v}`).toBe(false);
    for (const name of body.match(/"(?:table_name|name|new_table_name)":"([^"]*)"/g) ?? [])
      expect(name, ep.id).toContain(state.tablePrefix);
  }
});

test("whole-base rows name a base that does not exist, and cannot spend the base's rate budget", () => {
  for (const id of [
    'deleteBaseNotifications',
    'markBaseNotificationsAsSeen',
    'createSnapshot',
    'sendToastNotification',
  ]) {
    const ep = ENDPOINTS.find((e) => e.id === id)!;
    expect(probeCall(ep, state).path, id).toContain(nowhereBase(state));
    expect(aimsElsewhere(ep), id).toBeTruthy();
  }
  for (const id of ['deleteTeamLogo', 'setTeamLogo', 'addTeamUser', 'updateTeam']) {
    expect(
      probeCall(
        ENDPOINTS.find((e) => e.id === id)!,
        state,
      ).path,
      id,
    ).toContain('/999999999/');
  }
  expect(aimsElsewhere(ENDPOINTS.find((e) => e.id === 'listRows')!)).toBeUndefined();
});

test('writes that would create something get a body the target must refuse', () => {
  const body = (id: string) =>
    probeCall(
      ENDPOINTS.find((e) => e.id === id)!,
      state,
    ).json as Record<string, unknown>;
  expect(Array.isArray(body('createTable').columns)).toBe(false);
  expect(body('createBase').name).toBeUndefined();
  expect(body('createBase').workspace_id).toBe(999_999_999);
});

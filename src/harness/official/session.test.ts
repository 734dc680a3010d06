/**
 * The official client driven against a real reference server behind a hostile proxy: every
 * exchange lands in the check's recorder with its credentials masked and the tokens the
 * client obtains learnt as secrets; a reset, a timeout, an unreadable body or an oversized one
 * is undecided with its kind; a refused call is a violation naming the call and its answer.
 */
import { expect, test } from '@playwright/test';
import { knownSecrets, MASK } from '../../client/redact.js';
import { startHostile, type HostileServer } from '../../mutants/hostile.js';
import { startServer, type RunningServer } from '../../server/index.js';
import { Undecided } from '../outcome.js';
import { Recorder } from '../recorder.js';
import { RunState } from '../state.js';
import { Target } from '../target.js';
import { OfficialClient } from './session.js';

let upstream: RunningServer;
let hostile: HostileServer;
let target: Target;
const T = 'official_session';

test.beforeAll(async () => {
  upstream = await startServer({ rateWindowSeconds: 3 });
  const gw = `/api-gateway/api/v2/dtables/${upstream.descriptor.bases[0]!.uuid}`;
  hostile = await startHostile(upstream.url, [
    { behaviour: 'reset', path: `${gw}/sql/` },
    { behaviour: 'hang', path: `${gw}/links/` },
    { behaviour: 'bad-json', path: `${gw}/metadata/` },
    { behaviour: 'wrong-type', path: `${gw}/rows/`, method: 'PUT' },
    { behaviour: 'huge', path: `${gw}/rows/`, method: 'DELETE' },
  ]);
  const state = RunState.parse({
    runId: 'r',
    tablePrefix: 'cf_',
    target: { ...upstream.descriptor, url: hostile.url },
    edition: 'self-hosted',
    apiVersion: '6.2',
    http: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000, maxBodyBytes: 1024 * 1024 },
    sourceIps: [],
    webhook: { listenHost: '127.0.0.1', listenPort: 0 },
    limits: { source: 'test', values: { account: null, gateway: null, 'auth-token': null } },
  });
  target = new Target(state);
});

test.afterAll(async () => {
  await hostile?.close();
  await upstream?.close();
});

async function undecidedKind(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e, String(e)).toBeInstanceOf(Undecided);
  return (e as Undecided).kind;
}

test('auth() and the calls after it are recorded with credentials masked; the base token is learnt as a secret', async () => {
  target.recorder = new Recorder();
  const c = await OfficialClient.open(target);
  expect(knownSecrets()).toContain(c.base.accessToken);
  await c.call('addTable()', (b) => b.addTable(T, 'en', [{ column_name: 'Name', column_type: 'text' }]));
  const [auth, add] = target.recorder.exchanges;
  expect(auth!.url).toMatch(/\/api\/v2\.1\/dtable\/app-access-token\/$/);
  expect(auth!.requestHeaders.Authorization).toBe(`Token ${MASK}`);
  expect(JSON.parse(auth!.responseBody!).access_token).toBe(MASK);
  expect([add!.method, add!.status, JSON.parse(add!.requestBody!).table_name]).toEqual(['POST', 200, T]);
  expect(add!.requestHeaders.Authorization).toBe(`Token ${MASK}`);
});

test('no answer, an unreadable one or an oversized one is undecided with its kind; a refusal is a violation naming the call', async () => {
  test.setTimeout(60_000);
  target.recorder = new Recorder();
  const c = await OfficialClient.open(target);
  expect(await undecidedKind(c.call('query()', (b) => b.query('SELECT 1')))).toBe('reset');
  expect(await undecidedKind(c.call('updateLink()', (b) => b.updateLink('x', T, T, 'a', ['b'])))).toBe(
    'timeout-headers',
  );
  expect(await undecidedKind(c.call('getMetadata()', (b) => b.getMetadata()))).toBe('bad-json');
  expect(await undecidedKind(c.call('updateRow()', (b) => b.updateRow(T, 'a', { Name: 'x' })))).toBe('content-type');
  expect(await undecidedKind(c.call('deleteRow()', (b) => b.deleteRow(T, 'a')))).toBe('too-large');
  expect(await undecidedKind(c.setup('getMetadata()', (b) => b.getMetadata()))).toBe('bad-json');
  const refused = await c
    .call('getRow()', (b) => b.getRow(`${T}_none`, 'a'))
    .then(
      () => '',
      (e: Error) => e.message,
    );
  expect(refused).toMatch(
    /getRow\(\): the client's call GET \/api-gateway\/api\/v2\/dtables\/[-0-9a-f]+\/rows\/a\/ was answered 4\d\d: \{"error_message"/,
  );
  const fixture = await c
    .setup('getRow()', (b) => b.getRow(`${T}_none`, 'a'))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(fixture instanceof Undecided && fixture.kind).toBe('fixture');
  expect(target.recorder.exchanges.find((x) => x.url.endsWith('/sql/'))?.error).toMatch(/ECONNRESET/);
});

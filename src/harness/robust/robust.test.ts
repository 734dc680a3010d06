/**
 * The ROBUST machinery on its own: the seeded sample is reproducible and bounded, plans are
 * harmless, a curl line carries the body's exact bytes, the raw sender tells an answer from a
 * hang and a reset, and each clause's rule judges answers as its words say.
 */
import net from 'node:net';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { curlFor } from '../recorder.js';
import { RunState } from '../state.js';
import { judge } from './judge.js';
import { planFor } from './plan.js';
import { rawCall } from './raw-http.js';
import type { Sent } from './send.js';

const state = (seed = 1, admin = true) =>
  RunState.parse({
    runId: 'r',
    tablePrefix: 'cf_r_',
    seed,
    edition: 'self-hosted',
    apiVersion: '6.2',
    target: {
      url: 'http://127.0.0.1:9',
      account_token: 'a'.repeat(40),
      admin,
      org_id: 7,
      workspace_id: 8,
      bases: [{ name: 'B', uuid: '0'.repeat(8) + '-0000-0000-0000-' + '0'.repeat(12), api_token: 'b'.repeat(40) }],
    },
    http: { connectMs: 1000, headersMs: 1000, bodyMs: 2000, maxBodyBytes: 1e6 },
    sourceIps: [],
    webhook: { listenHost: '127.0.0.1', listenPort: 0 },
    limits: { source: 'test', values: { account: 1, gateway: 1, 'auth-token': null } },
  });
const CLAUSES = ['ROBUST-1', 'ROBUST-2', 'ROBUST-3', 'ROBUST-4', 'ROBUST-5'] as const;
const scratch = { name: 'cf_r_rb_s_0000', id: 'tid0' };
const ids = (seed: number, c: (typeof CLAUSES)[number]) =>
  planFor(c, state(seed), scratch).probes.map((p) => `${p.method} ${p.path} ${p.what}`);

test('the sample is the same for the same seed, another for another seed, and bounded per row', () => {
  for (const c of CLAUSES) {
    expect(ids(1, c)).toEqual(ids(1, c));
    const plan = planFor(c, state(1), scratch);
    expect(plan.probes.length, c).toBeGreaterThan(0);
    const perRow = new Map<string, number>();
    for (const p of plan.probes)
      perRow.set(
        p.kind === 'method' ? p.path : p.ep!.id,
        (perRow.get(p.kind === 'method' ? p.path : p.ep!.id) ?? 0) + 1,
      );
    expect(Math.max(...perRow.values()), c).toBeLessThanOrEqual(4);
  }
  expect(ids(2, 'ROBUST-1')).not.toEqual(ids(1, 'ROBUST-1'));
  const total = CLAUSES.reduce((n, c) => n + planFor(c, state(1), scratch).probes.length, 0);
  expect(total).toBeLessThan(800);
});

test("plans are harmless: path values name nothing but the base, names carry the check's tag, unscoped writes and missing credentials are left out with why", () => {
  const plan = planFor('ROBUST-2', state(1, false), scratch);
  expect(plan.excluded.some((e) => /^createBase: creates a base/.test(e))).toBe(true);
  expect(plan.excluded.some((e) => /^updateTeam: needs an admin account/.test(e))).toBe(true);
  for (const p of plan.probes) {
    expect(p.path).not.toMatch(/\/workspace\/8\/|\/org\/7\//);
    expect(['createBase', 'updateTeamInfo', 'deleteBaseNotifications']).not.toContain(p.ep!.id);
  }
  const named = planFor('ROBUST-4', state(), scratch).probes.filter(
    (p) => p.kind === 'unicode' && p.field === 'table_name',
  );
  for (const p of named) expect(JSON.parse(p.body as string).table_name).toMatch(/^cf_r_rb4_/);
});

test("a curl line sends the body's very bytes: text as text, anything else through base64 (gzip when long)", () => {
  const url = 'http://h/x/';
  expect(curlFor({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"a":1}' })).toContain(
    `--data-binary '{"a":1}'`,
  );
  for (const body of [Buffer.from([0x7b, 0xff, 0xfe, 0x00]), 'a=\u0000', `{"a":"${'x'.repeat(100_000)}"}`]) {
    const line = curlFor({ method: 'POST', url, headers: {}, body });
    const b64 = /^printf %s '([^']+)' \| base64 -d \| (gunzip \| )?curl/.exec(line);
    expect(b64, line.slice(0, 80)).toBeTruthy();
    const bytes = Buffer.from(b64![1]!, 'base64');
    expect((b64![2] ? gunzipSync(bytes) : bytes).equals(Buffer.from(body))).toBe(true);
  }
});

test('the raw sender tells an answer from a hang and a reset', async () => {
  const server = net.createServer((s) =>
    s.once('data', (d) => {
      const path = d.toString('latin1').split(' ')[1];
      if (path === '/answer') s.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 2\r\n\r\n{}');
      else if (path === '/reset') s.destroy();
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const limits = { connectMs: 1000, answerMs: 500 };
  try {
    const a = await rawCall(url, { method: 'CONNECT', path: '/answer' }, limits);
    expect(a.ok && a.status).toBe(405);
    expect(await rawCall(url, { method: 'CONNECT', path: '/hang' }, limits)).toMatchObject({
      ok: false,
      kind: 'timeout',
    });
    expect(await rawCall(url, { method: 'CONNECT', path: '/reset' }, limits)).toMatchObject({
      ok: false,
      kind: 'reset',
    });
  } finally {
    server.close();
  }
});

test('each clause judges by what every server owes: 5xx, resets and hangs fail; what RFC 9110 allows only warns', () => {
  const sent = (status: number, text = '{"error_msg":"no"}', headers: Record<string, string> = {}): Sent => ({
    probe: { what: 'p' } as Sent['probe'],
    auth: 'none',
    outcome: { status, headers, text },
    curl: () => '',
  });
  const said = (f: ReturnType<typeof judge>) => f && `${f.weight}: ${f.why}`;
  expect(judge('ROBUST-1', sent(400))).toBeUndefined();
  expect(said(judge('ROBUST-1', sent(400, '<html>')))).toMatch(/^lenient: .*without an error body/);
  expect(said(judge('ROBUST-2', sent(200)))).toMatch(/^lenient: accepted a value of the wrong type/);
  expect(said(judge('ROBUST-2', sent(500)))).toMatch(/^owed: answered 500/);
  expect(judge('ROBUST-3', sent(413, ''))).toBeUndefined();
  expect(judge('ROBUST-3', sent(431, ''))).toBeUndefined();
  expect(judge('ROBUST-3', sent(403, ''))).toBeUndefined();
  expect(said(judge('ROBUST-3', sent(422)))).toMatch(/^lenient: answered 422, not 400, 413 or 431/);
  expect(said(judge('ROBUST-3', sent(200)))).toMatch(/^lenient: accepted a body past its size or depth limit/);
  expect(judge('ROBUST-4', sent(200))).toBeUndefined();
  expect(said(judge('ROBUST-4', sent(500)))).toMatch(/^owed: .*500/);
  // RFC 9110: 400, 405 with Allow, 501 for a method the server does not support.
  expect(judge('ROBUST-5', sent(501, ''))).toBeUndefined();
  expect(judge('ROBUST-5', sent(400, ''))).toBeUndefined();
  expect(judge('ROBUST-5', sent(405, '', { allow: 'GET' }))).toBeUndefined();
  expect(said(judge('ROBUST-5', sent(405, '')))).toMatch(/^lenient: answered 405 without an Allow header/);
  expect(said(judge('ROBUST-5', sent(404)))).toMatch(/^lenient: answered 404, not 400, 405 \(with Allow\) or 501/);
  expect(said(judge('ROBUST-5', sent(502)))).toMatch(/^owed: answered 502/);
  expect(() => judge('ROBUST-1', { ...sent(0), outcome: { failure: 'unreachable', message: 'refused' } })).toThrow(
    /refused/,
  );
  expect(said(judge('ROBUST-1', { ...sent(0), outcome: { failure: 'hang', message: 'x' } }))).toMatch(
    /^owed: .*a hang/,
  );
});

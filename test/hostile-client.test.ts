/**
 * The HTTP client against each hostile behaviour: every call comes back as a value with the
 * right error kind (never a throw, never an unhandled rejection), within its limits.
 */
import { expect, test } from '@playwright/test';
import { closeAgents, send, type Limits } from '../src/client/http.js';
import { startHostile, type HostileServer } from '../src/mutants/hostile.js';
import { startServer, type RunningServer } from '../src/server/index.js';

const LIMITS: Limits = { connectMs: 2_000, headersMs: 1_500, bodyMs: 1_500, maxBodyBytes: 32 * 1024 * 1024 };

let upstream: RunningServer;
let hostile: HostileServer;
const rejections: unknown[] = [];
const onRejection = (e: unknown) => rejections.push(e);

test.beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  upstream = await startServer({ unlimited: true });
  hostile = await startHostile(upstream.url, [
    { path: '/hang/', behaviour: 'hang' },
    { path: '/slow/', behaviour: 'slow-headers' },
    { path: '/reset/', behaviour: 'reset' },
    { path: '/bad-json/', behaviour: 'bad-json' },
    { path: '/huge/', behaviour: 'huge' },
    { path: '/html/', behaviour: 'wrong-type' },
    { path: '/loop/', behaviour: 'redirect-loop' },
  ]);
});

test.afterAll(async () => {
  await closeAgents();
  await hostile?.close();
  await upstream?.close();
  process.off('unhandledRejection', onRejection);
});

const get = (path: string, limits = LIMITS) => send({ method: 'GET', url: `${hostile.url}${path}` }, limits);

test('unaffected routes are proxied to the reference server', async () => {
  const r = await get('/server-info/');
  expect(r.ok && r.status).toBe(200);
  expect(r.ok && JSON.parse(r.body.toString()).edition).toBe('self-hosted');
});

for (const [path, kind, words] of [
  ['/hang/', 'timeout-headers', /no response headers in time/],
  ['/slow/', 'timeout-headers', /no response headers in time/],
  ['/reset/', 'reset', /closed the connection/],
  ['/huge/', 'too-large', /larger than the cap/],
  ['/loop/', 'redirect', /redirect/],
] as const) {
  test(`${path} ends as transport error "${kind}"`, async () => {
    const r = await get(path);
    expect(r.ok, JSON.stringify(r.ok ? { status: r.status } : r)).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe(kind);
    expect(r.message).toMatch(words);
  });
}

test('the size cap holds whatever its value', async () => {
  const r = await get('/huge/', { ...LIMITS, maxBodyBytes: 1024 });
  expect(!r.ok && r.kind).toBe('too-large');
});

test('malformed JSON and a wrong content type reach the caller as responses (the body reader decides)', async () => {
  const bad = await get('/bad-json/');
  expect(bad.ok && bad.status).toBe(200);
  expect(() => JSON.parse(bad.ok ? bad.body.toString() : '')).toThrow();
  const html = await get('/html/');
  expect(html.ok && html.headers['content-type']).toMatch(/text\/html/);
});

test('a refused connection is a value too', async () => {
  const r = await send({ method: 'GET', url: 'http://127.0.0.1:9/' }, LIMITS);
  expect(!r.ok && ['refused', 'network'].includes(r.kind)).toBe(true);
});

test('no unhandled rejection was seen', async () => {
  // Let late socket errors of the calls above surface first.
  await new Promise((r) => setTimeout(r, 200));
  expect(rejections.map(String)).toEqual([]);
});

/**
 * The reference server behind a reverse proxy: links built from --public-url, else from the
 * proxy's X-Forwarded-Proto, -Host and -Port (--trust-proxy only), else from Host; and a body
 * refused midway read to its end before the connection closes, so a proxy still forwarding
 * it is not reset (it would answer 502 instead of the 413).
 */
import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from '../index.js';
import { DRAIN_BOUND } from '../pipeline/drain.js';

async function withServer<T>(
  opts: Parameters<typeof startServer>[0],
  fn: (srv: RunningServer) => Promise<T>,
): Promise<T> {
  const srv = await startServer(opts);
  try {
    return await fn(srv);
  } finally {
    await srv.close();
  }
}

/** The links a base's API token is handed: an upload link and the gateway a base token names. */
async function links(srv: RunningServer, headers: Record<string, string> = {}): Promise<string[]> {
  const token = srv.descriptor.bases[0]!.api_token;
  const get = async (path: string) => {
    const r = await fetch(`http://127.0.0.1:${srv.port}${path}`, {
      headers: { authorization: `Token ${token}`, ...headers },
      signal: AbortSignal.timeout(10_000),
    });
    expect(r.status, path).toBe(200);
    return (await r.json()) as Record<string, string>;
  };
  const up = await get('/api/v2.1/dtable/app-upload-link/');
  const bt = await get('/api/v2.1/dtable/app-access-token/');
  return [up.upload_link!, bt.dtable_server!];
}

test('--public-url: every link starts with it, whatever Host and forwarded headers say; the descriptor names it', async () => {
  await withServer({ publicUrl: 'https://api.example.com:8443/', trustProxy: true }, async (srv) => {
    expect(srv.descriptor.url).toBe('https://api.example.com:8443');
    const got = await links(srv, { 'x-forwarded-host': 'elsewhere.example', 'x-forwarded-proto': 'http' });
    for (const l of got) expect(l).toMatch(/^https:\/\/api\.example\.com:8443\/(seafhttp|api-gateway)\//);
  });
  await expect(startServer({ publicUrl: 'https://api.example.com/sub/' })).rejects.toThrow(
    /scheme, host and port only/,
  );
});

test('--trust-proxy: links from X-Forwarded-Proto, -Host and -Port (the default port left out); without it those headers are ignored', async () => {
  await withServer({ trustProxy: true }, async (srv) => {
    for (const l of await links(srv, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.example.com',
      'x-forwarded-port': '8443',
    }))
      expect(l).toMatch(/^https:\/\/api\.example\.com:8443\//);
    for (const l of await links(srv, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.example.com:9999',
      'x-forwarded-port': '443',
    }))
      expect(l).toMatch(/^https:\/\/api\.example\.com\//);
    // A chain of proxies: the first (the client's side) counts; a header that is no host is not taken.
    for (const l of await links(srv, { 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'evil.example/path' }))
      expect(l).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${srv.port}/`));
  });
  await withServer({}, async (srv) => {
    for (const l of await links(srv, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.example.com',
      'x-forwarded-port': '8443',
    }))
      expect(l).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${srv.port}/`));
  });
});

test('a body refused as too large is read to its end before the connection closes: no reset under a client still sending', async () => {
  await withServer({}, async (srv) => {
    // Unauthenticated bodies are refused before they are read (401): this one is refused by its size, past 4 MB.
    const r = await fetch(`http://127.0.0.1:${srv.port}/api/v2.1/dtable/app-access-token/`, {
      headers: { authorization: `Token ${srv.descriptor.bases[0]!.api_token}` },
      signal: AbortSignal.timeout(10_000),
    });
    const bt = (await r.json()) as { access_token: string; dtable_uuid: string };
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const s2 = connect(srv.port, '127.0.0.1');
    const ev: string[] = [];
    let got = '';
    const done = new Promise<void>((resolve) => {
      s2.on('data', (b: Buffer) => {
        got += b.toString('latin1');
      });
      s2.on('end', () => ev.push('end'));
      s2.on('error', (e: NodeJS.ErrnoException) => ev.push(`error ${e.code}`));
      s2.on('close', () => resolve());
    });
    await new Promise<void>((resolve) => s2.once('connect', () => resolve()));
    const w2 = (b: Buffer | string) =>
      new Promise<void>((resolve, reject) => s2.write(b, (e) => (e ? reject(e) : resolve())));
    await w2(
      `POST /api-gateway/api/v2/dtables/${bt.dtable_uuid}/rows/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bt.access_token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    // Past the 4 MB limit, then wait for the answer, then send 2 MB more: a proxy forwarding a buffered body does just that.
    for (let sent = 0; sent <= 4 * 1024 * 1024; sent += chunk.length) await w2(frame);
    const until = Date.now() + 10_000;
    while (!got.includes('\r\n\r\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got.toLowerCase()).toContain('connection: close');
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 8; i++) await w2(frame);
    expect(ev, 'the server closed (or reset) the connection while the body was still arriving').toEqual([]);
    await w2('0\r\n\r\n');
    await done;
    expect(ev).toEqual(['end']);
  });
  expect(DRAIN_BOUND.bytes).toBeGreaterThanOrEqual(100 * 1024 * 1024);
});

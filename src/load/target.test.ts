/**
 * Any http(s) target: the run says first what it will send where; a rate-limit scenario
 * against a host that is not loopback waits for --yes; TLS works, --insecure for a
 * self-signed host. Every request here goes to loopback: a TLS proxy on 127.0.0.1 with a
 * certificate made for the test, the IPv4-mapped form [::ffff:127.0.0.1], and a made-up
 * host name that the run's own name map (hosts only, no DNS) points at 127.0.0.1.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttp, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, type ChildServer } from './server-child.js';
import { ConfirmationNeeded, runLoad } from './run.js';
import { makeCerts } from '../../test/helpers/certs.js';

const dir = mkdtempSync(join(tmpdir(), 'load-target-'));
const LIMITS = { API_GATEWAY_BASE_API_LIMIT_PER_MINUTE: '100', API_ACCOUNT_LIMIT_PER_MINUTE: '120' };
const ENV = { LIMIT_GATEWAY: '100', LIMIT_ACCOUNT: '120', VUS: '1', ITERATIONS: '1' };
const HOST = 'staging.conformance.test';
let srv: ChildServer;

interface Proxy {
  port: number;
  requests: number;
  close(): Promise<void>;
}

/** A counting reverse proxy on 127.0.0.1 to the reference server, plain or TLS. */
async function proxy(tls?: { key: string; cert: string }): Promise<Proxy> {
  const p = { port: 0, requests: 0 } as Proxy;
  const upstream = new URL(srv.descriptor.url);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    p.requests++;
    const out = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    out.on('error', () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(out);
  };
  const server = tls ? createHttps(tls, handle) : createHttp(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  p.port = (server.address() as AddressInfo).port;
  p.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return p;
}

const descriptor = () => {
  const f = join(dir, 'target.json');
  writeFileSync(f, JSON.stringify(srv.descriptor));
  return f;
};
/** The CLI in a child process, awaited (not spawnSync: the proxy in this process must keep answering). */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      'bin/conformance.js',
      'load',
      '--engine',
      'builtin',
      ...args,
      ...Object.entries(ENV).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '',
    stderr = '';
  child.stdout.on('data', (b: Buffer) => {
    stdout += b;
  });
  child.stderr.on('data', (b: Buffer) => {
    stderr += b;
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), 120_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

test.beforeAll(async () => {
  srv = await startChildServer({ rateWindowSeconds: 3, unlimited: false, env: LIMITS });
});
test.afterAll(async () => {
  await srv?.close();
});

test('a host name that is not loopback: the run announces it, a rate-limit scenario sends nothing without --yes, and runs with it', async () => {
  test.setTimeout(120_000);
  const px = await proxy();
  try {
    const lines: string[] = [];
    const o = {
      scenario: 'rate-per-base',
      engine: 'builtin' as const,
      targetFile: descriptor(),
      target: `http://${HOST}:${px.port}`,
      env: ENV,
      hosts: { [HOST]: '127.0.0.1' },
      hostsOnly: true,
      reportDir: join(dir, 'named'),
      log: (l: string) => lines.push(l),
    };
    const refused = await runLoad(o).then(
      () => null,
      (e: Error) => e,
    );
    expect(refused).toBeInstanceOf(ConfirmationNeeded);
    expect(refused!.message).toMatch(
      /rate-per-base is built to exhaust .* staging\.conformance\.test:\d+ is not loopback: .*--yes/,
    );
    expect(px.requests).toBe(0);
    const head = lines.slice(0, 5).join('\n');
    expect(head).toMatch(new RegExp(`target: +http://${HOST.replace(/\./g, '\\.')}:${px.port} — NOT loopback`));
    expect(head).toMatch(/scenario: +rate-per-base on the built-in engine/);
    expect(head).toMatch(/peak rate: +as fast as 1 VU goes \(no pacing\)/);
    expect(head).toMatch(/duration: +at most 40\.00s of load/);
    expect(head).toMatch(/requests: +at most 240 \(240 iterations × ≤ 1\)/);
    const ran = await runLoad({ ...o, yes: true });
    expect(ran.results.thresholds.filter((t) => !t.ok)).toEqual([]);
    expect(px.requests).toBeGreaterThanOrEqual(240);
    expect(ran.results.target.url).toBe(`http://${HOST}:${px.port}`);
  } finally {
    await px.close();
  }
});

test('TLS: a host on 127.0.0.1 with a certificate of a private CA runs with --insecure and is refused without it (certificate not trusted)', async () => {
  test.setTimeout(120_000);
  const certs = makeCerts(dir);
  const px = await proxy({ key: readFileSync(certs.key, 'utf8'), cert: readFileSync(certs.cert, 'utf8') });
  try {
    const args = [
      '--scenario',
      'row-limits',
      '--target-file',
      descriptor(),
      '--target',
      `https://127.0.0.1:${px.port}`,
    ];
    const ok = await cli([...args, '--insecure', '--report-dir', join(dir, 'tls')]);
    expect(ok.stderr).toMatch(
      /^conformance load: target: +https:\/\/127\.0\.0\.1:\d+ — loopback.*TLS certificate NOT verified/,
    );
    expect(ok.status, ok.stderr).toBe(0);
    expect(px.requests).toBeGreaterThan(20);
    const before = px.requests;
    const bad = await cli([...args, '--report-dir', join(dir, 'tls-bad')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/self[- ]signed|certificate/i);
    expect(px.requests).toBe(before); // the handshake failed: no request reached the server
  } finally {
    await px.close();
  }
});

test('an IPv4-mapped address [::ffff:127.0.0.1] is a target like any other', async () => {
  const port = new URL(srv.descriptor.url).port;
  const r = await cli([
    '--scenario',
    'row-limits',
    '--target-file',
    descriptor(),
    '--target',
    `http://[::ffff:127.0.0.1]:${port}`,
    '--report-dir',
    join(dir, 'mapped'),
  ]);
  expect(r.stderr).toMatch(/target: +http:\/\/\[::ffff:7f00:1\]:\d+|target: +http:\/\/\[::ffff:127\.0\.0\.1\]:\d+/);
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, 'mapped', 'results.json'), 'utf8')).target.url).toMatch(
    /^http:\/\/\[::ffff:/,
  );
});

/** Helpers for the load tests: a tiny loopback HTTP server and a one-call script runner. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runBuiltin, type RunOutcome } from './engine/run.js';
import { onOfflinePage } from '../../test/helpers/offline-page.js';

export interface StubServer {
  url: string;
  seen: { method: string; url: string; remote: string }[];
  close(): Promise<void>;
}

/** Routes: /status/NNN, /json, /bad-json, /slow/MS, /echo, /headers; anything else 200 "ok". */
export async function stubServer(): Promise<StubServer> {
  const seen: StubServer['seen'] = [];
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', remote: req.socket.remoteAddress ?? '' });
    const u = req.url ?? '/';
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const status = /^\/status\/(\d{3})/.exec(u);
      if (status) {
        res.writeHead(Number(status[1]), { 'content-length': '0' });
        res.end();
        return;
      }
      if (u.startsWith('/json')) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '7' });
        res.end(JSON.stringify({ a: { b: [1, 2, 3] }, remote: req.socket.remoteAddress }));
        return;
      }
      if (u.startsWith('/bad-json')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"a":');
        return;
      }
      const slow = /^\/slow\/(\d+)/.exec(u);
      if (slow) {
        setTimeout(() => {
          res.writeHead(200);
          res.end('late');
        }, Number(slow[1]));
        return;
      }
      if (u.startsWith('/echo')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, body, headers: req.headers }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  };
}

/**
 * Run a k6 script (ES module source, as stock k6 takes it) on the built-in runner, its VUs
 * spread over two threads (so that VUs share a thread and span threads).
 */
export async function runScript(
  code: string,
  env: Record<string, string> = {},
  sourceIps: string[] = [],
): Promise<RunOutcome> {
  const lines: string[] = [];
  return runBuiltin({
    bundleCode: code,
    scriptDir: process.cwd(),
    env,
    sourceIps,
    log: (l) => lines.push(l),
    vuThreads: 2,
  });
}

/** A metric's (or submetric's) sink from a run, by selector. */
export function sinkOf(out: RunOutcome, selector: string) {
  for (const m of out.registry.metrics.values()) {
    if (m.name === selector) return m.sink;
    for (const s of m.subs) if (s.name === selector) return s.sink;
  }
  return undefined;
}

interface Rendered {
  canvases: { id: string; inked: number }[];
  empty: string[];
  problems: string[];
}

/**
 * Open an offline report in Debian's chromium and wait for its charts (`window.__chartsRendered`):
 * how much of each canvas is inked, the lines that stand for empty charts, and any console
 * error, page error or network request (a self-contained report makes none).
 */
export async function renderReport(file: string, screenshot?: string): Promise<Rendered> {
  const { value, problems } = await onOfflinePage(
    file,
    async (page) => {
      await page.waitForFunction(
        () => typeof (globalThis as unknown as { __chartsRendered?: number }).__chartsRendered === 'number',
      );
      const canvases = await page.$$eval('canvas', (cs) =>
        cs.map((el) => {
          // No DOM typings in this project: the canvas's shape, as far as this check needs it.
          const c = el as unknown as {
            id: string;
            width: number;
            height: number;
            getContext(t: '2d'): {
              getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
            };
          };
          const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
          let n = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
          return { id: c.id, inked: n };
        }),
      );
      const empty = await page.$$eval('p.empty', (ps) =>
        ps.map((p) => (p as unknown as { textContent: string }).textContent),
      );
      if (screenshot) await page.screenshot({ fullPage: true, path: screenshot });
      return { canvases, empty };
    },
    { width: 1280, height: 1400 },
  );
  return { ...value, problems };
}

/**
 * Servers for the benchmarks, each in a child process of its own, so the load generator
 * (this process) and the server do not share an event loop or, on two cores, a core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gatewayPath, type TargetDescriptor } from '../../src/spec/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Child {
  child: ChildProcess;
  url: string;
}
export interface Reference extends Child {
  d: TargetDescriptor;
}

async function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready`)));
  });
}

/** `conformance serve --json` with `args`; answers once the descriptor line is printed. */
export async function reference(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Reference> {
  // The package's bin, as users start it (CONFORMANCE_* variables would be read as options).
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'conformance.js'), 'serve', '--json', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const d = JSON.parse(await firstLine(child, 'reference server')) as TargetDescriptor;
  return { child, url: d.url, d };
}

/** The baseline: a bare `node:http` server answering every request with `/ping/`'s bytes. */
const BARE = `
const http = require('node:http');
const body = Buffer.from('"pong"');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

export async function bare(): Promise<Child> {
  const child = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'pipe', 'inherit'] });
  return { child, url: (await firstLine(child, 'bare node:http server')).trim() };
}

export async function stop(c: Child): Promise<void> {
  if (c.child.exitCode !== null) return;
  const exited = new Promise((r) => c.child.once('exit', r));
  c.child.kill('SIGTERM');
  await exited;
}

/** A JSON call that must succeed (set-up steps). */
export async function json<T = Record<string, unknown>>(
  url: string,
  method: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const r = await fetch(url, {
    method,
    headers: { authorization: `Token ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/**
 * CPU time (user + system, ms) a child has used so far, from /proc (Linux); undefined elsewhere.
 * CPU per call is the figure that survives a busy machine: wall-clock rates do not.
 */
function cpuMs(c: Child): number | undefined {
  try {
    const fields = readFileSync(`/proc/${c.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux Node runs on. */
const CLOCK_TICKS = 100;

/** Run `f` and measure the CPU time child `c` spent meanwhile, per call (ms); NaN without /proc. */
export async function cpuPerCall<T>(
  c: Child,
  f: () => Promise<T>,
  calls: (r: T) => number,
): Promise<{ r: T; cpu: number }> {
  const before = cpuMs(c);
  const r = await f();
  const after = cpuMs(c);
  return { r, cpu: before === undefined || after === undefined ? NaN : (after - before) / Math.max(1, calls(r)) };
}

/** A base token for the descriptor's first base, and that base's gateway URL. */
export async function baseSession(d: TargetDescriptor): Promise<{ token: string; gw: string }> {
  const base = d.bases[0]!;
  const token = (
    await json<{ access_token: string }>(`${d.url}/api/v2.1/dtable/app-access-token/`, 'GET', base.api_token)
  ).access_token;
  return { token, gw: `${d.url}${gatewayPath(base.uuid).slice(0, -1)}` };
}

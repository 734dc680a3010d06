/**
 * A TLS reverse proxy as deployments have one: Debian's nginx run with the site file of
 * examples/deploy/nginx.conf (only its listen address, name, certificate paths and upstream
 * port replaced), on loopback, as a foreground child with its own prefix, pid and log paths
 * (its certificate: ./certs.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import type { Certs } from './certs.js';
import { ROOT } from './cli.js';

const NGINX = '/usr/sbin/nginx';
const EXAMPLE = join(ROOT, 'examples', 'deploy', 'nginx.conf');

/** Why the proxy cannot run here, or undefined. */
export function proxyUnavailable(): string | undefined {
  if (!existsSync(NGINX)) return `no ${NGINX}: install Debian's nginx-core (npm test does, as root or with sudo)`;
  if (!existsSync('/usr/bin/openssl')) return 'no /usr/bin/openssl';
  return undefined;
}

/** A port free on 127.0.0.1 a moment ago. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** The example's site file for this machine: loopback listen address, localhost, the test's certificate and upstream. */
function siteConfig(port: number, upstreamPort: number, certs: Certs): string {
  const text = readFileSync(EXAMPLE, 'utf8');
  const swaps: [RegExp, string][] = [
    [/listen 443 ssl http2;/, `listen 127.0.0.1:${port} ssl http2;`],
    [/server_name api\.example\.com;/, 'server_name localhost;'],
    [/server 127\.0\.0\.1:8080;/, `server 127.0.0.1:${upstreamPort};`],
    [/ssl_certificate +\S+;/, `ssl_certificate ${certs.cert};`],
    [/ssl_certificate_key +\S+;/, `ssl_certificate_key ${certs.key};`],
  ];
  let out = text;
  for (const [re, to] of swaps) {
    if (!re.test(out))
      throw new Error(`examples/deploy/nginx.conf no longer has ${re.source}: update test/helpers/proxy.ts`);
    out = out.replace(re, to);
  }
  return out;
}

export interface Proxy {
  url: string;
  port: number;
  stop(): Promise<void>;
  log(): string;
}

/** Start nginx in front of 127.0.0.1:upstreamPort; resolves once it accepts connections (at most 10 s). */
export async function startNginx(dir: string, upstreamPort: number, certs: Certs): Promise<Proxy> {
  const port = await freePort();
  const prefix = join(dir, 'nginx');
  mkdirSync(prefix, { recursive: true });
  // Its workers run as another user when the master is root: they must reach the temp paths.
  chmodSync(dir, 0o755);
  chmodSync(prefix, 0o755);
  const p = (n: string) => join(prefix, n);
  writeFileSync(
    p('nginx.conf'),
    [
      'daemon off;',
      'master_process on;',
      'worker_processes 1;',
      `pid ${p('nginx.pid')};`,
      `error_log ${p('error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log off; default_type application/octet-stream;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${p(`${t}_temp`)};`),
      siteConfig(port, upstreamPort, certs),
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', p('nginx.conf'), '-e', p('error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => `${stderr}${existsSync(p('error.log')) ? readFileSync(p('error.log'), 'utf8') : ''}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
  };
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s: ${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `https://127.0.0.1:${port}`, port, stop, log };
}

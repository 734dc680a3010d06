/** `conformance serve` run as users meet it: the real CLI in a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { TargetDescriptor } from '../../spec/index.js';
import { cliEntry } from '../../../test/helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface Served {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function serve(args: string[]): Served {
  const child = spawn(process.execPath, [cliEntry(), 'serve', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '' },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function firstLine(s: Served, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!s.stdout().includes('\n')) {
    if (Date.now() > deadline || s.child.exitCode !== null)
      throw new Error(`no descriptor line; stderr: ${s.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return s.stdout().split('\n')[0]!;
}

async function stop(s: Served): Promise<number | null> {
  s.child.kill('SIGTERM');
  return s.exited;
}

test('serve --json prints exactly one line: a target descriptor with two bases that reaches the server', async () => {
  const s = serve(['--json']);
  try {
    const line = await firstLine(s);
    const parsed = TargetDescriptor.safeParse(JSON.parse(line));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const d = parsed.data!;
    expect(d.bases).toHaveLength(5);
    expect(d.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(d).toMatchObject({ edition: 'self-hosted', api_version: '6.2', admin: true });
    expect((await fetch(`${d.url}/ping/`)).status).toBe(200);
    const login = await fetch(`${d.url}/api2/auth-token/`, {
      method: 'POST',
      body: new URLSearchParams({ username: d.username!, password: d.password! }),
    });
    expect(((await login.json()) as { token: string }).token).toBe(d.account_token);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.stdout()).toBe(`${line}\n`);
  } finally {
    expect(await stop(s)).toBe(0);
  }
  expect(s.stdout().split('\n').filter(Boolean)).toHaveLength(1);
});

test('serve refuses a non-loopback --host', async () => {
  const hosts = ['0.0.0.0', '192.0.2.1', '::'];
  const runs = hosts.map((host) => serve(['--json', '--host', host]));
  const codes = await Promise.all(runs.map((s) => s.exited));
  hosts.forEach((host, i) => {
    expect(codes[i], host).not.toBe(0);
    expect(runs[i]!.stdout(), host).toBe('');
    expect(runs[i]!.stderr(), host).toMatch(/loopback/);
  });
});

test('serve --data FILE --edition --api-version: the same descriptor after a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-serve-'));
  try {
    const args = ['--json', '--data', join(dir, 'd.sqlite'), '--edition', 'cloud', '--api-version', '5.2'];
    const a = serve(args);
    const d1 = JSON.parse(await firstLine(a)) as TargetDescriptor;
    expect(await stop(a)).toBe(0);
    const b = serve(args);
    const d2 = JSON.parse(await firstLine(b)) as TargetDescriptor;
    expect(await stop(b)).toBe(0);
    expect({ ...d2, url: '' }).toEqual({ ...d1, url: '' });
    expect(d1).toMatchObject({ edition: 'cloud', api_version: '5.2' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

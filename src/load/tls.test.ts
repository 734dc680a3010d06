/**
 * The CA of --ca-file reaches stock k6, which reads no Node setting: a stand-in `k6` on PATH
 * prints its environment and keeps a copy of the SSL_CERT_FILE it was given — the system
 * roots plus the CA. --insecure gives k6 its own flag and no bundle. Nothing is sent
 * anywhere: the stand-in runs nothing.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { readDescriptorFile } from '../common/descriptor-file.js';
import { makeCerts } from '../../test/helpers/certs.js';

const dir = mkdtempSync(join(tmpdir(), 'load-tls-'));
const bin = join(dir, 'bin');
const ca = join(dir, 'private-ca.pem');

test.beforeAll(() => {
  copyFileSync(makeCerts(dir).ca, ca);
  mkdirSync(bin);
  // Prints its environment; keeps the bundle (the run removes its own copy); writes no samples.
  writeFileSync(
    join(bin, 'k6'),
    `#!/usr/bin/env node
const fs = require('fs');
for (const [k, v] of Object.entries(process.env)) if (k === 'SSL_CERT_FILE' || k === 'TARGET') console.log(k + '=' + v);
console.log('ARGV=' + process.argv.slice(2).join(' '));
if (process.env.SSL_CERT_FILE) fs.copyFileSync(process.env.SSL_CERT_FILE, ${JSON.stringify(join(dir, 'seen-bundle.pem'))});
const out = process.argv.find((a) => a.startsWith('json='));
fs.writeFileSync(out.slice(5), '');
`,
  );
  chmodSync(join(bin, 'k6'), 0o755);
  writeFileSync(
    join(dir, 'target.json'),
    JSON.stringify({
      url: 'https://127.0.0.1:9',
      bases: [{ name: 'A', uuid: 'u-1', api_token: 'secret-token-123456' }],
      rate_window_seconds: 3,
    }),
  );
});

const load = (args: string[], env: Record<string, string> = {}) => {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CONFORMANCE_') && k !== 'NODE_EXTRA_CA_CERTS' && k !== 'SSL_CERT_FILE',
    ),
  );
  return spawnSync(
    process.execPath,
    [
      'bin/conformance.js',
      'load',
      '--scenario',
      'rate-window',
      '--no-preflight',
      '--target-file',
      join(dir, 'target.json'),
      ...args,
    ],
    {
      encoding: 'utf8',
      env: { ...clean, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, ...env },
      timeout: 60_000,
    },
  );
};
const pems = (text: string) => text.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;

test('--ca-file (or CONFORMANCE_CA_FILE) reaches k6 on PATH as SSL_CERT_FILE: the system roots plus the CA; the header says how TLS is checked', () => {
  // The variable here; the flag in test/deploy-proxy.test.ts (both are the same option of the load command).
  for (const [how, r] of [['env', load(['--report-dir', join(dir, 'env')], { CONFORMANCE_CA_FILE: ca })]] as const) {
    expect(r.stderr, how).toContain('on the k6 engine');
    expect(r.stderr, how).toMatch(
      /target: +https:\/\/127\.0\.0\.1:9 .*TLS verified \(system roots and CA file .*private-ca\.pem\)/,
    );
    const file = /^SSL_CERT_FILE=(.+)$/m.exec(r.stdout)?.[1];
    expect(file, `${how}: k6 was given no SSL_CERT_FILE:\n${r.stdout}`).toBeTruthy();
    const bundle = readFileSync(join(dir, 'seen-bundle.pem'), 'utf8');
    expect(bundle, how).toContain(readFileSync(ca, 'utf8').trim());
    expect(pems(bundle), `${how}: the system roots are part of the bundle`).toBeGreaterThan(50);
    expect(existsSync(file!), `${how}: the bundle is removed after the run`).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, how, 'results.json'), 'utf8')).target.tls).toMatch(
      /^TLS verified \(system roots and CA file /,
    );
  }
});

test('--insecure: k6 skips verification (its own flag), no bundle; the header says NOT verified', () => {
  const r = load(['--insecure', '--ca-file', ca, '--report-dir', join(dir, 'insecure')]);
  expect(r.stdout).not.toMatch(/^SSL_CERT_FILE=/m);
  expect(r.stdout).toMatch(/^ARGV=.*--insecure-skip-tls-verify/m);
  expect(r.stderr).toMatch(/TLS certificate NOT verified \(--insecure\)/);
});

test("a descriptor's ca_file is taken relative to the descriptor's folder; a file that is no PEM is refused by name", async () => {
  mkdirSync(join(dir, 'd'), { recursive: true });
  writeFileSync(
    join(dir, 'd', 'target.json'),
    JSON.stringify({
      url: 'https://127.0.0.1:9',
      bases: [{ name: 'A', uuid: 'u', api_token: 't' }],
      ca_file: '../private-ca.pem',
    }),
  );
  expect(readDescriptorFile(join(dir, 'd', 'target.json')).ca_file).toBe(ca);
  const { readCaFile } = await import('../client/tls.js');
  writeFileSync(join(dir, 'not.pem'), 'hello');
  expect(() => readCaFile(join(dir, 'not.pem'))).toThrow(/not\.pem: no PEM certificate/);
  expect(readCaFile(ca)).toHaveLength(1);
});

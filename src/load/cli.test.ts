/**
 * `conformance load` as users meet it, in a child process: --list, the k6 engine (a stand-in
 * k6 that records its arguments and environment and writes k6's --out json lines, since stock
 * k6 cannot be installed here), exit code 99 from re-judged thresholds, and `load merge`.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEntry } from '../../test/helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'load-cli-'));
const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [cliEntry(), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });

/** A stand-in k6: records argv and TARGET, writes samples where --out json= says, exits with FAKE_K6_EXIT. */
function fakeK6(admitted: number): string {
  const f = join(dir, `k6-${admitted}`);
  const now = Date.now();
  const lines = [
    {
      type: 'Metric',
      metric: 'window_reopened',
      data: { name: 'window_reopened', type: 'counter', contains: 'default' },
    },
    ...Array.from({ length: admitted }, (_, i) => ({
      type: 'Point',
      metric: 'window_reopened',
      data: { time: new Date(now + i).toISOString(), value: 1, tags: { clause: 'RATE-4' } },
    })),
    {
      type: 'Point',
      metric: 'http_req_duration',
      data: {
        time: new Date(now).toISOString(),
        value: 12.5,
        tags: { status: '200', expected_response: 'true', key: 'base-1' },
      },
    },
    {
      type: 'Point',
      metric: 'http_reqs',
      data: { time: new Date(now).toISOString(), value: 1, tags: { status: '200' } },
    },
    {
      type: 'Point',
      metric: 'checks',
      data: { time: new Date(now).toISOString(), value: 1, tags: { clause: 'RATE-4', check: 'c', group: '' } },
    },
    {
      type: 'Point',
      metric: 'checks',
      data: { time: new Date(now).toISOString(), value: 1, tags: { clause: 'RATE-6', check: 'd', group: '' } },
    },
    {
      type: 'Point',
      metric: 'http_req_failed',
      data: { time: new Date(now).toISOString(), value: 0, tags: { scenario: 'reset' } },
    },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
  writeFileSync(
    f,
    `#!/usr/bin/env node
const fs = require('fs');
const out = process.argv.find((a) => a.startsWith('json='));
fs.writeFileSync(${JSON.stringify(join(dir, `args-${admitted}.json`))}, JSON.stringify({ argv: process.argv.slice(2), target: process.env.TARGET || '' }));
fs.writeFileSync(out.slice(5), ${JSON.stringify(lines)} + '\\n');
process.exit(${admitted === 1 ? 0 : 99});
`,
  );
  chmodSync(f, 0o755);
  return f;
}

test('--list names every scenario with its clauses', () => {
  const r = cli(['load', '--list']);
  expect(r.status).toBe(0);
  for (const s of ['rate-per-base', 'rate-per-ip', 'rate-window', 'row-limits', 'capacity'])
    expect(r.stdout).toContain(s);
});

test('the built-in engine against a reference server it starts itself: the process ends on its own, exit 0', () => {
  // The server started for the run takes its limit from the environment (§8.4); the script learns it the same way.
  const r = cli(
    [
      'load',
      '--scenario',
      'rate-window',
      '--engine',
      'builtin',
      '--rate-window',
      '3',
      '--report-dir',
      join(dir, 'builtin'),
    ],
    { API_GATEWAY_BASE_API_LIMIT_PER_MINUTE: '60' },
  );
  expect(r.stdout).toContain('on the built-in engine: 4/4 thresholds met');
  expect(r.status).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, 'builtin', 'results.json'), 'utf8')).engine).toBe('builtin');
});

test('the k6 engine: target via the environment, --local-ips, samples re-judged; a breach exits 99; merge sums instances', () => {
  const target = join(dir, 'target.json');
  writeFileSync(
    target,
    JSON.stringify({
      url: 'http://127.0.0.1:9',
      bases: [{ name: 'A', uuid: 'u-1', api_token: 'secret-token-123456' }],
      rate_window_seconds: 3,
    }),
  );
  // The descriptor names nothing that listens: the preflight stops a run at once; the fake k6 stands in for the target with --no-preflight.
  const stopped = cli([
    'load',
    '--scenario',
    'rate-window',
    '--k6',
    fakeK6(1),
    '--target-file',
    target,
    '--report-dir',
    join(dir, 'stopped'),
  ]);
  expect(stopped.status).toBe(2);
  expect(stopped.stderr).toMatch(/load: preflight failed: the target http:\/\/127\.0\.0\.1:9 is not reachable/);
  const ok = cli([
    'load',
    '--scenario',
    'rate-window',
    '--no-preflight',
    '--k6',
    fakeK6(1),
    '--target-file',
    target,
    '--source-ips',
    '127.0.0.2-127.0.0.3',
    '--report-dir',
    join(dir, 'ok'),
  ]);
  expect(ok.stdout).toContain('on the k6 engine');
  expect(ok.status).toBe(0);
  const seen = JSON.parse(readFileSync(join(dir, 'args-1.json'), 'utf8')) as { argv: string[]; target: string };
  expect(seen.argv).toContain('--local-ips');
  expect(seen.argv.join(' ')).not.toContain('secret-token');
  expect(JSON.parse(seen.target).bases[0].api_token).toBe('secret-token-123456');
  const results = readFileSync(join(dir, 'ok', 'results.json'), 'utf8');
  expect(JSON.parse(results).engine).toBe('k6');
  expect(results).not.toContain('secret-token');

  const bad = cli([
    'load',
    '--scenario',
    'rate-window',
    '--no-preflight',
    '--k6',
    fakeK6(2),
    '--target-file',
    target,
    '--report-dir',
    join(dir, 'bad'),
  ]);
  expect(bad.status).toBe(99);
  expect(readFileSync(join(dir, 'bad', 'junit.xml'), 'utf8')).toMatch(
    /<failure message="window_reopened\{clause:RATE-4\}: measured 2/,
  );

  // A split-run instance: k6 gets its segment, judges nothing, and its samples stay where --out says.
  const seg = cli([
    'load',
    '--scenario',
    'rate-window',
    '--no-preflight',
    '--k6',
    fakeK6(1),
    '--target-file',
    target,
    '--execution-segment',
    '0:1/2',
    '--execution-segment-sequence',
    '0,1/2,1',
    '--no-thresholds',
    '--out',
    `json=${join(dir, 'kept.json')}`,
    '--report-dir',
    join(dir, 'seg'),
  ]);
  expect(seg.status, seg.stderr).toBe(0);
  const segArgs = (JSON.parse(readFileSync(join(dir, 'args-1.json'), 'utf8')) as { argv: string[] }).argv.join(' ');
  expect(segArgs).toContain('--execution-segment 0:1/2 --execution-segment-sequence 0,1/2,1 --no-thresholds');
  expect(segArgs).toContain(`--out json=${join(dir, 'kept.json')}`);
  expect(readFileSync(join(dir, 'kept.json'), 'utf8')).toContain('"window_reopened"');
  expect(seg.stdout).toContain('0/0 thresholds met');

  const merged = cli([
    'load',
    'merge',
    join(dir, 'ok', 'results.json'),
    join(dir, 'ok', 'results.json'),
    '--report-dir',
    join(dir, 'merged'),
  ]);
  expect(merged.status).toBe(99); // 1 + 1 reopened windows: the per-run total of 1 no longer holds
  const m = JSON.parse(readFileSync(join(dir, 'merged', 'results.json'), 'utf8')) as {
    instances: number;
    thresholds: { selector: string; measured: number }[];
  };
  expect(m.instances).toBe(2);
  expect(m.thresholds.find((t) => t.selector === 'window_reopened{clause:RATE-4}')!.measured).toBe(2);
});

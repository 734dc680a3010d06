/**
 * `--find-capacity` end to end: on the built-in runner against a loopback stub whose capacity
 * is known (a fixed service time behind a fixed number of slots: capacity = slots / service
 * time), on stock k6 as a stand-in k6 sees it (its arguments and step environment, per step),
 * and refused for an instance of a split run.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCapacity, planFor } from './find.js';
import { DEFAULT_BOUNDS } from './search.js';
import { renderReport } from '../test-helpers.js';
import { cliEntry } from '../../../test/helpers/cli.js';

// Independent tests (each its own server or stand-in k6, its own files): on separate workers.
test.describe.configure({ mode: 'parallel' });

const dir = mkdtempSync(join(tmpdir(), 'find-capacity-'));
const cli = (args: string[]) =>
  spawnSync(process.execPath, [cliEntry(), ...args], {
    encoding: 'utf8',
    env: { ...process.env },
    timeout: 120_000,
  });

/**
 * SLOTS requests served at a time, each for SERVICE_MS, the rest queued (FIFO). The slots keep
 * a schedule of their own (a request starts when its slot frees, on paper, and is answered at
 * its scheduled end): a late timer on a busy machine delays one answer, never the ones behind
 * it, so the capacity is exactly SLOTS / SERVICE_MS however loaded the machine is.
 */
async function slotServer(slots: number, serviceMs: number) {
  const free = Array.from({ length: slots }, () => 0);
  const srv = createServer((_req, res) => {
    const now = performance.now();
    const k = free.indexOf(Math.min(...free));
    const end = Math.max(now, free[k]!) + serviceMs;
    free[k] = end;
    setTimeout(() => res.end('ok'), end - now);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  };
}

test('the search converges within ±10 % on a stub whose capacity is known (2 slots × 20 ms = 100 it/s), and names latency', async () => {
  const stub = await slotServer(2, 20);
  try {
    const code = `import http from 'k6/http';
export const options = { scenarios: { capacity: { executor: 'ramping-arrival-rate', startRate: 1, timeUnit: '1s', preAllocatedVUs: 1, maxVUs: 2, stages: [{ duration: '1s', target: 1 }] } } };
export default function () { http.get(__ENV.URL + '/'); }`;
    const lines: string[] = [];
    const { search, out } = await findCapacity({
      bundleCode: code,
      scriptDir: dir,
      options: {},
      env: { URL: stub.url },
      log: (l) => lines.push(l),
      // Past capacity the queue grows by (rate / capacity − 1) × 1.5 s a step: 100 ms of p95 over the
      // service time is crossed from 7 % over capacity on, and is a margin for a busy machine's delays.
      slo: { p95Ms: 120, errorPct: 1 },
      bounds: {
        ...DEFAULT_BOUNDS,
        startRate: 60,
        maxRate: 400,
        stepSeconds: 1.5,
        precisionPct: 8,
        maxDurationMs: 40_000,
      },
    });
    expect(out.exitCode, lines.join('\n')).toBe(0);
    expect(search.stoppedBy, search.why).toBe('converged');
    expect(Math.abs(search.figure - 100) / 100, search.why).toBeLessThanOrEqual(0.1);
    expect(search.cause).toBe('latency');
    expect(search.steps[0]!.rate).toBe(60);
    expect(search.steps.filter((s) => s.ok).every((s) => s.p95Ms <= 120 && s.generator === '')).toBe(true);
  } finally {
    await stub.close();
  }
});

/** A stand-in k6 for a target that holds `capacity` it/s: it logs its arguments and step environment and writes one step's samples. */
function fakeK6(capacity: number): string {
  const f = join(dir, 'fake-k6');
  writeFileSync(
    f,
    `#!/usr/bin/env node
const fs = require('fs');
const rate = Number(process.env.STEP_RATE), secs = Number(process.env.STEP_SECONDS);
fs.appendFileSync(${JSON.stringify(join(dir, 'steps.jsonl'))}, JSON.stringify({ argv: process.argv.slice(2), env: { STEP_RATE: process.env.STEP_RATE, STEP_SECONDS: process.env.STEP_SECONDS, STEP_VUS: process.env.STEP_VUS, STEP_MAX_VUS: process.env.STEP_MAX_VUS, STEP_GRACE_SECONDS: process.env.STEP_GRACE_SECONDS } }) + '\\n');
const out = process.argv.find((a) => a.startsWith('json=')).slice(5);
const t0 = Date.now(), lines = [];
for (let i = 0; i < rate * secs; i++) {
  const time = new Date(t0 + Math.floor(i * 1000 / rate)).toISOString(), tags = { scenario: 'capacity', status: '200', expected_response: 'true', name: 'list' };
  lines.push(JSON.stringify({ type: 'Point', metric: 'http_req_duration', data: { time, value: rate <= ${capacity} ? 12 : 900, tags } }));
  lines.push(JSON.stringify({ type: 'Point', metric: 'iterations', data: { time, value: 1, tags: { scenario: 'capacity' } } }));
}
fs.writeFileSync(out, lines.join('\\n') + '\\n');
`,
  );
  chmodSync(f, 0o755);
  return f;
}

test('on stock k6: one k6 run per step, each told its step in the environment, --no-thresholds; the report states the figure, SLO and cause, the steps charted', async () => {
  const r = cli([
    'load',
    '--scenario',
    'capacity',
    '--find-capacity',
    '--k6',
    fakeK6(190),
    '--target',
    'http://127.0.0.1:9',
    '--no-preflight',
    '--step-seconds',
    '1',
    '--start-rate',
    '100',
    '--max-rate',
    '800',
    '--p95-budget',
    '300',
    '--max-error-rate',
    '2',
    '--report-dir',
    join(dir, 'k6'),
  ]);
  expect(r.status, r.stderr).toBe(0);
  const steps = readFileSync(join(dir, 'steps.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { argv: string[]; env: Record<string, string> });
  const res = JSON.parse(readFileSync(join(dir, 'k6', 'results.json'), 'utf8')) as {
    search: { figure: number; brokeAt: number; cause: string; steps: { rate: number }[] };
    capacity: { sustainedRate: number };
  };
  expect(steps.map((s) => Number(s.env.STEP_RATE))).toEqual(res.search.steps.map((s) => s.rate));
  // Doubling, and the break that would end the climb tried again.
  expect(steps.slice(0, 3).map((s) => s.env.STEP_RATE)).toEqual(['100', '200', '200']);
  const outs = new Set<string>();
  for (const s of steps) {
    const p = planFor(Number(s.env.STEP_RATE), { p95Ms: 300, errorPct: 2 }, 1);
    expect(s.env).toEqual({
      STEP_RATE: String(p.rate),
      STEP_SECONDS: '1',
      STEP_VUS: String(p.preAllocatedVUs),
      STEP_MAX_VUS: String(p.maxVUs),
      STEP_GRACE_SECONDS: String(p.graceSeconds),
    });
    expect(s.argv[0]).toBe('run');
    expect(s.argv).toContain('--no-thresholds');
    expect(s.argv.join(' ')).not.toContain('--execution-segment');
    outs.add(s.argv.find((a) => a.startsWith('json='))!);
  }
  expect(outs.size).toBe(steps.length);
  expect(Math.abs(res.search.figure - 190) / 190).toBeLessThanOrEqual(0.1);
  expect(res.search).toMatchObject({ cause: 'latency' });
  expect(res.capacity.sustainedRate).toBe(res.search.figure);
  expect(r.stdout).toContain(
    `capacity found: ${res.search.figure} it/s sustained (p95 ≤ 300 ms, failed requests ≤ 2 %); broke at ${res.search.brokeAt} it/s: p95`,
  );
  const html = readFileSync(join(dir, 'k6', 'report.html'), 'utf8');
  expect(html).toContain(
    `Capacity found: <strong>${res.search.figure} iterations/s</strong> within the SLO (p95 ≤ 300 ms, failed requests ≤ 2 %)`,
  );
  const drawn = await renderReport(join(dir, 'k6', 'report.html'));
  expect(drawn.problems).toEqual([]);
  expect(drawn.canvases.find((c) => c.id === 'search')?.inked).toBeGreaterThan(1000);
  expect(readFileSync(join(dir, 'k6', 'junit.xml'), 'utf8')).toContain(
    `<property name="figure" value="${res.search.figure}"/>`,
  );
});

test('an instance of a split run does not search: refused before anything is sent, pointing at the staircase and load merge', () => {
  const r = cli([
    'load',
    '--scenario',
    'capacity',
    '--find-capacity',
    '--engine',
    'builtin',
    '--target',
    'http://127.0.0.1:9',
    '--execution-segment',
    '0:1/2',
    '--execution-segment-sequence',
    '0,1/2,1',
  ]);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('--find-capacity cannot run as one instance of a split run (--execution-segment)');
  expect(r.stderr).toContain('`conformance load merge` adds the instances second by second and reports the knee');
  expect(r.stderr).not.toContain('conformance load: target:');
});

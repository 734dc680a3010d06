/**
 * Several generators on one scenario, as k6 splits a run (--execution-segment within
 * --execution-segment-sequence), against one reference server: 2 and 3 built-in instances
 * reach the same exact counts and verdicts as one run; and the k6-format JSON (`--out json`,
 * `--no-thresholds`) of a two-segment run of every scenario merges — judged by `load merge`
 * with the target the instances had, its secrets left out — into a run that meets its thresholds.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, type ChildServer } from './server-child.js';
import { runLoad, type LoadRunResult } from './run.js';
import { mergeResults } from './report/results.js';
import type { Results } from './report/schema.js';
import { cliEntry } from '../../test/helpers/cli.js';

const WINDOW = 3;
const LIMITS = { API_GATEWAY_BASE_API_LIMIT_PER_MINUTE: '100', API_ACCOUNT_LIMIT_PER_MINUTE: '120' };
const ENV = {
  LIMIT_GATEWAY: '100',
  LIMIT_ACCOUNT: '120',
  STEPS: '2',
  HOLD_SECONDS: '2',
  PEAK_RATE: '40',
  START_RATE: '20',
  PRE_VUS: '12',
};
const dir = mkdtempSync(join(tmpdir(), 'load-split-'));
let limited: ChildServer, unlimited: ChildServer;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  [limited, unlimited] = await Promise.all([
    startChildServer({ rateWindowSeconds: WINDOW, unlimited: false, env: LIMITS }),
    startChildServer({ rateWindowSeconds: WINDOW, unlimited: true, env: {} }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([limited?.close(), unlimited?.close()]);
});

/** A descriptor file for a server; `secrets: false` leaves every credential out (all `load merge` needs). */
function descriptorFile(srv: ChildServer, name: string, secrets = true): string {
  const d = srv.descriptor;
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify(
      secrets
        ? d
        : {
            url: d.url,
            edition: d.edition,
            api_version: d.api_version,
            rate_window_seconds: d.rate_window_seconds,
            bases: d.bases.map((b) => ({ name: b.name, uuid: b.uuid })),
          },
    ),
  );
  return f;
}

/** A window start far enough ahead for every instance to be ready (VU threads warmed, setup done) even on a busy machine, so all burst in the same window. */
const nextWindow = (lead = 15) => String(Math.ceil((Date.now() / 1000 + lead) / WINDOW) * WINDOW);

const segmentsOf = (seq: string) => {
  const p = seq.split(',');
  return p.slice(1).map((to, i) => `${p[i]}:${to}`);
};

async function splitRun(
  scenario: string,
  seq: string,
  srv: ChildServer,
  extra: { env?: Record<string, string>; sourceIps?: string; outJson?: boolean } = {},
): Promise<LoadRunResult[]> {
  const targetFile = descriptorFile(srv, 'target');
  return Promise.all(
    segmentsOf(seq).map((segment, i) =>
      runLoad({
        scenario,
        engine: 'builtin',
        targetFile,
        segment,
        segmentSequence: seq,
        noThresholds: true,
        env: { ...ENV, ...(extra.env ?? {}) },
        reportDir: join(dir, `${scenario}-${seq}-${i}`),
        log: () => undefined,
        ...(extra.sourceIps ? { sourceIps: extra.sourceIps } : {}),
        ...(extra.outJson ? { outJson: join(dir, `${scenario}-${i}.json`) } : {}),
      }),
    ),
  );
}

const verdicts = (r: Results) => r.thresholds.map((t) => [t.selector, t.source, t.measured, t.ok]);

test('rate-per-base on 2 and on 3 built-in instances: the same exact counts and verdicts as a single run', async () => {
  test.setTimeout(300_000);
  const single = await runLoad({
    scenario: 'rate-per-base',
    engine: 'builtin',
    targetFile: descriptorFile(limited, 'target'),
    env: ENV,
    reportDir: join(dir, 'single'),
    log: () => undefined,
  });
  expect(single.exitCode).toBe(0);
  const want = verdicts(single.results).filter(([sel]) => sel !== 'rate_window_crossings');
  expect(want.length).toBeGreaterThan(8);
  for (const seq of ['0,1/2,1', '0,1/3,2/3,1']) {
    const parts = await splitRun('rate-per-base', seq, limited, { env: { START_AT: nextWindow() } });
    // Each instance alone cannot judge totals (--no-thresholds); merged, the whole is judged once.
    for (const p of parts) expect(p.results.thresholds).toEqual([]);
    const merged = mergeResults(
      parts.map((p) => p.results),
      500,
    );
    expect(merged.instances).toBe(segmentsOf(seq).length);
    expect(
      verdicts(merged).filter(([sel]) => sel !== 'rate_window_crossings'),
      seq,
    ).toEqual(want);
    expect(
      merged.thresholds.every((t) => t.ok),
      seq,
    ).toBe(true);
    expect(merged.exitCode).toBe(0);
  }
});

const MERGE_CASES: [
  scenario: string,
  server: () => ChildServer,
  extra: { env?: () => Record<string, string>; sourceIps?: string },
][] = [
  ['rate-per-base', () => limited, { env: () => ({ START_AT: nextWindow() }) }],
  ['rate-per-ip', () => limited, { env: () => ({ START_AT: nextWindow() }), sourceIps: '127.0.0.2-127.0.0.3' }],
  ['rate-window', () => limited, {}],
  ['row-limits', () => limited, {}],
  ['capacity', () => unlimited, {}],
];

for (const [scenario, server, extra] of MERGE_CASES) {
  test(`${scenario}: k6 JSON of a two-segment run (the runner's --out json) merges with \`load merge --target-file\` (no secrets) into a run that meets its thresholds`, async () => {
    test.setTimeout(180_000);
    const env = extra.env?.() ?? {};
    const parts = await splitRun(scenario, '0,1/2,1', server(), {
      env,
      outJson: true,
      ...(extra.sourceIps ? { sourceIps: extra.sourceIps } : {}),
    });
    const files = parts.map((_, i) => join(dir, `${scenario}-${i}.json`));
    const first = readFileSync(files[0]!, 'utf8').split('\n')[0]!;
    expect(JSON.parse(first)).toMatchObject({
      type: 'Metric',
      data: { name: expect.any(String), type: expect.any(String) },
    });
    for (const f of files) expect(readFileSync(f, 'utf8')).not.toMatch(/api_token|access_token|eyJ/);
    const args = [
      'load',
      'merge',
      '--scenario',
      scenario,
      '--target-file',
      descriptorFile(server(), `bare-${scenario}`, false),
      '--report-dir',
      join(dir, `merged-${scenario}`),
      ...Object.entries({ ...ENV, ...env }).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
      ...(extra.sourceIps ? ['--source-ips', extra.sourceIps] : []),
      ...files,
    ];
    const r = spawnSync(process.execPath, [cliEntry(), ...args], {
      encoding: 'utf8',
      env: process.env,
      timeout: 120_000,
    });
    const merged = JSON.parse(readFileSync(join(dir, `merged-${scenario}`, 'results.json'), 'utf8')) as Results;
    expect(merged.instances).toBe(2);
    // Capacity's latency and dropped-iteration thresholds measure this machine, not the target's conformance.
    const judged = merged.thresholds.filter(
      (t) => scenario !== 'capacity' || !/^(dropped_iterations|http_req_duration)/.test(t.selector),
    );
    expect(
      judged.filter((t) => !t.ok),
      r.stderr,
    ).toEqual([]);
    expect(judged.length).toBeGreaterThanOrEqual(2);
    if (scenario !== 'capacity') expect(r.status, r.stderr).toBe(0);
    // The capacity curve adds up per second: together the two halves offered the whole schedule.
    else
      expect(merged.capacity).toMatchObject({
        peakOfferedRate: Number(ENV.PEAK_RATE),
        sustainedRate: expect.any(Number),
      });
  });
}

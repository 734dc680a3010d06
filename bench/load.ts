/**
 * The built-in runner's speed: a bare node:http server in a child process (its own core),
 * a constant-vus GET script on the built-in runner, autocannon (the npm baseline) and, when
 * `k6` is on PATH, stock k6 running the same bundle, against the same server in the same run
 * (without k6 the figure says it was skipped). Then a split run — two instances on execution segments
 * 0:1/2 and 1/2:1 at once, merged as `load merge` merges them — against a single instance.
 * Then the capacity the runner reports for an arrival-rate ramp, and a run held at that rate
 * (after a three-second climb) to confirm the generator drops no iteration there.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { bundleFile } from '../src/load/bundle.js';
import { findK6 } from '../src/load/k6/run-k6.js';
import { runBuiltin, type RunOutcome } from '../src/load/engine/run.js';
import { capacity } from '../src/load/report/capacity.js';
import { fillOffered, mergeResults, resultsOfRun } from '../src/load/report/results.js';
import { bare, stop } from './lib/servers.js';
import { median } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const count = (o: RunOutcome, name: string) => {
  const s = o.registry.metrics.get(name)?.sink;
  return s?.type === 'counter' ? s.sum : 0;
};

export async function run(): Promise<Record<string, number | string>> {
  const vus = Number(process.env.BENCH_VUS ?? 10);
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  // Pre-allocated VUs of the arrival-rate runs: an idle VU costs a parked promise, and every
  // idle one absorbs a little more of a stall (a pause of the VU thread, or of the main thread
  // that hands out the iterations) before an iteration finds no VU.
  const arrivalVus = process.env.BENCH_ARRIVAL_VUS ?? '1000';
  const server = await bare();
  const url = `${server.url}/`;
  try {
    const get = await bundleFile(join(here, '../load/bench/get.ts'), 'bench-get');
    const arrival = await bundleFile(join(here, '../load/bench/arrival.ts'), 'bench-arrival');
    const log = () => undefined;
    // Warm both paths once (JIT, connections), then measure each at equal concurrency, back to back.
    await runBuiltin({
      bundleCode: get.code,
      scriptDir: here,
      env: { URL: url, VUS: String(vus), DURATION: '1' },
      log,
    });
    // CPU of this process (every thread, user + system) per request: the figure a shared machine's load moves least.
    const cpuMs = () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    };
    const cpuPerRequest: Record<'builtin' | 'autocannon', number[]> = { builtin: [], autocannon: [] };
    const builtin = async (n: number) => {
      const c0 = cpuMs();
      const b = await runBuiltin({
        bundleCode: get.code,
        scriptDir: here,
        env: { URL: url, VUS: String(n), DURATION: String(seconds) },
        log,
      });
      if (n === vus) cpuPerRequest.builtin.push(((cpuMs() - c0) * 1000) / count(b, 'http_reqs'));
      return count(b, 'http_reqs') / (b.durationMs / 1000);
    };
    const cannon = async (n: number) => {
      const c0 = cpuMs();
      const ac = await autocannon({ url, connections: n, duration: seconds });
      if (n === vus) cpuPerRequest.autocannon.push(((cpuMs() - c0) * 1000) / ac.requests.total);
      return ac.requests.total / (ac.duration || seconds);
    };
    const k6 = findK6();
    const stock = k6
      ? (n: number) => runStockK6(k6, get.code, { URL: url, VUS: String(n), DURATION: String(seconds) })
      : null;
    // Each round runs every side once, the order turning round by round, so drift of the shared
    // machine cancels out; ratios are taken per round and the median reported, with the range.
    const sides = (n: number): [keyof Round, () => Promise<number>][] => [
      ['builtin', () => builtin(n)],
      ['autocannon', () => cannon(n)],
      ...(stock ? [['k6', () => stock(n)] as [keyof Round, () => Promise<number>]] : []),
    ];
    const pair = async (n: number) => {
      const rounds: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const r: Round = { builtin: NaN, autocannon: NaN, k6: NaN };
        const list = sides(n);
        for (let j = 0; j < list.length; j++) {
          const [name, measure] = list[(i + j) % list.length]!;
          r[name] = await measure();
        }
        rounds.push(r);
      }
      const ratios = rounds.map((r) => r.builtin / r.autocannon);
      const k6Ratios = rounds.map((r) => r.builtin / r.k6);
      return {
        builtin: median(rounds.map((r) => r.builtin)),
        autocannon: median(rounds.map((r) => r.autocannon)),
        ratio: median(ratios),
        range: range(ratios),
        k6: median(rounds.map((r) => r.k6)),
        k6Ratio: median(k6Ratios),
        k6Range: range(k6Ratios),
      };
    };
    const narrow = await pair(vus);
    const builtinRps = narrow.builtin;
    const wide = await pair(vus * 5);

    // Split: the same VUs on two instances at once; their merged results against one instance's, round by round.
    const meta = {
      scenario: 'bench-get',
      clauses: [],
      target: { url, edition: 'self-hosted', api_version: '6.2' },
      p95BudgetMs: 500,
    };
    const splitRun = async () => {
      const outs = await Promise.all(
        ['0:1/2', '1/2:1'].map((segment) =>
          runBuiltin({
            bundleCode: get.code,
            scriptDir: here,
            env: { URL: url, VUS: String(vus), DURATION: String(seconds) },
            segment,
            segmentSequence: '0,1/2,1',
            log,
          }),
        ),
      );
      const merged = mergeResults(
        outs.map((o) => resultsOfRun(o, meta)),
        500,
      );
      const reqs = merged.metrics.find((m) => m.name === 'http_reqs')!.sink;
      return (reqs.type === 'counter' ? reqs.sum : 0) / (merged.durationMs / 1000);
    };
    const splits: { split: number; single: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2) {
        const single = await builtin(vus);
        splits.push({ single, split: await splitRun() });
      } else {
        const split = await splitRun();
        splits.push({ split, single: await builtin(vus) });
      }
    }
    const splitRatios = splits.map((r) => r.split / r.single);

    // Capacity: climb in 5-s plateaus (as long as the confirming run holds its rate) past what the generator and server can do; the report's rule picks the rate.
    const peak = Math.ceil(builtinRps);
    const ramp = await runBuiltin({
      bundleCode: arrival.code,
      scriptDir: here,
      env: { URL: url, PEAK: String(peak), STEPS: '10', HOLD: '5', VUS: arrivalVus },
      log,
    });
    fillOffered(ramp.series, ramp.scenarios, ramp.durationMs);
    const cap = capacity(ramp.series, 500);
    const sustained = Math.floor(cap?.sustainedRate ?? 0);
    const confirm =
      sustained > 0
        ? await runBuiltin({
            bundleCode: arrival.code,
            scriptDir: here,
            env: { URL: url, RATE: String(sustained), CLIMB: '3', SECONDS: '5', VUS: arrivalVus },
            log,
          })
        : undefined;
    return {
      'load.builtin_rps': Math.round(narrow.builtin),
      'load.autocannon_rps': Math.round(narrow.autocannon),
      'load.ratio_builtin_to_autocannon': Math.round(narrow.ratio * 100) / 100,
      'load.ratio_range': narrow.range,
      'load.vus_and_connections': vus,
      'load.builtin_cpu_us_per_request': cpuFigure(cpuPerRequest.builtin.slice(0, ROUNDS)),
      'load.autocannon_cpu_us_per_request': cpuFigure(cpuPerRequest.autocannon),
      ...(stock
        ? {
            'load.k6_rps': Math.round(narrow.k6),
            'load.ratio_builtin_to_k6': Math.round(narrow.k6Ratio * 100) / 100,
            'load.ratio_k6_range': narrow.k6Range,
            'load.ratio_k6_target': narrow.k6Ratio >= 1.5 ? 'goal met (≥ 1.5× k6)' : 'MISSED (goal ≥ 1.5× k6)',
          }
        : { 'load.k6_rps': 'skipped: no k6 on PATH' }),
      [`load.builtin_rps_${vus * 5}vus`]: Math.round(wide.builtin),
      [`load.autocannon_rps_${vus * 5}conns`]: Math.round(wide.autocannon),
      [`load.ratio_${vus * 5}`]: Math.round(wide.ratio * 100) / 100,
      [`load.ratio_${vus * 5}_range`]: wide.range,
      'load.ratio_target': narrow.ratio >= 0.8 ? 'goal met (≥ 0.8× autocannon)' : 'MISSED (goal ≥ 0.8× autocannon)',
      'load.split_2_instances_rps': Math.round(median(splits.map((r) => r.split))),
      'load.split_single_instance_rps': Math.round(median(splits.map((r) => r.single))),
      'load.ratio_split_merged_to_single': Math.round(median(splitRatios) * 100) / 100,
      'load.ratio_split_range': `${Math.min(...splitRatios).toFixed(2)}–${Math.max(...splitRatios).toFixed(2)} over ${ROUNDS} rounds`,
      'load.capacity_reported_it_per_s': sustained,
      'load.arrival_vus': arrivalVus,
      'load.capacity_limited_by': cap?.limitedBy ?? 'no capacity figure',
      'load.dropped_at_capacity_held_run': confirm
        ? count(confirm, 'dropped_iterations')
        : 'not run: no capacity figure',
      'load.iterations_at_capacity_held_run': confirm ? count(confirm, 'iterations') : 0,
    };
  } finally {
    await stop(server);
  }
}

interface Round {
  builtin: number;
  autocannon: number;
  k6: number;
}

/** Median CPU µs per request over the rounds, and the range (the narrow runs; the split runs' single instance not counted). */
const cpuFigure = (xs: number[]) =>
  `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)} over ${ROUNDS} rounds`;

/** Stock k6 on the same bundle: requests per second from its end-of-test summary (`--summary-export`). */
async function runStockK6(k6: string, code: string, env: Record<string, string>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-k6-'));
  try {
    const script = join(dir, 'get.js');
    const summary = join(dir, 'summary.json');
    writeFileSync(script, code);
    const exit = await new Promise<number | null>((resolve) => {
      const child = spawn(k6, ['run', '--quiet', '--no-usage-report', '--summary-export', summary, script], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('close', resolve);
    });
    if (exit !== 0) throw new Error(`k6 exited ${exit}`);
    const m = JSON.parse(readFileSync(summary, 'utf8')) as { metrics: { http_reqs?: { count?: number } } };
    return (m.metrics.http_reqs?.count ?? 0) / Number(env.DURATION);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().then(
    (r) => {
      for (const [k, v] of Object.entries(r)) process.stdout.write(`${k}: ${v}\n`);
    },
    (e) => {
      process.stderr.write(`${(e as Error).stack}\n`);
      process.exitCode = 1;
    },
  );
}

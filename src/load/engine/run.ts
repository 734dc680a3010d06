/**
 * The built-in runner: k6's test life cycle on the VU pool — init, setup, the scenarios at
 * their start times, teardown, thresholds, handleSummary — and k6's exit codes (99 for
 * breached thresholds, 104 invalid options, 107 script error, 108 aborted by the script).
 */
import { Registry } from '../metrics/registry.js';
import { TimeSeries } from '../metrics/timeseries.js';
import {
  abortingFailures,
  bindThresholds,
  evaluate,
  parseThresholds,
  type ThresholdResult,
} from '../metrics/thresholds.js';
import { summaryData, type CheckTally } from '../metrics/summary.js';
import { toCommonJs, workerBundle } from '../runtime/build.js';
import { Collector } from './collect.js';
import { runExecutor, type ExecContext } from './executors.js';
import { normaliseScenarios, scenarioEndMs, type Scenario } from './options.js';
import { parseDuration } from './duration.js';
import { VuPool, type VU } from './vus.js';
import { awaitableOrRefuse } from '../runtime/transform/awaitable.js';
import { availableParallelism } from 'node:os';
import { JsonOut } from './json-out.js';
import { HealthSampler } from './health.js';
import { parseHosts, type NetOptions } from './net-options.js';
import { executionTuple, segmentString, type Tuple } from './segment.js';
import { partOf, type Part } from './plan.js';
import { runSteps, type Stepper, type StepRun } from './steps.js';

const EXIT_CODES = {
  ok: 0,
  thresholds: 99,
  setupTimeout: 100,
  invalidConfig: 104,
  scriptException: 107,
  scriptAborted: 108,
} as const;

interface RunInput {
  bundleCode: string;
  scriptDir: string;
  env: Record<string, string>;
  sourceIps?: readonly string[];
  /** Called for script errors and logs (already redacted by the caller's sink). */
  log?: (line: string) => void;
  setupTimeoutMs?: number;
  /** Threads the VUs are spread over (default: one per core but one, at least one). */
  vuThreads?: number;
  /** k6's --execution-segment and --execution-segment-sequence: this instance's part of a split run. */
  segment?: string;
  segmentSequence?: string;
  /** k6's --out json=FILE: every sample as k6 writes it. */
  outJson?: string;
  /** k6's --no-thresholds: thresholds are not judged (an instance of a split run cannot judge totals). */
  noThresholds?: boolean;
  /** k6's --insecure-skip-tls-verify (also the script's `insecureSkipTLSVerify` option). */
  insecureSkipTLSVerify?: boolean;
  /** The CAs to trust (the system roots plus --ca-file); Node's defaults when not given. */
  ca?: string[];
  /** Name overrides on top of the script's `hosts` option; with hostsOnly, no other name resolves (tests). */
  hosts?: Record<string, string>;
  hostsOnly?: boolean;
  /** Run the script's arrival-rate scenario in steps the caller decides (the capacity search), not as scheduled. */
  steps?: Stepper;
}

export interface RunOutcome {
  engine: 'builtin' | 'k6';
  /** The threads the built-in runner spread its VUs over. */
  vuThreads?: number;
  registry: Registry;
  series: TimeSeries;
  checks: CheckTally[];
  thresholds: ThresholdResult[];
  scenarios: Scenario[];
  options: Record<string, unknown>;
  startedAt: number;
  durationMs: number;
  exitCode: number;
  aborted?: string;
  errors: string[];
  summaryOutputs: Record<string, string>;
  /** This instance's segment (`0:1` unsplit) and its share of each scenario. */
  segment: string;
  parts: Record<string, Part>;
  /** The steps of a stepped run, each with its own series. */
  steps?: StepRun[];
}

/**
 * Run a k6 bundle on the built-in runner. Throws ScriptRefused, before anything starts, when
 * the script cannot be made awaitable (it then runs on stock k6 only).
 */
export async function runBuiltin(input: RunInput): Promise<RunOutcome> {
  const log = input.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const script = await toCommonJs(awaitableOrRefuse(input.bundleCode));
  const registry = new Registry();
  registry.declareBuiltins();
  const series = new TimeSeries(Date.now());
  const collector = new Collector(registry, series);
  const errors: string[] = [];
  let abortReason: string | undefined;
  let signalAbort!: () => void;
  const aborted = new Promise<void>((r) => {
    signalAbort = r;
  });
  const abort = (reason: string) => {
    if (abortReason === undefined) {
      abortReason = reason;
      signalAbort();
    }
  };
  const seenErrors = new Map<string, number>();
  const onError = (m: string) => {
    const key = m.replace(/^VU \d+: /, '');
    const n = (seenErrors.get(key) ?? 0) + 1;
    seenErrors.set(key, n);
    if (n <= 3) {
      log(`ERROR ${m}`);
      errors.push(m);
    }
  };
  let tuple: Tuple;
  try {
    tuple = executionTuple(input.segment, input.segmentSequence);
  } catch (e) {
    // As k6, a bad segment is an invalid configuration; nothing has started yet.
    return {
      engine: 'builtin',
      registry,
      series,
      checks: [],
      thresholds: [],
      scenarios: [],
      options: {},
      startedAt: Date.now(),
      durationMs: 0,
      exitCode: EXIT_CODES.invalidConfig,
      errors: [`execution segment: ${(e as Error).message}`],
      summaryOutputs: {},
      segment: '',
      parts: {},
    };
  }
  const out = input.outJson ? new JsonOut(input.outJson, registry) : undefined;
  collector.out = out;
  const threads = Math.max(1, input.vuThreads ?? availableParallelism() - 1);
  const pool = new VuPool({
    workerFile: await workerBundle(),
    code: script,
    threads,
    env: input.env,
    scriptDir: input.scriptDir,
    optionsJSON: '{}',
    sourceIps: input.sourceIps ?? [],
    testStart: Date.now(),
    vuStripe: tuple.stripe(),
    collector,
    onAbort: abort,
    onError,
  });
  const base: Omit<RunOutcome, 'exitCode' | 'thresholds' | 'durationMs'> = {
    engine: 'builtin',
    vuThreads: threads,
    registry,
    series,
    checks: [],
    scenarios: [],
    options: {},
    startedAt: Date.now(),
    errors,
    summaryOutputs: {},
    segment: segmentString(tuple.segment),
    parts: {},
  };
  const finish = async (exitCode: number, thresholds: ThresholdResult[] = [], durationMs = 0): Promise<RunOutcome> => {
    await pool.close();
    out?.close();
    return {
      ...base,
      checks: [...collector.checks.values()],
      exitCode,
      thresholds,
      durationMs,
      ...(abortReason !== undefined ? { aborted: abortReason } : {}),
    };
  };

  let setupVu: VU;
  try {
    setupVu = await pool.spawn(0);
  } catch (e) {
    log(`ERROR ${(e as Error).message}`);
    errors.push((e as Error).message);
    return finish(EXIT_CODES.scriptException);
  }
  const ready = setupVu.ready!;
  const options = JSON.parse(ready.options) as Record<string, unknown>;
  base.options = options;
  let scenarios: Scenario[];
  const parsed = parseThresholds(options.thresholds);
  try {
    scenarios = normaliseScenarios(options);
    if ('error' in parsed) throw new Error(parsed.error);
    const bad = bindThresholds(parsed.specs, registry);
    if (bad) throw new Error(bad);
    const net: NetOptions = {
      insecure: input.insecureSkipTLSVerify === true || options.insecureSkipTLSVerify === true,
      ...(input.ca ? { ca: input.ca } : {}),
      hosts: { ...parseHosts(options.hosts), ...(input.hosts ?? {}) },
      hostsOnly: input.hostsOnly === true,
    };
    pool.configure(net);
  } catch (e) {
    log(`ERROR invalid options: ${(e as Error).message}`);
    errors.push((e as Error).message);
    await setupVu.worker.terminate();
    return finish(EXIT_CODES.invalidConfig);
  }
  const specs = 'specs' in parsed && !input.noThresholds ? parsed.specs : [];
  base.scenarios = scenarios;
  // This instance's part of each scenario; one whose part is nothing is not run (k6's HasWork).
  const parts = Object.fromEntries(scenarios.map((s) => [s.name, partOf(s, tuple)]));
  base.parts = parts;
  const working = scenarios.filter((s) => parts[s.name]!.hasWork);
  if (input.steps && !working.some((s) => s.executor.endsWith('arrival-rate'))) {
    errors.push("a run in steps needs an arrival-rate scenario in the script's options");
    await setupVu.worker.terminate();
    return finish(EXIT_CODES.invalidConfig);
  }

  // Initialise every scenario's pre-allocated VUs before setup(), as k6 does: the scenarios then start
  // right after setup() returns (a setup that waits for a rate window starts the burst in that window).
  const want = working.reduce(
    (a, s) => a + (s.executor.endsWith('arrival-rate') ? parts[s.name]!.preAllocatedVUs : parts[s.name]!.vus),
    0,
  );
  try {
    for (let i = 0; i < want; i += 8)
      await Promise.all(Array.from({ length: Math.min(8, want - i) }, () => pool.spawn()));
  } catch (e) {
    onError((e as Error).message);
    return finish(EXIT_CODES.scriptException);
  }

  let setupData = '';
  if (ready.exports.includes('setup')) {
    // k6's setupTimeout option (default 60 s), unless the caller bounds it.
    const timeout = input.setupTimeoutMs ?? parseDuration(options.setupTimeout ?? '60s') ?? 60_000;
    const r = await Promise.race([
      setupVu.send({ t: 'call', fn: 'setup', arg: '' }),
      new Promise<null>((res) => setTimeout(() => res(null), timeout).unref()),
    ]);
    if (r === null) {
      setupVu.interrupt();
      await setupVu.worker.terminate();
      errors.push('setup() timed out');
      return finish(EXIT_CODES.setupTimeout);
    }
    if (r.errors.length) {
      for (const e of r.errors) onError(`setup: ${e}`);
      await setupVu.worker.terminate();
      return finish(EXIT_CODES.scriptException);
    }
    setupData = r.result ?? '';
  }

  const t0 = Date.now();
  series.t0 = t0;
  base.startedAt = t0;
  const ctx: ExecContext = { pool, collector, setupData, aborted, owner: new Map() };
  const health = new HealthSampler(series, () => pool.workers());
  const ticker = setInterval(() => {
    const active = pool.active;
    Atomics.store(pool.instance, 2, active);
    collector.vus(active, pool.initialized, Date.now());
    const failing = abortingFailures(specs, registry, Date.now() - t0);
    if (failing.length) abort(`thresholds ${failing.map((f) => `${f.selector}: ${f.source}`).join(', ')} crossed`);
  }, 1000);
  // A hard bound on the whole run, whatever the script does.
  const hardEnd = (input.steps ? input.steps.maxMs : Math.max(0, ...working.map(scenarioEndMs))) + 30_000;
  const hard = setTimeout(() => abort('the run exceeded its maximum duration'), hardEnd).unref();
  if (input.steps) {
    const s = working.find((w) => w.executor.endsWith('arrival-rate'));
    base.steps = await runSteps(ctx, s!, input.steps, tuple, [collector, health], () => abortReason !== undefined);
  } else {
    await Promise.all(
      working.map(async (s) => {
        await Promise.race([new Promise((r) => setTimeout(r, s.startTimeMs).unref()), aborted]);
        if (abortReason !== undefined) return;
        await runExecutor(ctx, s, parts[s.name]!);
      }),
    );
  }
  clearInterval(ticker);
  clearTimeout(hard);
  health.stop();
  collector.vus(0, pool.initialized, Date.now());
  const durationMs = Date.now() - t0;

  if (ready.exports.includes('teardown')) {
    const r = await setupVu.send({ t: 'call', fn: 'teardown', arg: setupData });
    for (const e of r.errors) onError(`teardown: ${e}`);
  }
  const thresholds = evaluate(specs, registry, durationMs);
  if (ready.exports.includes('handleSummary')) {
    const data = summaryData(
      registry,
      thresholds,
      [...collector.checks.values()],
      durationMs,
      (options.summaryTrendStats as string[] | undefined) ?? undefined,
    );
    if (setupData) data.setup_data = JSON.parse(setupData);
    const r = await setupVu.send({ t: 'call', fn: 'handleSummary', arg: JSON.stringify(data) });
    for (const e of r.errors) onError(`handleSummary: ${e}`);
    if (r.result) {
      const out = JSON.parse(r.result) as Record<string, unknown>;
      for (const [k, v] of Object.entries(out ?? {}))
        base.summaryOutputs[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
  const code =
    abortReason !== undefined && !thresholds.some((t) => !t.ok)
      ? EXIT_CODES.scriptAborted
      : thresholds.some((t) => !t.ok)
        ? EXIT_CODES.thresholds
        : EXIT_CODES.ok;
  return finish(code, thresholds, durationMs);
}

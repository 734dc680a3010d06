/**
 * `--find-capacity` on either engine. Each step is a bounded constant-arrival-rate run of the
 * scenario at the rate the search picks, with VUs sized for that rate at the SLO's latency.
 * The built-in runner runs every step in one life cycle (setup() once, VUs kept warm: the
 * steps are judged apart, from series of their own); stock k6 runs once per step, told the
 * step through its environment (STEP_RATE, STEP_SECONDS, STEP_VUS, STEP_MAX_VUS,
 * STEP_GRACE_SECONDS: the scenario turns into that constant-arrival-rate step) with
 * --no-thresholds, since a step that breaks the SLO is expected. Thresholds are not judged:
 * the search's verdict is its figure.
 */
import { runBuiltin, type RunOutcome } from '../engine/run.js';
import type { StepPlan, StepRun } from '../engine/steps.js';
import { runK6, type K6Input } from '../k6/run-k6.js';
import { Registry } from '../metrics/registry.js';
import { sumChecks } from '../metrics/summary.js';
import { TimeSeries } from '../metrics/timeseries.js';
import type { Search } from '../report/schema.js';
import { judgeStep, type Slo } from './judge.js';
import { CapacitySearch, type SearchBounds } from './search.js';

/** What a run on stock k6 takes too (run-k6.ts), and what the search and the built-in runner add. */
interface FindInput extends Pick<K6Input, 'bundleCode' | 'options' | 'declared' | 'env' | 'sourceIps' | 'insecure'> {
  k6?: string;
  scriptDir: string;
  hosts?: Record<string, string>;
  hostsOnly?: boolean;
  log: (line: string) => void;
  slo: Slo;
  bounds: SearchBounds;
}

/** No step gets more VUs than this (the search's own bound on the generator's memory). */
const MAX_VUS_CAP = 2000;

/** VUs for `rate` iterations/s at the SLO's latency (Little's law), twice that at most; a grace long enough for a queued request at twice the SLO. */
export function planFor(rate: number, slo: Slo, seconds: number): StepPlan {
  const inFlight = (rate * slo.p95Ms) / 1000;
  const pre = Math.min(MAX_VUS_CAP, Math.ceil(inFlight) + 1);
  return {
    rate,
    seconds,
    preAllocatedVUs: pre,
    maxVUs: Math.min(MAX_VUS_CAP, Math.max(pre, Math.ceil(2 * inFlight)) + 2),
    graceSeconds: graceFor(slo),
  };
}

const graceFor = (slo: Slo) => Math.min(10, Math.max(1, Math.ceil((2 * slo.p95Ms) / 1000)));

function stepEnv(p: StepPlan): Record<string, string> {
  return {
    STEP_RATE: String(p.rate),
    STEP_SECONDS: String(p.seconds),
    STEP_VUS: String(p.preAllocatedVUs),
    STEP_MAX_VUS: String(p.maxVUs),
    STEP_GRACE_SECONDS: String(p.graceSeconds),
  };
}

export async function findCapacity(input: FindInput): Promise<{ out: RunOutcome; search: Search }> {
  const search = new CapacitySearch(input.bounds, input.slo, graceFor(input.slo));
  const say = (v: Search['steps'][number]) =>
    input.log(
      `conformance load: step ${search.steps.length}: ${v.rate} it/s for ${v.seconds} s — ${v.ok ? 'held' : 'broke'}: p95 ${v.p95Ms} ms, ${v.errorPct} % failed, ${v.share429Pct} % 429, ${v.dropped} dropped${v.ok ? '' : ` (${v.why})`}`,
    );
  const out = input.k6 ? await onK6(input, search, say) : await onBuiltin(input, search, say);
  return { out, search: search.result() };
}

async function onBuiltin(
  input: FindInput,
  search: CapacitySearch,
  say: (v: Search['steps'][number]) => void,
): Promise<RunOutcome> {
  let t0 = 0;
  const judge = (s: StepRun) =>
    judgeStep(
      s.series,
      { rate: s.plan.rate, seconds: s.plan.seconds, atMs: s.startedAt - t0, durationMs: s.durationMs },
      input.slo,
    );
  const out = await runBuiltin({
    bundleCode: input.bundleCode,
    scriptDir: input.scriptDir,
    env: input.env,
    log: input.log,
    noThresholds: true,
    ...(input.sourceIps ? { sourceIps: input.sourceIps } : {}),
    ...(input.insecure ? { insecureSkipTLSVerify: true } : {}),
    ...(input.hosts ? { hosts: input.hosts } : {}),
    ...(input.hostsOnly ? { hostsOnly: true } : {}),
    steps: {
      maxMs: input.bounds.maxDurationMs,
      next: (done) => {
        const last = done[done.length - 1];
        if (done.length === 1) t0 = last!.startedAt;
        if (last && done.length > search.steps.length) {
          const v = judge(last);
          search.record(v, last.durationMs);
          say(v);
        }
        const rate = search.next();
        return rate === undefined ? undefined : planFor(rate, input.slo, input.bounds.stepSeconds);
      },
    },
  });
  if (out.exitCode !== 0)
    search.fail(`the built-in runner exited ${out.exitCode}${out.errors[0] ? `: ${out.errors[0]}` : ''}`);
  return out;
}

async function onK6(
  input: FindInput,
  search: CapacitySearch,
  say: (v: Search['steps'][number]) => void,
): Promise<RunOutcome> {
  const runs: RunOutcome[] = [];
  let exitCode = 0;
  for (let rate = search.next(); rate !== undefined; rate = search.next()) {
    const plan = planFor(rate, input.slo, input.bounds.stepSeconds);
    const started = Date.now();
    const r = await runK6({
      k6: input.k6!,
      bundleCode: input.bundleCode,
      options: input.options,
      env: { ...input.env, ...stepEnv(plan) },
      log: input.log,
      noThresholds: true,
      ...(input.declared ? { declared: input.declared } : {}),
      ...(input.sourceIps ? { sourceIps: input.sourceIps } : {}),
      ...(input.insecure ? { insecure: true } : {}),
    });
    // k6's own failures (107 script error, 104 options, …) end the search: its steps would measure nothing.
    if (r.exitCode !== 0 && r.exitCode !== 99) {
      exitCode = r.exitCode;
      search.fail(`k6 exited ${r.exitCode}${r.errors[0] ? `: ${r.errors[0]}` : ''}`);
      runs.push(r);
      break;
    }
    runs.push(r);
    const v = judgeStep(
      r.series,
      { rate, seconds: plan.seconds, atMs: r.startedAt - runs[0]!.startedAt, durationMs: r.durationMs },
      input.slo,
    );
    search.record(v, Date.now() - started);
    say(v);
  }
  return joinRuns(runs, input.options, exitCode);
}

/** k6's step runs as one outcome: metrics merged, the steps' series placed where they ran. */
function joinRuns(runs: readonly RunOutcome[], options: Record<string, unknown>, exitCode: number): RunOutcome {
  const registry = new Registry();
  registry.declareBuiltins();
  const t0 = runs[0]?.startedAt ?? Date.now();
  const series = new TimeSeries(t0);
  for (const r of runs) {
    registry.mergeJSON(r.registry.toJSON());
    series.place(r.series, r.startedAt - t0);
  }
  const last = runs[runs.length - 1];
  return {
    engine: 'k6',
    registry,
    series,
    checks: sumChecks(runs.map((r) => r.checks)),
    thresholds: [],
    scenarios: [],
    options,
    startedAt: t0,
    durationMs: last ? last.startedAt + last.durationMs - t0 : 0,
    exitCode,
    errors: runs.flatMap((r) => r.errors),
    summaryOutputs: {},
    segment: '0:1',
    parts: {},
  };
}

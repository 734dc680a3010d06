/**
 * A run in steps (the capacity search on the built-in runner): one life cycle — VUs, setup(),
 * teardown() once — in which the script's arrival-rate scenario is run again and again as a
 * bounded constant-arrival-rate step, each at the rate the caller decides from the steps so
 * far. Each step's samples also land in a time series of its own, so the caller judges it alone.
 */
import { TimeSeries } from '../metrics/timeseries.js';
import { runExecutor, type ExecContext } from './executors.js';
import type { Scenario } from './options.js';
import { partOf } from './plan.js';
import type { Tuple } from './segment.js';

/** One step: a constant arrival rate (iterations/s) for `seconds`, with VUs sized for it. */
export interface StepPlan {
  rate: number;
  seconds: number;
  preAllocatedVUs: number;
  maxVUs: number;
  graceSeconds: number;
}

export interface StepRun {
  plan: StepPlan;
  series: TimeSeries;
  startedAt: number;
  durationMs: number;
  dropped: number;
}

export interface Stepper {
  /** The next step, decided from the steps run so far; undefined ends the run. */
  next(done: readonly StepRun[]): StepPlan | undefined;
  /** A hard bound on the stepped part of the run (the run aborts past it, plus a margin). */
  maxMs: number;
}

/** Where each step's samples are copied (the collector's and the health sampler's second series). */
interface StepTap {
  step: TimeSeries | undefined;
}

function stepScenario(s: Scenario, p: StepPlan): Scenario {
  return {
    ...s,
    executor: 'constant-arrival-rate',
    rate: p.rate,
    timeUnitMs: 1000,
    startRate: p.rate,
    startTimeMs: 0,
    durationMs: p.seconds * 1000,
    stages: [{ durationMs: p.seconds * 1000, target: p.rate }],
    preAllocatedVUs: p.preAllocatedVUs,
    maxVUs: Math.max(p.preAllocatedVUs, p.maxVUs),
    gracefulStopMs: p.graceSeconds * 1000,
  };
}

export async function runSteps(
  ctx: ExecContext,
  s: Scenario,
  stepper: Stepper,
  tuple: Tuple,
  taps: readonly StepTap[],
  isAborted: () => boolean,
): Promise<StepRun[]> {
  const done: StepRun[] = [];
  // Bounded by the stepper (its own count and time bounds) and by the run's abort.
  for (let plan = stepper.next(done); plan && !isAborted(); plan = stepper.next(done)) {
    const sc = stepScenario(s, plan);
    const startedAt = Date.now();
    const series = new TimeSeries(startedAt);
    for (const t of taps) t.step = series;
    const r = await runExecutor(ctx, sc, partOf(sc, tuple));
    for (const t of taps) t.step = undefined;
    done.push({ plan, series, startedAt, durationMs: Date.now() - startedAt, dropped: r.dropped });
  }
  return done;
}

/**
 * `options.scenarios` normalised, with k6's defaults and shortcuts (`vus` + `iterations` is a
 * shared-iterations scenario, `vus` + `duration` a constant-vus one, nothing at all is one
 * iteration of one VU). Also the offered arrival rate over time, for reports.
 */
import { parseDuration } from './duration.js';

const EXECUTORS = [
  'shared-iterations',
  'per-vu-iterations',
  'constant-vus',
  'constant-arrival-rate',
  'ramping-arrival-rate',
] as const;
export type ExecutorName = (typeof EXECUTORS)[number];

export interface Stage {
  durationMs: number;
  target: number;
}

export interface Scenario {
  name: string;
  executor: ExecutorName;
  exec: string;
  startTimeMs: number;
  gracefulStopMs: number;
  env: Record<string, string>;
  tags: Record<string, string>;
  vus: number;
  iterations: number;
  /** maxDuration (iteration executors) or duration (time executors). */
  durationMs: number;
  rate: number;
  timeUnitMs: number;
  startRate: number;
  stages: Stage[];
  preAllocatedVUs: number;
  maxVUs: number;
}

type Raw = Record<string, unknown>;

const int = (v: unknown, dflt: number): number => (v === undefined ? dflt : Math.floor(Number(v)));
const dur = (v: unknown, dflt: string, what: string): number => {
  const ms = parseDuration(v ?? dflt);
  if (ms === undefined) throw new Error(`invalid duration ${JSON.stringify(v)} for ${what}`);
  return ms;
};

export function normaliseScenarios(options: Raw): Scenario[] {
  let raw = options.scenarios as Record<string, Raw> | undefined;
  if (!raw || Object.keys(raw).length === 0) {
    if (options.stages) throw new Error('options.stages (ramping-vus) is not supported by the built-in runner');
    if (options.duration !== undefined)
      raw = { default: { executor: 'constant-vus', vus: options.vus ?? 1, duration: options.duration } };
    else
      raw = {
        default: {
          executor: 'shared-iterations',
          vus: options.vus ?? 1,
          iterations: options.iterations ?? options.vus ?? 1,
        },
      };
  }
  return Object.entries(raw).map(([name, r]) => one(name, r));
}

function one(name: string, r: Raw): Scenario {
  const executor = String(r.executor) as ExecutorName;
  if (!EXECUTORS.includes(executor))
    throw new Error(
      `scenario ${name}: executor "${String(r.executor)}" is not supported by the built-in runner (${EXECUTORS.join(', ')})`,
    );
  const s: Scenario = {
    name,
    executor,
    exec: typeof r.exec === 'string' ? r.exec : 'default',
    startTimeMs: dur(r.startTime, '0s', `${name}.startTime`),
    gracefulStopMs: dur(r.gracefulStop, '30s', `${name}.gracefulStop`),
    env: Object.fromEntries(Object.entries((r.env ?? {}) as Raw).map(([k, v]) => [k, String(v)])),
    tags: Object.fromEntries(Object.entries((r.tags ?? {}) as Raw).map(([k, v]) => [k, String(v)])),
    vus: int(r.vus, 1),
    iterations: int(r.iterations, 1),
    durationMs: 0,
    rate: Number(r.rate ?? 0),
    timeUnitMs: dur(r.timeUnit, '1s', `${name}.timeUnit`),
    startRate: Number(r.startRate ?? 0),
    stages: [],
    preAllocatedVUs: int(r.preAllocatedVUs, 0),
    maxVUs: 0,
  };
  switch (executor) {
    case 'shared-iterations':
    case 'per-vu-iterations':
      s.durationMs = dur(r.maxDuration, '10m', `${name}.maxDuration`);
      if (s.vus < 1 || s.iterations < 1) throw new Error(`scenario ${name}: vus and iterations must be at least 1`);
      if (executor === 'shared-iterations' && s.iterations < s.vus)
        throw new Error(`scenario ${name}: iterations (${s.iterations}) must be at least vus (${s.vus})`);
      break;
    case 'constant-vus':
      if (r.duration === undefined) throw new Error(`scenario ${name}: duration is required`);
      s.durationMs = dur(r.duration, '0s', `${name}.duration`);
      break;
    case 'constant-arrival-rate':
      if (r.duration === undefined || r.rate === undefined || r.preAllocatedVUs === undefined)
        throw new Error(`scenario ${name}: rate, duration and preAllocatedVUs are required`);
      s.durationMs = dur(r.duration, '0s', `${name}.duration`);
      s.stages = [{ durationMs: s.durationMs, target: s.rate }];
      s.startRate = s.rate;
      s.maxVUs = int(r.maxVUs, s.preAllocatedVUs);
      break;
    case 'ramping-arrival-rate':
      if (!Array.isArray(r.stages) || r.preAllocatedVUs === undefined)
        throw new Error(`scenario ${name}: stages and preAllocatedVUs are required`);
      s.stages = (r.stages as Raw[]).map((st, i) => ({
        durationMs: dur(st.duration, '0s', `${name}.stages[${i}].duration`),
        target: Number(st.target),
      }));
      s.durationMs = s.stages.reduce((a, st) => a + st.durationMs, 0);
      s.maxVUs = int(r.maxVUs, s.preAllocatedVUs);
      break;
  }
  if (s.executor.endsWith('arrival-rate') && s.maxVUs < s.preAllocatedVUs)
    throw new Error(`scenario ${name}: maxVUs must be at least preAllocatedVUs`);
  return s;
}

/** Iterations started from the scenario's start to `t` ms (the integral of the arrival rate). */
export function startedBy(s: Scenario, t: number): number {
  let acc = 0,
    from = s.startRate,
    t0 = 0;
  for (const st of s.stages) {
    const d = st.durationMs;
    const in_ = Math.min(Math.max(t - t0, 0), d);
    if (d > 0) acc += (from * in_ + ((st.target - from) * in_ * in_) / (2 * d)) / s.timeUnitMs;
    if (t <= t0 + d) return acc;
    from = st.target;
    t0 += d;
  }
  return acc;
}

/** Offered iterations per second at `t` ms after the scenario's start (0 outside arrival-rate executors). */
export function rateAt(s: Scenario, t: number): number {
  if (!s.executor.endsWith('arrival-rate') || t < 0) return 0;
  let from = s.startRate,
    t0 = 0;
  for (const st of s.stages) {
    if (t < t0 + st.durationMs) return ((from + ((st.target - from) * (t - t0)) / st.durationMs) * 1000) / s.timeUnitMs;
    from = st.target;
    t0 += st.durationMs;
  }
  return 0;
}

/** When a scenario's last iteration may end: start + duration + gracefulStop. */
export function scenarioEndMs(s: Scenario): number {
  return s.startTimeMs + s.durationMs + s.gracefulStopMs;
}

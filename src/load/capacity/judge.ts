/**
 * One step of a capacity search judged against the SLO, from the step's own time series: p95
 * of every request the step made (its drain included: a request queued by the step counts),
 * the share of failed requests that were not 429, the share of 429s, dropped iterations and
 * the generator's health. What broke is named in one order: a saturated generator first (then
 * nothing it measured can be blamed on the target), 429s (a rate limit, not capacity), other
 * failures, latency, and last iterations that could not start (every VU waiting on the target).
 */
import { newHistogram } from '../metrics/sinks.js';
import type { Health, TimeSeries } from '../metrics/timeseries.js';
import type { Cause, SearchStep } from '../report/schema.js';

export interface Slo {
  p95Ms: number;
  errorPct: number;
}

/** A health sample counts as saturated as the capacity report counts it (report/capacity.ts). */
const saturatedSample = (g: Health) => g.elu >= 0.9 || g.lag >= 100 || g.cpu >= 90;
/** Saturated for the step when this share of its samples were: one late tick on a shared machine is not saturation. */
const SATURATED_SHARE = 0.3;

function generatorState(series: TimeSeries): string {
  const gens = [...series.buckets.values()].map((b) => b.gen).filter((g): g is Health => !!g);
  const sat = gens.filter(saturatedSample);
  if (gens.length === 0 || sat.length / gens.length < SATURATED_SHARE) return '';
  const max = (f: (g: Health) => number) => Math.max(...sat.map(f));
  return `saturated in ${Math.round((sat.length / gens.length) * 100)} % of the step: busiest VU thread busy up to ${Math.round(max((g) => g.elu) * 100)} %, event-loop delay up to ${Math.round(max((g) => g.lag))} ms, CPU up to ${Math.round(max((g) => g.cpu))} % of the machine`;
}

const round = (n: number) => Math.round(n * 100) / 100;
const pct = (n: number) => `${round(n)} %`;

export const GENERATOR_ADVICE = 'the generator was the bottleneck: use more instances';

export function judgeStep(
  series: TimeSeries,
  step: { rate: number; seconds: number; atMs: number; durationMs: number },
  slo: Slo,
): SearchStep {
  const bs = [...series.buckets.values()];
  const sum = (f: (b: (typeof bs)[number]) => number) => bs.reduce((a, b) => a + f(b), 0);
  const reqs = sum((b) => b.reqs),
    failed = sum((b) => b.failed),
    s429 = sum((b) => b.s429);
  const dropped = sum((b) => b.dropped),
    iterations = sum((b) => b.iterations);
  const h = newHistogram(2);
  for (const b of bs) h.add(b.dur);
  const p95Ms = reqs ? round(h.getValueAtPercentile(95) / 1000) : 0;
  const errorPct = reqs ? (Math.max(0, failed - s429) / reqs) * 100 : 0;
  const share429Pct = reqs ? (s429 / reqs) * 100 : 0;
  const generator = generatorState(series);
  const at = `at ${step.rate} it/s`;
  const slos: [Cause, string][] = [];
  if (reqs === 0) slos.push(['errors', `no request was answered ${at}`]);
  if (share429Pct > slo.errorPct)
    slos.push([
      '429',
      `the target answered 429 to ${pct(share429Pct)} of requests ${at}: its rate limit, not its capacity, ended the climb (search a target without rate limits)`,
    ]);
  if (errorPct > slo.errorPct)
    slos.push(['errors', `${pct(errorPct)} of requests failed ${at} (SLO: at most ${slo.errorPct} %)`]);
  if (p95Ms > slo.p95Ms) slos.push(['latency', `p95 ${p95Ms} ms over the SLO's ${slo.p95Ms} ms ${at}`]);
  // Iterations not started for want of a free VU: the VUs are sized for the rate at twice the SLO's
  // latency (find.ts), so with a generator that kept up, they were all waiting on the target.
  const expected = step.rate * step.seconds;
  if (dropped > Math.max(1, expected * 0.01))
    slos.push([
      'latency',
      `${dropped} of ${Math.round(expected)} iterations ${at} could not be started: every VU (sized for the SLO's latency) was waiting on the target`,
    ]);
  let cause: Cause | null = null,
    why = '';
  if (generator && slos.length) {
    cause = 'generator';
    why = `${GENERATOR_ADVICE} (${generator}) when ${slos[0]![1]}`;
  } else if (slos.length) [cause, why] = slos[0]!;
  return {
    rate: step.rate,
    seconds: step.seconds,
    atMs: Math.round(step.atMs),
    durationMs: Math.round(step.durationMs),
    reqs,
    achievedRate: round(iterations / step.seconds),
    p95Ms,
    errorPct: round(errorPct),
    share429Pct: round(share429Pct),
    dropped,
    generator,
    ok: cause === null,
    cause,
    why: why || (generator ? `held ${at}, but the generator was ${generator}` : `held ${at}`),
  };
}

/**
 * The capacity summary: the highest offered arrival rate at which the target kept p95 under
 * the budget with no failed requests, and the generator dropped no iterations. A rate counts
 * only when every second offered at it held (a whole plateau, for stepped stages) and every
 * lower rate held too, so neither a lucky second nor a later recovery can flatter the figure.
 * When the stages hold rates (plateaus of two seconds or more), only a held rate can be the
 * figure: the one-second climbs between plateaus are judged, but a rate offered for a single
 * second was never sustained. When the generator itself was saturated in the second that
 * ended the climb (its busiest VU thread busy ≥ 90 %, its event loop late ≥ 100 ms, or its
 * CPU ≥ 90 % of the machine), the figure measures the generator, and the verdict says so.
 */
import type { Bucket, Health, TimeSeries } from '../metrics/timeseries.js';
import type { Capacity, Search } from './schema.js';

interface Level {
  offered: number;
  seconds: [number, Bucket][];
}

function verdict(i: number, b: Bucket, budget: number): { why: string; p95: number } {
  const p95 = b.dur.totalCount ? b.dur.getValueAtPercentile(95) / 1000 : 0;
  const at = `at ${b.offered.toFixed(1)} it/s (second ${i})`;
  const why =
    b.failed > 0
      ? `${b.failed} failed requests ${at}`
      : b.dropped > 0
        ? `${b.dropped} dropped iterations ${at}`
        : p95 > budget
          ? `p95 ${p95.toFixed(1)} ms over the ${budget} ms budget ${at}`
          : '';
  return { why, p95 };
}

/** The generator was the bottleneck in this second: a description, or '' when it was not. */
function saturated(g: Health | undefined): string {
  if (!g || (g.elu < 0.9 && g.lag < 100 && g.cpu < 90)) return '';
  return `the generator was saturated (busiest VU thread busy ${Math.round(g.elu * 100)} %, event-loop delay ${Math.round(g.lag)} ms, CPU ${Math.round(g.cpu)} % of the machine)`;
}

export function capacity(fine: TimeSeries, p95BudgetMs: number): Capacity | undefined {
  // The rule judges seconds, whatever the buckets of the report.
  const series = fine.widthMs < 1000 ? fine.by(1000) : fine;
  const levels = new Map<number, Level>();
  for (const [i, b] of series.buckets) {
    if (b.offered <= 0) continue;
    const key = Math.round(b.offered * 10) / 10;
    const l = levels.get(key) ?? { offered: b.offered, seconds: [] };
    l.seconds.push([i, b]);
    levels.set(key, l);
  }
  if (levels.size === 0) return undefined;
  const held = Math.max(...[...levels.values()].map((l) => l.seconds.length)) >= 2 ? 2 : 1;
  let sustained = 0,
    rps = 0,
    p95 = 0,
    dropped = 0,
    limitedBy = '',
    generator = '';
  for (const l of [...levels.values()].sort((a, b) => a.offered - b.offered)) {
    const judged = l.seconds.sort((a, b) => a[0] - b[0]).map(([i, b]) => ({ b, ...verdict(i, b, p95BudgetMs) }));
    const bad = judged.find((j) => j.why);
    if (bad) {
      limitedBy = bad.why;
      generator = saturated(bad.b.gen);
      break;
    }
    if (l.seconds.length < held) continue;
    sustained = l.offered;
    rps = Math.max(...judged.map((j) => j.b.reqs)) * (1000 / series.widthMs);
    p95 = Math.max(p95, ...judged.map((j) => j.p95));
    dropped += judged.reduce((a, j) => a + j.b.dropped, 0);
  }
  return {
    p95BudgetMs,
    sustainedRate: round(sustained),
    achievedRps: round(rps),
    p95AtSustainedMs: round(p95),
    droppedAtSustained: dropped,
    limitedBy: !limitedBy
      ? 'not reached: every offered rate was sustained'
      : generator
        ? `the generator, not the target: ${generator} when ${limitedBy}; add generators (--execution-segment) or cores to measure the target`
        : limitedBy,
    bottleneck: !limitedBy ? 'none' : generator ? 'generator' : 'target',
    peakOfferedRate: round(Math.max(...[...levels.values()].map((l) => l.offered))),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The capacity summary of a `--find-capacity` search: its figure, the step that held it, and why it went no higher. */
export function capacityOfSearch(s: Search): Capacity {
  const at = s.steps.filter((st) => st.ok && st.rate === s.figure).sort((a, b) => b.atMs - a.atMs)[0];
  return {
    p95BudgetMs: s.slo.p95Ms,
    sustainedRate: s.figure,
    achievedRps: at ? round(at.reqs / at.seconds) : 0,
    p95AtSustainedMs: at?.p95Ms ?? 0,
    droppedAtSustained: at?.dropped ?? 0,
    limitedBy: s.why,
    bottleneck: s.cause === 'generator' ? 'generator' : s.brokeAt === null ? 'none' : 'target',
    peakOfferedRate: Math.max(0, ...s.steps.map((st) => st.rate)),
  };
}

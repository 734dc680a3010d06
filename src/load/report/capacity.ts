/**
 * The capacity summary: the highest offered arrival rate at which the target kept p95 under
 * the budget with no failed requests, and the generator dropped no iterations — counted only
 * while every lower rate held too, so a later recovery cannot flatter the figure.
 */
import type { TimeSeries } from '../metrics/timeseries.js';
import type { Capacity } from './schema.js';

export function capacity(series: TimeSeries, p95BudgetMs: number): Capacity | undefined {
  const rows = [...series.buckets.entries()].filter(([, b]) => b.offered > 0).sort((a, b) => a[1].offered - b[1].offered || a[0] - b[0]);
  if (rows.length === 0) return undefined;
  let sustained = 0, rps = 0, p95 = 0, dropped = 0, limitedBy = '';
  for (const [i, b] of rows) {
    const q = b.dur.totalCount ? b.dur.getValueAtPercentile(95) / 1000 : 0;
    const why = b.failed > 0 ? `${b.failed} failed requests at ${b.offered.toFixed(1)} it/s (second ${i})`
      : b.dropped > 0 ? `${b.dropped} dropped iterations at ${b.offered.toFixed(1)} it/s (second ${i})`
        : q > p95BudgetMs ? `p95 ${q.toFixed(1)} ms over the ${p95BudgetMs} ms budget at ${b.offered.toFixed(1)} it/s (second ${i})` : '';
    if (why) { limitedBy = why; break; }
    sustained = b.offered; rps = b.reqs * (1000 / series.widthMs); p95 = Math.max(p95, q); dropped += b.dropped;
  }
  return {
    p95BudgetMs, sustainedRate: round(sustained), achievedRps: round(rps),
    p95AtSustainedMs: round(p95), droppedAtSustained: dropped, limitedBy: limitedBy || 'not reached: every offered rate was sustained',
    peakOfferedRate: round(Math.max(...rows.map(([, b]) => b.offered))),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

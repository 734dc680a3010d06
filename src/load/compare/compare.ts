/**
 * `conformance load compare BEFORE AFTER`: what changed between two runs of a scenario, the
 * way a team tracks capacity release over release — the capacity figure, p50/p95/p99 per
 * endpoint at each offered rate both runs held (latency is only comparable at equal load),
 * error and 429 shares. With a gate, a figure worse by more than PCT is a regression:
 * capacity lower or p95 higher by more than PCT % of its value before, the error share
 * higher by more than PCT percentage points. Too few requests (< MIN_REQUESTS) are shown but
 * not judged, and a p95 that moved by less than MIN_DELTA_MS is timer noise, not a regression.
 */
import { TimeSeries } from '../metrics/timeseries.js';
import { newHistogram } from '../metrics/sinks.js';
import type { Results } from '../report/schema.js';

const MIN_REQUESTS = 20;
export const MIN_DELTA_MS = 2;

export interface Figure {
  what: string;
  /** Offered rate (iterations/s) the figure was measured at; null for the whole run. */
  rate: number | null;
  endpoint: string | null;
  unit: string;
  before: number | null;
  after: number | null;
  /** Change in % of the before value (or percentage points for shares). */
  change: number | null;
  judged: boolean;
  regression: boolean;
  note?: string;
}

export interface Comparison {
  scenario: string;
  before: { file: string; startedAt: string; engine: string; instances: number; target: string };
  after: { file: string; startedAt: string; engine: string; instances: number; target: string };
  maxRegressionPct: number | null;
  figures: Figure[];
  regressions: Figure[];
}

interface Level {
  rate: number | null;
  reqs: number;
  byName: Map<string, { reqs: number; failed: number; s429: number; hist: ReturnType<typeof newHistogram> }>;
}

/** Requests of each endpoint per offered rate (1-s buckets), or of the whole run when nothing was offered. */
function levels(r: Results): Map<string, Level> {
  const s = TimeSeries.fromJSON(r.series.buckets, r.series.widthMs).by(1000);
  const out = new Map<string, Level>();
  const arrival = [...s.buckets.values()].some((b) => b.offered > 0);
  for (const b of s.buckets.values()) {
    if (arrival && b.offered <= 0) continue;
    const rate = arrival ? Math.round(b.offered * 10) / 10 : null;
    const key = String(rate);
    const l = out.get(key) ?? { rate, reqs: 0, byName: new Map() };
    out.set(key, l);
    for (const [name, n] of Object.entries(b.byName)) {
      const e = l.byName.get(name) ?? { reqs: 0, failed: 0, s429: 0, hist: newHistogram(2) };
      l.byName.set(name, e);
      e.reqs += n.reqs;
      e.failed += n.failed;
      e.s429 += n.s429;
      e.hist.add(n.dur);
      l.reqs += n.reqs;
    }
  }
  return out;
}

const q = (h: ReturnType<typeof newHistogram>, p: number) => Math.round(h.getValueAtPercentile(p)) / 1000;
const pctChange = (b: number | null, a: number | null) =>
  b === null || a === null || b === 0 ? null : Math.round(((a - b) / b) * 1000) / 10;

function share(r: Results, of: 'failed' | 's429'): { share: number; reqs: number } {
  let reqs = 0,
    n = 0;
  for (const b of r.series.buckets) {
    reqs += b.reqs;
    n += of === 'failed' ? b.failed : b.s429;
  }
  return { share: reqs ? Math.round((n / reqs) * 10_000) / 100 : 0, reqs };
}

export function compare(
  before: Results,
  after: Results,
  files: [string, string],
  maxRegressionPct: number | null,
): Comparison {
  if (before.scenario !== after.scenario)
    throw new Error(
      `${files[0]} is a run of ${before.scenario}, ${files[1]} of ${after.scenario}: compare runs of one scenario`,
    );
  const gate = maxRegressionPct;
  const figures: Figure[] = [];
  const push = (
    f: Omit<Figure, 'regression' | 'judged'> & { judged?: boolean },
    worse: (change: number) => boolean,
  ) => {
    const judged = (f.judged ?? true) && gate !== null && f.change !== null;
    figures.push({ ...f, judged, regression: judged && worse(f.change!) });
  };
  if (before.capacity || after.capacity) {
    const b = before.capacity?.sustainedRate ?? null,
      a = after.capacity?.sustainedRate ?? null;
    push(
      {
        what: 'capacity',
        rate: null,
        endpoint: null,
        unit: 'iterations/s',
        before: b,
        after: a,
        change: pctChange(b, a),
        ...(after.capacity?.bottleneck === 'generator' ? { note: 'after: limited by the generator' } : {}),
      },
      (c) => c < -gate!,
    );
  }
  const lb = levels(before),
    la = levels(after);
  for (const [key, l] of lb) {
    const m = la.get(key);
    if (!m) continue;
    for (const name of [...new Set([...l.byName.keys(), ...m.byName.keys()])].sort()) {
      const x = l.byName.get(name),
        y = m.byName.get(name);
      const few = !x || !y || x.reqs < MIN_REQUESTS || y.reqs < MIN_REQUESTS;
      for (const p of [50, 95, 99]) {
        const b = x?.reqs ? q(x.hist, p) : null,
          a = y?.reqs ? q(y.hist, p) : null;
        push(
          {
            what: `p${p}`,
            rate: l.rate,
            endpoint: name,
            unit: 'ms',
            before: b,
            after: a,
            change: pctChange(b, a),
            judged: p === 95 && !few,
            ...(few ? { note: `fewer than ${MIN_REQUESTS} requests` } : {}),
          },
          (c) => c > gate! && a! - b! >= MIN_DELTA_MS,
        );
      }
    }
  }
  for (const [what, of] of [
    ['error share', 'failed'],
    ['429 share', 's429'],
  ] as const) {
    const b = share(before, of),
      a = share(after, of);
    // Shares compare in percentage points; 429s are a scenario's design in rate scenarios, so only errors are judged.
    push(
      {
        what,
        rate: null,
        endpoint: null,
        unit: '% of requests',
        before: b.share,
        after: a.share,
        change: Math.round((a.share - b.share) * 100) / 100,
        judged: of === 'failed',
      },
      (c) => c > gate!,
    );
  }
  const meta = (r: Results, file: string) => ({
    file,
    startedAt: r.startedAt,
    engine: r.engine,
    instances: r.instances,
    target: r.target.url,
  });
  return {
    scenario: before.scenario,
    before: meta(before, files[0]),
    after: meta(after, files[1]),
    maxRegressionPct: gate,
    figures,
    regressions: figures.filter((f) => f.regression),
  };
}

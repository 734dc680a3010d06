/**
 * What the load report draws, from results.json's series: one point per bucket (100 ms for
 * a short run, a second otherwise), percentiles from each bucket's histograms, latency per
 * endpoint of the mix, the generator's health. A chart with nothing to show is not drawn:
 * it becomes one line saying why.
 */
import type * as hdr from 'hdr-histogram-js';
import { histFromBase64, newHistogram } from '../metrics/sinks.js';
import type { Results } from './schema.js';

type Series = (number | null)[];
interface Chart {
  id: string;
  title: string;
  unit: string;
  kind: 'line' | 'bar';
  sets: { label: string; data: Series; axis?: 'y' | 'y1' }[];
  y1?: string;
}
interface Empty {
  id: string;
  title: string;
  why: string;
}
interface EndpointRow {
  name: string;
  reqs: number;
  failed: number;
  s429: number;
  p50: number;
  p95: number;
  p99: number;
}
interface ChartData {
  labels: number[];
  charts: Chart[];
  empty: Empty[];
  endpoints: EndpointRow[];
  health: string;
}

const round = (n: number) => Math.round(n * 100) / 100;
const pct = (h: hdr.Histogram, p: number) => round(h.getValueAtPercentile(p) / 1000);
const any = (xs: Series) => xs.some((x) => x !== null && x !== 0);

export function chartData(r: Results): ChartData {
  const w = r.series.widthMs,
    perSec = 1000 / w;
  const byT = new Map(r.series.buckets.map((b) => [b.t, b]));
  const last = Math.max(0, ...r.series.buckets.map((b) => b.t));
  const keys = [...new Set(r.series.buckets.flatMap((b) => Object.keys(b.byKey)))].sort();
  const names = [...new Set(r.series.buckets.flatMap((b) => Object.keys(b.byName ?? {})))].sort();
  const col = (f: (b: Results['series']['buckets'][number] | undefined) => number | null): Series =>
    Array.from({ length: last + 1 }, (_, t) => f(byT.get(t)));
  const hist = (s: string | undefined) => (s ? histFromBase64(s, 2) : undefined);
  const q = (p: number) => col((b) => (b && b.reqs > 0 ? pct(hist(b.dur)!, p) : null));
  const charts: Chart[] = [],
    empty: Empty[] = [];
  const put = (c: Chart, why: string | false) => {
    if (why) empty.push({ id: c.id, title: c.title, why });
    else charts.push(c);
  };

  const rps = col((b) => round((b?.reqs ?? 0) * perSec));
  put(
    {
      id: 'rate',
      title: 'Offered vs achieved rate',
      unit: 'per second',
      kind: 'line',
      sets: [
        ...(r.series.buckets.some((b) => b.offered > 0)
          ? [{ label: 'offered (iterations/s)', data: col((b) => round(b?.offered ?? 0)) }]
          : []),
        { label: 'achieved (iterations/s)', data: col((b) => round((b?.iterations ?? 0) * perSec)) },
        { label: 'requests/s', data: rps },
      ],
    },
    !any(rps) && 'No request was made.',
  );
  put(
    {
      id: 'latency',
      title: 'Latency percentiles (from merged histograms)',
      unit: 'ms',
      kind: 'line',
      sets: [
        { label: 'p50', data: q(50) },
        { label: 'p95', data: q(95) },
        { label: 'p99', data: q(99) },
      ],
    },
    !any(rps) && 'No request was made: no latency to show.',
  );
  put(
    {
      id: 'endpoints',
      title: 'p95 latency per endpoint',
      unit: 'ms',
      kind: 'line',
      sets: names.map((n) => ({
        label: n,
        data: col((b) => {
          const s = b?.byName?.[n];
          return s && s.reqs > 0 ? pct(hist(s.dur)!, 95) : null;
        }),
      })),
    },
    names.length === 0
      ? 'No endpoint was recorded (results written before per-endpoint series).'
      : names.length === 1 && `One endpoint (${names[0]}): its latency is the chart above.`,
  );
  const share = keys.map((k) => ({
    label: k,
    data: col((b) => {
      const c = b?.byKey[k];
      return c && c.reqs > 0 ? round((c.s429 / c.reqs) * 100) : null;
    }),
  }));
  put(
    { id: 'share429', title: '429 share per key', unit: '% of requests', kind: 'line', sets: share },
    !r.series.buckets.some((b) => b.s429 > 0) && 'No request was answered 429.',
  );
  const failed = col((b) => b?.failed ?? 0),
    errors = col((b) => b?.errors ?? 0);
  put(
    {
      id: 'errors',
      title: 'Errors',
      unit: 'per bucket',
      kind: 'bar',
      sets: [
        { label: 'failed requests', data: failed },
        { label: 'transport errors', data: errors },
      ],
    },
    !any(failed) && !any(errors) && 'No request failed and none met a transport error.',
  );
  const dropped = col((b) => b?.dropped ?? 0);
  put(
    {
      id: 'dropped',
      title: 'Dropped iterations',
      unit: 'per bucket',
      kind: 'bar',
      sets: [{ label: 'dropped iterations', data: dropped }],
    },
    !any(dropped) && 'No iteration was dropped.',
  );
  const gen = r.series.buckets.some((b) => b.gen);
  put(
    {
      id: 'generator',
      title: "The generator's own health",
      unit: '%',
      kind: 'line',
      y1: 'ms',
      sets: [
        { label: 'busiest VU thread busy (%)', data: col((b) => (b?.gen ? round(b.gen.elu * 100) : null)) },
        { label: 'CPU (% of the machine)', data: col((b) => (b?.gen ? b.gen.cpu : null)) },
        { label: 'event-loop delay (ms)', data: col((b) => (b?.gen ? b.gen.lag : null)), axis: 'y1' },
      ],
    },
    !gen &&
      `The generator's health is recorded by the built-in runner; this run's samples came from ${r.engines.join(' + ')}.`,
  );

  return {
    labels: Array.from({ length: last + 1 }, (_, t) => round((t * w) / 1000)),
    charts,
    empty,
    endpoints: endpointRows(r, names),
    health: healthLine(r),
  };
}

/** Per endpoint over the whole run, from the buckets' merged histograms. */
function endpointRows(
  r: Results,
  names: readonly string[],
  keep: (b: Results['series']['buckets'][number]) => boolean = () => true,
): EndpointRow[] {
  return names
    .map((name) => {
      const h = newHistogram(2);
      let reqs = 0,
        failed = 0,
        s429 = 0;
      for (const b of r.series.buckets) {
        const s = b.byName?.[name];
        if (!s || !keep(b)) continue;
        reqs += s.reqs;
        failed += s.failed;
        s429 += s.s429;
        h.add(histFromBase64(s.dur, 2));
      }
      return {
        name,
        reqs,
        failed,
        s429,
        p50: reqs ? pct(h, 50) : 0,
        p95: reqs ? pct(h, 95) : 0,
        p99: reqs ? pct(h, 99) : 0,
      };
    })
    .filter((e) => e.reqs > 0);
}

/** One sentence on the generator's own health over the run (terminal and report). */
export function healthLine(r: Results): string {
  const g = r.series.buckets.map((b) => b.gen).filter((x): x is NonNullable<typeof x> => !!x);
  if (g.length === 0) return `Generator health: not recorded (${r.engines.join(' + ')} engine).`;
  const max = (f: (x: (typeof g)[number]) => number) => Math.max(...g.map(f));
  const dropped = r.series.buckets.reduce((a, b) => a + b.dropped, 0);
  const busy = max((x) => x.elu) >= 0.9 || max((x) => x.lag) >= 100;
  return `Generator health: busiest VU thread at most ${Math.round(max((x) => x.elu) * 100)} % busy, CPU at most ${Math.round(max((x) => x.cpu))} % of the machine, event-loop delay at most ${Math.round(max((x) => x.lag))} ms, ${dropped} dropped iterations — ${busy ? 'the generator was saturated at times: figures near those moments measure it, not the target' : 'the generator kept up'}.`;
}

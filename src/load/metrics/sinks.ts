/**
 * Metric sinks with k6's four metric types. Every sink is mergeable and serialisable so the
 * results of several generator instances add up: counters and rates sum, trends merge
 * histograms (HDR, 3 significant digits) and recompute percentiles, never average them.
 * Small trends also keep their raw values so percentiles are exact, as k6 computes them.
 */
import * as hdr from 'hdr-histogram-js';
import { BulkRecorder } from './bulk-record.js';

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
export type Contains = 'default' | 'time' | 'data';

/** Trends keep raw values up to this many samples (exact percentiles); past it, HDR only. */
const EXACT_CAP = 10_000;
/** Raw values are serialised only for small trends, to keep results.json small. */
const SERIAL_CAP = 1_000;
/** Trend values are recorded in the histogram in thousandths (µs for ms-valued trends). */
const SCALE = 1000;

export function newHistogram(digits: 2 | 3 = 3): hdr.Histogram {
  return hdr.build({
    bitBucketSize: digits === 3 ? 32 : 'packed',
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2,
    numberOfSignificantValueDigits: digits,
  });
}

export const histToBase64 = (h: hdr.Histogram): string => hdr.encodeIntoCompressedBase64(h);
export const histFromBase64 = (s: string, digits: 2 | 3 = 3): hdr.Histogram =>
  hdr.decodeFromCompressedBase64(s, digits === 3 ? 32 : 'packed', false);

export type SinkJSON =
  | { type: 'counter'; sum: number }
  | { type: 'gauge'; last: number; min: number; max: number; at: number }
  | { type: 'rate'; trues: number; total: number }
  | { type: 'trend'; count: number; sum: number; min: number; max: number; hist: string; values?: number[] };

export class CounterSink {
  readonly type = 'counter';
  sum = 0;
  add(v: number): void {
    this.sum += v;
  }
  merge(o: CounterSink): void {
    this.sum += o.sum;
  }
  toJSON(): SinkJSON {
    return { type: 'counter', sum: this.sum };
  }
}

export class GaugeSink {
  readonly type = 'gauge';
  last = 0;
  min = Infinity;
  max = -Infinity;
  at = -Infinity;
  add(v: number, t = Date.now()): void {
    if (t >= this.at) {
      this.last = v;
      this.at = t;
    }
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
  /** Gauges of several instances: the latest value wins; extremes combine. */
  merge(o: GaugeSink): void {
    if (o.at >= this.at) {
      this.last = o.last;
      this.at = o.at;
    }
    this.min = Math.min(this.min, o.min);
    this.max = Math.max(this.max, o.max);
  }
  toJSON(): SinkJSON {
    return { type: 'gauge', last: this.last, min: fin(this.min), max: fin(this.max), at: fin(this.at) };
  }
}

export class RateSink {
  readonly type = 'rate';
  trues = 0;
  total = 0;
  add(v: number): void {
    this.total++;
    if (v !== 0) this.trues++;
  }
  merge(o: RateSink): void {
    this.trues += o.trues;
    this.total += o.total;
  }
  /** k6 (since v0.38) evaluates an empty rate as 0. */
  get rate(): number {
    return this.total === 0 ? 0 : this.trues / this.total;
  }
  toJSON(): SinkJSON {
    return { type: 'rate', trues: this.trues, total: this.total };
  }
}

export class TrendSink {
  readonly type = 'trend';
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  values: number[] | null = [];
  private sorted = true;
  /** Made at the first add: a trend read from results.json records nothing. */
  private recorder: BulkRecorder | undefined;
  constructor(private readonly histogram: hdr.Histogram = newHistogram(3)) {}

  /** The histogram, with every value added so far. */
  get hist(): hdr.Histogram {
    this.recorder?.flush();
    return this.histogram;
  }

  add(v: number): void {
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    (this.recorder ??= new BulkRecorder(this.histogram, 3)).record(Math.max(0, Math.round(v * SCALE)));
    if (this.values) {
      if (this.values.length >= EXACT_CAP) this.values = null;
      else {
        this.values.push(v);
        this.sorted = false;
      }
    }
  }

  merge(o: TrendSink): void {
    this.count += o.count;
    this.sum += o.sum;
    this.min = Math.min(this.min, o.min);
    this.max = Math.max(this.max, o.max);
    this.hist.add(o.hist);
    if (this.values && o.values && this.values.length + o.values.length <= EXACT_CAP) {
      this.values.push(...o.values);
      this.sorted = false;
    } else this.values = null;
  }

  setValues(v: readonly number[] | null): void {
    this.values = v ? [...v] : null;
    this.sorted = false;
  }

  get avg(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /** k6's percentile: linear interpolation between the sorted values around pct·(n−1). */
  p(pct: number): number {
    if (this.count === 0) return 0;
    if (this.values && this.values.length === this.count) {
      if (!this.sorted) {
        this.values.sort((a, b) => a - b);
        this.sorted = true;
      }
      const v = this.values;
      if (v.length === 1) return v[0]!;
      const i = (pct / 100) * (v.length - 1);
      const lo = v[Math.floor(i)]!,
        hi = v[Math.ceil(i)]!;
      return lo + (hi - lo) * (i - Math.floor(i));
    }
    const q = this.hist.getValueAtPercentile(pct) / SCALE;
    return Math.min(Math.max(q, this.min), this.max);
  }

  toJSON(): SinkJSON {
    const values = this.values && this.values.length <= SERIAL_CAP ? [...this.values] : undefined;
    return {
      type: 'trend',
      count: this.count,
      sum: this.sum,
      min: fin(this.min),
      max: fin(this.max),
      hist: histToBase64(this.hist),
      ...(values ? { values } : {}),
    };
  }
}

export type Sink = CounterSink | GaugeSink | RateSink | TrendSink;

export function newSink(type: MetricType): Sink {
  switch (type) {
    case 'counter':
      return new CounterSink();
    case 'gauge':
      return new GaugeSink();
    case 'rate':
      return new RateSink();
    case 'trend':
      return new TrendSink();
  }
}

export function sinkFromJSON(j: SinkJSON): Sink {
  switch (j.type) {
    case 'counter': {
      const s = new CounterSink();
      s.sum = j.sum;
      return s;
    }
    case 'gauge': {
      const s = new GaugeSink();
      Object.assign(s, { last: j.last, min: j.min, max: j.max, at: j.at });
      return s;
    }
    case 'rate': {
      const s = new RateSink();
      s.trues = j.trues;
      s.total = j.total;
      return s;
    }
    case 'trend': {
      const s = new TrendSink(histFromBase64(j.hist, 3));
      Object.assign(s, {
        count: j.count,
        sum: j.sum,
        min: j.count ? j.min : Infinity,
        max: j.count ? j.max : -Infinity,
      });
      s.setValues(j.values && j.values.length === j.count ? j.values : null);
      return s;
    }
  }
}

function fin(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

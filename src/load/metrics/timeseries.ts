/**
 * Time series for the load report: buckets of the run, each holding counts, a latency
 * histogram overall and per endpoint (the request's `name` tag), and the generator's own
 * health, so buckets of several instances merge by addition and percentiles over time are
 * recomputed from merged histograms. Buckets start at 100 ms, so a half-second burst still
 * shows a shape; a run that outlasts ten seconds is re-bucketed by the second (a long run at
 * 100 ms would cost memory and show nothing more).
 */
import type * as hdr from 'hdr-histogram-js';
import { histFromBase64, histToBase64, newHistogram } from './sinks.js';
import { BulkRecorder } from './bulk-record.js';

export interface KeyCounts {
  reqs: number;
  s429: number;
}

/** One endpoint's requests in a bucket. */
export interface NameStats {
  reqs: number;
  failed: number;
  s429: number;
  dur: hdr.Histogram;
}

/** The generator's health in a bucket: its process CPU (% of the machine's cores), the busiest VU thread's event-loop utilisation (0–1), the main thread's event-loop delay (ms). */
export interface Health {
  cpu: number;
  elu: number;
  lag: number;
}

export interface Bucket {
  reqs: number;
  /** Requests counted in http_req_failed (not an expected status). */
  failed: number;
  /** Transport errors: timeouts, resets, refused connections (status 0). */
  errors: number;
  s429: number;
  iterations: number;
  dropped: number;
  /** Iterations per second the executors were asked to start (arrival-rate executors). */
  offered: number;
  vus: number;
  byKey: Record<string, KeyCounts>;
  byName: Record<string, NameStats>;
  gen: Health | undefined;
  dur: hdr.Histogram;
}

type NameJSON = Omit<NameStats, 'dur'> & { dur: string };
interface BucketJSON extends Omit<Bucket, 'dur' | 'byName' | 'gen'> {
  t: number;
  dur: string;
  byName?: Record<string, NameJSON>;
  gen?: Health;
}

/** Buckets of 100 ms while the run is short; by the second past this many. */
const FINE_MS = 100,
  COARSE_MS = 1000,
  FINE_BUCKETS = 100;
/** Latency histograms being counted into at once (a bucket's and its endpoints'); past this many, all are handed over. */
const RECORDING = 64;

const empty = (): Bucket => ({
  reqs: 0,
  failed: 0,
  errors: 0,
  s429: 0,
  iterations: 0,
  dropped: 0,
  offered: 0,
  vus: 0,
  byKey: {},
  byName: {},
  gen: undefined,
  dur: newHistogram(2),
});

export class TimeSeries {
  private all = new Map<number, Bucket>();
  /** Requests' latencies not yet in their histograms (bulk-record.ts), recorders kept for reuse. */
  private readonly recording = new Map<hdr.Histogram, BulkRecorder>();
  private readonly spare: BulkRecorder[] = [];
  constructor(
    public t0: number,
    public widthMs = FINE_MS,
  ) {}

  /** The buckets, every latency recorded so far in their histograms. */
  get buckets(): Map<number, Bucket> {
    this.settle();
    return this.all;
  }

  private settle(): void {
    for (const r of this.recording.values()) {
      r.flush();
      this.spare.push(r);
    }
    this.recording.clear();
  }

  private record(h: hdr.Histogram, us: number): void {
    let r = this.recording.get(h);
    if (!r) {
      if (this.recording.size >= RECORDING) this.settle();
      const s = this.spare.pop();
      r = s ? s.retarget(h) : new BulkRecorder(h, 2);
      this.recording.set(h, r);
    }
    r.record(us);
  }

  private at(time: number): Bucket {
    let i = Math.max(0, Math.floor((time - this.t0) / this.widthMs));
    if (this.widthMs < COARSE_MS && i >= FINE_BUCKETS) {
      this.widen(COARSE_MS);
      i = Math.floor(i / (COARSE_MS / FINE_MS));
    }
    let b = this.all.get(i);
    if (!b) this.all.set(i, (b = empty()));
    return b;
  }

  request(time: number, durationMs: number, status: number, failed: boolean, key: string, name: string): void {
    const b = this.at(time);
    b.reqs++;
    if (failed) b.failed++;
    if (status === 0) b.errors++;
    const k = (b.byKey[key] ??= { reqs: 0, s429: 0 });
    const n = (b.byName[name] ??= { reqs: 0, failed: 0, s429: 0, dur: newHistogram(2) });
    k.reqs++;
    n.reqs++;
    if (failed) n.failed++;
    if (status === 429) {
      b.s429++;
      k.s429++;
      n.s429++;
    }
    const us = Math.max(0, Math.round(durationMs * 1000));
    this.record(b.dur, us);
    this.record(n.dur, us);
  }

  iteration(time: number): void {
    this.at(time).iterations++;
  }
  dropped(time: number, n = 1): void {
    this.at(time).dropped += n;
  }
  vus(time: number, n: number): void {
    const b = this.at(time);
    if (n > b.vus) b.vus = n;
  }
  /** The worst health seen in the bucket. */
  health(time: number, h: Health): void {
    const b = this.at(time);
    b.gen = b.gen
      ? { cpu: Math.max(b.gen.cpu, h.cpu), elu: Math.max(b.gen.elu, h.elu), lag: Math.max(b.gen.lag, h.lag) }
      : { ...h };
  }
  /** The offered arrival rate (per second) in bucket `i` (set once per bucket by the report). */
  offered(i: number, perSecond: number): void {
    this.at(this.t0 + i * this.widthMs).offered += perSecond;
  }

  /** Re-bucket into buckets `widthMs` wide (a multiple of the current width). */
  widen(widthMs: number): void {
    if (widthMs <= this.widthMs) return;
    const f = Math.round(widthMs / this.widthMs);
    const old = this.buckets;
    this.all = new Map();
    this.widthMs = widthMs;
    for (const [i, b] of old) add(this.all, Math.floor(i / f), b, f, 'within');
  }

  /** A copy re-bucketed by `widthMs` (the capacity rule judges seconds). */
  by(widthMs: number): TimeSeries {
    const s = new TimeSeries(this.t0, this.widthMs);
    for (const [i, b] of this.buckets) add(s.buckets, i, b, 1, 'within');
    s.widen(widthMs);
    return s;
  }

  toJSON(): BucketJSON[] {
    return [...this.buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([t, b]) => ({
        ...b,
        t,
        byKey: structuredClone(b.byKey),
        dur: histToBase64(b.dur),
        byName: Object.fromEntries(Object.entries(b.byName).map(([k, n]) => [k, { ...n, dur: histToBase64(n.dur) }])),
        ...(b.gen ? { gen: { ...b.gen } } : { gen: undefined }),
      }));
  }

  /** A series from results.json's buckets. */
  static fromJSON(list: readonly BucketJSON[], widthMs: number, t0 = 0): TimeSeries {
    const s = new TimeSeries(t0, widthMs);
    for (const j of list) {
      s.buckets.set(j.t, {
        ...j,
        dur: histFromBase64(j.dur, 2),
        gen: j.gen,
        byName: Object.fromEntries(
          Object.entries(j.byName ?? {}).map(([k, n]) => [k, { ...n, dur: histFromBase64(n.dur, 2) }]),
        ),
      });
    }
    return s;
  }

  /** Add a later part of the same run, run on its own (a step of a capacity search on k6), placed `atMs` after this series' start. */
  place(other: TimeSeries, atMs: number): void {
    if (other.widthMs > this.widthMs) this.widen(other.widthMs);
    const o = other.widthMs < this.widthMs ? other.by(this.widthMs) : other;
    const shift = Math.max(0, Math.round(atMs / this.widthMs));
    for (const [i, b] of o.buckets) add(this.buckets, i + shift, b, 1, 'within');
    if (this.widthMs < COARSE_MS && Math.max(0, ...this.buckets.keys()) >= FINE_BUCKETS) this.widen(COARSE_MS);
  }

  /** Add another instance's series (re-bucketed to this width first), aligned by bucket index from each run's start. */
  merge(other: TimeSeries): void {
    if (other.widthMs < this.widthMs) other = other.by(this.widthMs);
    else if (other.widthMs > this.widthMs) this.widen(other.widthMs);
    for (const [i, b] of other.buckets) add(this.buckets, i, b, 1, 'across');
  }
}
/**
 * Add bucket `b` into `into[i]`. Counts add; the offered rate (per second) averages over the
 * `f` buckets merged into one and adds across instances; VUs take the maximum within a run
 * and add across instances; health keeps the worst.
 */
function add(into: Map<number, Bucket>, i: number, b: Bucket, f: number, how: 'within' | 'across'): void {
  let t = into.get(i);
  if (!t) into.set(i, (t = empty()));
  t.reqs += b.reqs;
  t.failed += b.failed;
  t.errors += b.errors;
  t.s429 += b.s429;
  t.iterations += b.iterations;
  t.dropped += b.dropped;
  t.offered += b.offered / f;
  t.vus = how === 'within' ? Math.max(t.vus, b.vus) : t.vus + b.vus;
  for (const [k, v] of Object.entries(b.byKey)) {
    const have = (t.byKey[k] ??= { reqs: 0, s429: 0 });
    have.reqs += v.reqs;
    have.s429 += v.s429;
  }
  for (const [k, v] of Object.entries(b.byName)) {
    const have = (t.byName[k] ??= { reqs: 0, failed: 0, s429: 0, dur: newHistogram(2) });
    have.reqs += v.reqs;
    have.failed += v.failed;
    have.s429 += v.s429;
    have.dur.add(v.dur);
  }
  if (b.gen)
    t.gen = t.gen
      ? {
          cpu: Math.max(t.gen.cpu, b.gen.cpu),
          elu: Math.max(t.gen.elu, b.gen.elu),
          lag: Math.max(t.gen.lag, b.gen.lag),
        }
      : { ...b.gen };
  t.dur.add(b.dur);
}

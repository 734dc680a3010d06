/**
 * Time series for the capacity report: one bucket per second of the run, each holding
 * counts and a latency histogram, so buckets of several instances merge by addition and
 * percentiles over time are recomputed from merged histograms.
 */
import type * as hdr from 'hdr-histogram-js';
import { histFromBase64, histToBase64, newHistogram } from './sinks.js';

export interface KeyCounts { reqs: number; s429: number }

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
  dur: hdr.Histogram;
}

export interface BucketJSON extends Omit<Bucket, 'dur'> { t: number; dur: string }

export class TimeSeries {
  readonly buckets = new Map<number, Bucket>();
  constructor(public t0: number, readonly widthMs = 1000) {}

  private at(time: number): Bucket {
    const i = Math.max(0, Math.floor((time - this.t0) / this.widthMs));
    let b = this.buckets.get(i);
    if (!b) {
      b = { reqs: 0, failed: 0, errors: 0, s429: 0, iterations: 0, dropped: 0, offered: 0, vus: 0, byKey: {}, dur: newHistogram(2) };
      this.buckets.set(i, b);
    }
    return b;
  }

  request(time: number, durationMs: number, status: number, failed: boolean, key: string): void {
    const b = this.at(time);
    b.reqs++;
    if (failed) b.failed++;
    if (status === 0) b.errors++;
    const k = (b.byKey[key] ??= { reqs: 0, s429: 0 });
    k.reqs++;
    if (status === 429) { b.s429++; k.s429++; }
    b.dur.recordValue(Math.max(0, Math.round(durationMs * 1000)));
  }

  iteration(time: number): void { this.at(time).iterations++; }
  dropped(time: number, n = 1): void { this.at(time).dropped += n; }
  vus(time: number, n: number): void { const b = this.at(time); if (n > b.vus) b.vus = n; }
  /** The offered arrival rate at second `i` (set once per bucket by the report). */
  offered(i: number, perSecond: number): void { this.at(this.t0 + i * this.widthMs).offered += perSecond; }

  toJSON(): BucketJSON[] {
    return [...this.buckets.entries()].sort((a, b) => a[0] - b[0]).map(([t, b]) => ({ ...b, t, byKey: structuredClone(b.byKey), dur: histToBase64(b.dur) }));
  }

  /** Add buckets of another instance, aligned by bucket index from each run's start. */
  mergeJSON(list: readonly BucketJSON[]): void {
    for (const j of list) {
      const b = this.at(this.t0 + j.t * this.widthMs);
      b.reqs += j.reqs; b.failed += j.failed; b.errors += j.errors; b.s429 += j.s429;
      b.iterations += j.iterations; b.dropped += j.dropped; b.offered += j.offered; b.vus += j.vus;
      for (const [k, v] of Object.entries(j.byKey)) {
        const have = (b.byKey[k] ??= { reqs: 0, s429: 0 });
        have.reqs += v.reqs; have.s429 += v.s429;
      }
      b.dur.add(histFromBase64(j.dur, 2));
    }
  }
}

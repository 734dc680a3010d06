/**
 * Values bound for an HDR histogram, counted first in a plain array at the histogram's own
 * resolution and handed over in bulk: one recordValueWithCount per distinct bucket.
 * hdr-histogram-js spends ~90 ns on a recordValue (~330 ns in a packed histogram: it takes a
 * floating-point log2 and pow, and searches the packed array), counting here a few, and the
 * load runner's main thread records nine values per request (bench/README.md).
 *
 * The array is laid out as HDR lays out its counts (2^⌈log2(2·10^digits)⌉ sub-buckets, unit 1),
 * and each bucket is handed over as its lowest value, so the histogram ends up with the same
 * counts as if every value had been recorded on its own (test: bulk-record.test.ts).
 */
import type * as hdr from 'hdr-histogram-js';

/** From this value on (2^31), values go to the histogram one by one: the shifts below are 32-bit. */
const DIRECT = 2 ** 31;

export class BulkRecorder {
  private counts: Uint32Array;
  /** The touched range of `counts`, so a flush scans only that. */
  private lo = Infinity;
  private hi = -1;
  /** log2 of half HDR's sub-bucket count at this precision (3 digits: 2048 sub-buckets, 2: 256). */
  private readonly mag: number;

  constructor(
    private to: hdr.Histogram,
    digits: 2 | 3,
  ) {
    this.mag = Math.ceil(Math.log2(2 * 10 ** digits)) - 1;
    this.counts = new Uint32Array(2 << this.mag);
  }

  get target(): hdr.Histogram {
    return this.to;
  }

  /** The same recorder for another histogram of the same precision (after a flush). */
  retarget(h: hdr.Histogram): this {
    this.flush();
    this.to = h;
    return this;
  }

  /** Record `v`, a non-negative integer. */
  record(v: number): void {
    if (!(v < DIRECT)) {
      this.to.recordValue(v);
      return;
    }
    const b = Math.max(0, 31 - Math.clz32(v) - this.mag);
    const i = (b << this.mag) + (v >>> b);
    if (i >= this.counts.length) this.grow(i);
    this.counts[i]!++;
    if (i < this.lo) this.lo = i;
    if (i > this.hi) this.hi = i;
  }

  /** Hand the counted values to the histogram. */
  flush(): void {
    const c = this.counts;
    for (let i = this.lo; i <= this.hi; i++) {
      const n = c[i]!;
      if (n === 0) continue;
      this.to.recordValueWithCount(this.lowest(i), n);
      c[i] = 0;
    }
    this.lo = Infinity;
    this.hi = -1;
  }

  /** The lowest value counted at index `i`. */
  private lowest(i: number): number {
    const half = 1 << this.mag;
    if (i < 2 * half) return i;
    const b = (i >>> this.mag) - 1;
    return (i - b * half) * 2 ** b;
  }

  private grow(i: number): void {
    const next = new Uint32Array(Math.max(i + 1, this.counts.length * 2));
    next.set(this.counts);
    this.counts = next;
  }
}

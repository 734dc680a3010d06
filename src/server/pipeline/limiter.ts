/**
 * Fixed-window rate limiting (§8.1): windows of `windowMs` aligned to the epoch; a key's
 * count resets when a new window starts. Node runs one request hook at a time, so the
 * check-and-count is atomic and admission is exact under any concurrency (RATE-5).
 */
export interface Admission {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds of the current window's end (x-ratelimit-reset). */
  reset: number;
}

export class FixedWindowLimiter {
  private readonly counts = new Map<string, { window: number; count: number; sticky?: boolean }>();
  private lastPrune = 0;

  constructor(
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Count one call against `key`; `slack` admits that many extra calls (a mutant's off-by-one);
   * `sticky`: once the key is refused its count is kept across windows (a mutant: the
   * counter loses its expiry when the limit is hit). Both may be given as functions, asked
   * only at the limit: a mutant's switch is read only where it changes behaviour, which is
   * what the selftest's coverage measures (src/mutants/coverage.ts).
   */
  take(
    key: string,
    limit: number,
    slack: number | (() => number) = 0,
    sticky: boolean | (() => boolean) = false,
  ): Admission {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    this.prune(window);
    let entry = this.counts.get(key);
    if (!entry || (entry.window !== window && !entry.sticky)) {
      entry = { window, count: 0 };
      this.counts.set(key, entry);
    }
    entry.window = window;
    const reset = Math.ceil(((window + 1) * this.windowMs) / 1000);
    if (entry.count >= limit && entry.count >= limit + (typeof slack === 'function' ? slack() : slack)) {
      if (typeof sticky === 'function' ? sticky() : sticky) entry.sticky = true;
      return { allowed: false, limit, remaining: 0, reset };
    }
    entry.count++;
    return { allowed: true, limit, remaining: Math.max(0, limit - entry.count), reset };
  }

  /** Drop keys of past windows, at most once per window. */
  private prune(window: number): void {
    if (window === this.lastPrune) return;
    this.lastPrune = window;
    for (const [k, v] of this.counts) if (v.window < window && !v.sticky) this.counts.delete(k);
  }
}

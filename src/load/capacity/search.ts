/**
 * The capacity search: climb from the start rate by doubling until a step breaks the SLO (or
 * the generator saturates, or --max-rate holds), then bisect between the highest rate that
 * held and the lowest that broke until they are within the precision. The break that would
 * end the climb is tried again once before it is trusted: a cold first step (JIT, connections)
 * or one late tick on a shared machine would otherwise halve the figure. Bounded three ways:
 * no rate above --max-rate, no step started that could end past --max-duration, at most
 * maxSteps steps. Rates are whole iterations per second (k6's `rate` is an integer).
 */
import type { Search, SearchStep } from '../report/schema.js';
import { GENERATOR_ADVICE, type Slo } from './judge.js';

export interface SearchBounds {
  startRate: number;
  maxRate: number;
  maxDurationMs: number;
  stepSeconds: number;
  /** Stop bisecting when the broken rate is within this share (%) of the held one. */
  precisionPct: number;
  maxSteps: number;
}

export const DEFAULT_BOUNDS: SearchBounds = {
  startRate: 10,
  maxRate: 1000,
  maxDurationMs: 300_000,
  stepSeconds: 5,
  precisionPct: 5,
  maxSteps: 30,
};

type StoppedBy = Search['stoppedBy'];

export class CapacitySearch {
  readonly steps: SearchStep[] = [];
  private good = 0;
  private bad: SearchStep | undefined;
  private stopped: StoppedBy | undefined;
  private engineError = '';
  /** A rate to try again before its break is trusted, and the rates tried again so far. */
  private again: number | undefined;
  private readonly triedAgain = new Set<number>();
  /** The longest a step took so far, wall time (engine start-up included): the next is expected to take as long. */
  private longestMs: number;
  private readonly started: number;

  constructor(
    readonly bounds: SearchBounds,
    readonly slo: Slo,
    graceSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.longestMs = (bounds.stepSeconds + graceSeconds) * 1000;
  }

  /** The next rate to try, or undefined when the search is over. */
  next(): number | undefined {
    if (this.stopped) return undefined;
    const b = this.bounds;
    const rate =
      this.again !== undefined
        ? this.again
        : this.bad === undefined
          ? this.steps.length === 0
            ? Math.min(b.startRate, b.maxRate)
            : this.good >= b.maxRate
              ? undefined
              : Math.min(b.maxRate, this.good * 2)
          : this.bisect(this.bad.rate);
    if (rate === undefined) return undefined;
    if (this.steps.length >= b.maxSteps) return this.stop('max-steps');
    if (this.now() - this.started + this.longestMs > b.maxDurationMs) return this.stop('max-duration');
    this.again = undefined;
    return rate;
  }

  private bisect(bad: number): number | undefined {
    if (this.good === 0 && bad <= 1) return this.stop('minimum-rate');
    if (bad - this.good <= Math.max(1, (this.good * this.bounds.precisionPct) / 100)) return this.stop('converged');
    return Math.max(1, Math.round((this.good + bad) / 2));
  }

  private stop(why: StoppedBy): undefined {
    this.stopped ??= why;
    return undefined;
  }

  /** A step's verdict and the wall time it took. */
  record(v: SearchStep, wallMs: number): void {
    this.steps.push(v);
    this.longestMs = Math.max(this.longestMs, wallMs);
    if (!v.ok && this.bad === undefined && !this.triedAgain.has(v.rate)) {
      this.triedAgain.add(v.rate);
      this.again = v.rate;
      v.why += ' — tried again before it ends the climb';
      return;
    }
    if (v.ok) {
      this.good = Math.max(this.good, v.rate);
      if (v.generator) this.stop('generator');
      else if (this.bad === undefined && this.good >= this.bounds.maxRate) this.stop('max-rate');
    } else if (v.cause === 'generator') {
      this.bad = v;
      this.stop('generator');
    } else if (this.bad === undefined || v.rate < this.bad.rate) this.bad = v;
  }

  /** The engine failed (not the target): the search ends here, and says so. */
  fail(message: string): void {
    this.engineError = message;
    this.stop('engine-error');
  }

  result(): Search {
    const b = this.bounds;
    const stoppedBy = this.stopped ?? 'converged';
    const slo = `p95 ≤ ${this.slo.p95Ms} ms, failed requests ≤ ${this.slo.errorPct} %`;
    const held = this.good > 0 ? `${this.good} it/s sustained (${slo})` : `no rate was sustained (${slo})`;
    const broke = this.bad ? `; broke at ${this.bad.rate} it/s: ${this.bad.why}` : '';
    const end: Record<StoppedBy, string> = {
      converged: '',
      'max-rate': `; not reached: --max-rate ${b.maxRate} it/s was sustained, raise it to search higher`,
      'max-duration': `; the search stopped at --max-duration ${b.maxDurationMs / 1000} s${this.bad ? ` with the knee between ${this.good} and ${this.bad.rate} it/s` : ', still climbing'}`,
      'max-steps': `; the search stopped after ${b.maxSteps} steps`,
      generator: this.bad
        ? ''
        : `; ${GENERATOR_ADVICE} (it was saturated at ${this.good} it/s while the target still held)`,
      'minimum-rate': '; even 1 it/s broke the SLO',
      'engine-error': `; the search ended on an engine error: ${this.engineError}`,
    };
    return {
      slo: { ...this.slo },
      bounds: { ...b },
      figure: this.good,
      brokeAt: this.bad?.rate ?? null,
      cause: this.bad?.cause ?? (stoppedBy === 'generator' ? 'generator' : null),
      why: held + broke + end[stoppedBy],
      stoppedBy,
      durationMs: this.now() - this.started,
      steps: [...this.steps],
    };
  }
}

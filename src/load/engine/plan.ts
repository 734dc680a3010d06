/**
 * One instance's part of a scenario in a split run, divided exactly as k6 divides it
 * (lib/executor/*.go): VUs, pre-allocated and max VUs scaled by the instance's tuple;
 * shared iterations and arrival-rate iterations by the tuple re-cut by VUs / maxVUs, their
 * global numbers taken from that tuple's stripe. Unsplit, every part is the whole.
 */
import { globalIndex, stripeCount, type Stripe, type Tuple } from './segment.js';
import { startedBy, type Scenario } from './options.js';

export interface Part {
  /** k6's HasWork: an instance whose part is nothing runs nothing of the scenario. */
  hasWork: boolean;
  vus: number;
  /** shared-iterations: this instance's total; per-vu-iterations: per VU (not divided). */
  iterations: number;
  preAllocatedVUs: number;
  maxVUs: number;
  /** Global numbering of this instance's iterations (exec.scenario.iterationInTest). */
  stripe: Stripe;
  /** The share of the scenario's arrival rate this instance offers. */
  rateShare: number;
}

export function partOf(s: Scenario, t: Tuple): Part {
  const base = t.stripe();
  switch (s.executor) {
    case 'shared-iterations': {
      const vus = t.scale(s.vus);
      const re = t.resegment(s.vus);
      const iterations = re ? re.scale(s.iterations) : 0;
      return {
        hasWork: vus > 0 && iterations > 0,
        vus,
        iterations,
        preAllocatedVUs: 0,
        maxVUs: 0,
        stripe: re ? re.stripe() : base,
        rateShare: 0,
      };
    }
    case 'per-vu-iterations':
    case 'constant-vus': {
      const vus = t.scale(s.vus);
      return {
        hasWork: vus > 0,
        vus,
        iterations: s.iterations,
        preAllocatedVUs: 0,
        maxVUs: 0,
        stripe: base,
        rateShare: 0,
      };
    }
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate': {
      const maxVUs = t.scale(s.maxVUs);
      const re = maxVUs > 0 ? t.resegment(s.maxVUs) : null;
      return {
        hasWork: re !== null,
        vus: 0,
        iterations: 0,
        preAllocatedVUs: t.scale(s.preAllocatedVUs),
        maxVUs,
        stripe: re ? re.stripe() : base,
        rateShare: re ? re.share : 0,
      };
    }
  }
}

/**
 * An arrival-rate schedule over this instance's stripe. k6 starts the constant executor's
 * global iteration g when g iterations' worth of rate has passed (the first at once), the
 * ramping executor's when g + 1 have (area arithmetic of `cal`).
 */
export class ArrivalSchedule {
  private readonly lag: number;
  /** This instance's iterations over the whole duration. */
  readonly total: number;

  constructor(
    private readonly s: Scenario,
    private readonly stripe: Stripe,
  ) {
    const area = startedBy(s, s.durationMs);
    this.lag = s.executor === 'ramping-arrival-rate' ? 1 : 0;
    const globalTotal = this.lag ? Math.floor(area + 1e-9) : Math.ceil(area - 1e-9);
    this.total = stripeCount(stripe, globalTotal);
  }

  /** This instance's iterations due by `t` ms after the start. */
  dueBy(t: number): number {
    const global = Math.floor(startedBy(this.s, t) + 1e-9) + 1 - this.lag;
    return Math.min(this.total, stripeCount(this.stripe, global));
  }

  /** When (ms after the start) this instance's iteration `n` (0-based) is due: the rate integral inverted. */
  dueAt(n: number): number {
    const want = globalIndex(this.stripe, n) + this.lag;
    let lo = 0,
      hi = this.s.durationMs;
    for (let k = 0; k < 40 && hi - lo > 0.05; k++) {
      const mid = (lo + hi) / 2;
      if (startedBy(this.s, mid) >= want) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}

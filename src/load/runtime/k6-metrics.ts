/** `k6/metrics`: Counter, Gauge, Rate, Trend. Declared in the init context, fed in VU code. */
import type { DeclaredMetric } from './protocol.js';
import { baseTags, emit, state, thread } from './vu-state.js';
import { stringTags } from './k6-core.js';

/** Metrics this VU declared (reported to the main thread once, so thresholds can name them). */
export const declared = new Map<string, DeclaredMetric>();

const NAME = /^[\p{L}\p{N}\._ !\?\/&#\(\)<>%-]{1,128}$/u;

abstract class Metric {
  constructor(
    readonly name: string,
    type: DeclaredMetric['type'],
    isTime = false,
  ) {
    if (!state.inInit) throw new Error('metrics must be declared in the init context');
    if (typeof name !== 'string' || !NAME.test(name)) throw new Error(`invalid metric name "${String(name)}"`);
    const have = declared.get(name);
    if (have && have.type !== type) throw new Error(`metric "${name}" is already declared as a ${have.type}`);
    const d: DeclaredMetric = { name, type, isTime: Boolean(isTime) };
    if (!have) {
      declared.set(name, d);
      thread.newMetrics.push(d);
    }
  }

  add(value: number | boolean, tags?: Record<string, unknown>): boolean {
    if (state.inInit) throw new Error('metrics can only be added to in VU code');
    const v = typeof value === 'boolean' ? (value ? 1 : 0) : Number(value);
    if (Number.isNaN(v)) return false;
    emit(this.name, v, { ...baseTags(), ...stringTags(tags) });
    return true;
  }
}

export class Counter extends Metric {
  constructor(name: string) {
    super(name, 'counter');
  }
}
export class Gauge extends Metric {
  constructor(name: string, isTime?: boolean) {
    super(name, 'gauge', isTime);
  }
}
export class Rate extends Metric {
  constructor(name: string) {
    super(name, 'rate');
  }
}
export class Trend extends Metric {
  constructor(name: string, isTime?: boolean) {
    super(name, 'trend', isTime);
  }
}

/**
 * Thresholds with k6's syntax: `options.thresholds` maps a metric or submetric selector to
 * expressions `aggregation operator value` (`p(95)<500`, `rate==1`, `count>=10`) or objects
 * `{ threshold, abortOnFail, delayAbortEval }`. Aggregations per metric type and the
 * empty-metric values follow k6 (an empty rate or trend evaluates as 0).
 */
import { parseSelector, type Registry } from './registry.js';
import type { MetricType, Sink } from './sinks.js';
import { parseDuration } from '../engine/duration.js';

export interface ThresholdSpec {
  readonly selector: string;
  readonly source: string;
  readonly agg: string;
  readonly op: string;
  readonly value: number;
  readonly abortOnFail: boolean;
  readonly delayAbortEvalMs: number;
}

export interface ThresholdResult extends ThresholdSpec {
  readonly ok: boolean;
  readonly measured: number;
}

const AGGS: Readonly<Record<MetricType, RegExp>> = {
  counter: /^(count|rate)$/,
  gauge: /^value$/,
  rate: /^rate$/,
  trend: /^(avg|min|max|med|p\(\d+(\.\d+)?\))$/,
};

const EXPR = /^\s*([a-z]+(?:\(\s*\d+(?:\.\d+)?\s*\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*$/i;

/** Parse every threshold; an error names the first invalid one (k6 exits 104 on these). */
export function parseThresholds(raw: unknown): { specs: ThresholdSpec[] } | { error: string } {
  const specs: ThresholdSpec[] = [];
  if (raw === undefined || raw === null) return { specs };
  if (typeof raw !== 'object') return { error: 'options.thresholds must be an object' };
  for (const [selector, list] of Object.entries(raw as Record<string, unknown>)) {
    const items = Array.isArray(list) ? list : [list];
    for (const item of items) {
      const obj = typeof item === 'string' ? { threshold: item } : (item as Record<string, unknown>);
      const source = typeof obj?.threshold === 'string' ? obj.threshold : '';
      const m = EXPR.exec(source);
      if (!m) return { error: `invalid threshold "${source}" on ${selector}` };
      const delay = obj.delayAbortEval === undefined ? 0 : parseDuration(String(obj.delayAbortEval));
      if (delay === undefined) return { error: `invalid delayAbortEval on ${selector}` };
      specs.push({
        selector,
        source,
        agg: m[1]!.replace(/\s+/g, ''),
        op: m[2]!,
        value: Number(m[3]),
        abortOnFail: obj.abortOnFail === true,
        delayAbortEvalMs: delay,
      });
    }
  }
  return { specs };
}

/** Check every threshold names a known metric with an aggregation of its type, and create its submetric. */
export function bindThresholds(specs: readonly ThresholdSpec[], reg: Registry): string | undefined {
  for (const s of specs) {
    const sel = parseSelector(s.selector);
    if ('error' in sel) return `invalid threshold selector: ${sel.error}`;
    const m = reg.metrics.get(sel.name);
    if (!m) return `invalid threshold defined on ${s.selector}; reason: no metric name "${sel.name}" found`;
    if (!AGGS[m.type].test(s.agg))
      return `invalid threshold "${s.source}" on ${s.selector}: ${s.agg} is not an aggregation of a ${m.type}`;
    if (Object.keys(sel.tags).length > 0) reg.submetric(sel.name, sel.tags);
  }
  return undefined;
}

function sinkOf(reg: Registry, selector: string): Sink | undefined {
  const sel = parseSelector(selector);
  if ('error' in sel) return undefined;
  const m = reg.metrics.get(sel.name);
  if (!m) return undefined;
  if (Object.keys(sel.tags).length === 0) return m.sink;
  return reg.submetric(sel.name, sel.tags).sink;
}

/** The value an aggregation takes on a sink; `durationMs` is the run's length (for a counter's rate). */
function aggregate(sink: Sink, agg: string, durationMs: number): number {
  switch (sink.type) {
    case 'counter':
      return agg === 'rate' ? (durationMs > 0 ? sink.sum / (durationMs / 1000) : 0) : sink.sum;
    case 'gauge':
      return sink.last;
    case 'rate':
      return sink.rate;
    case 'trend': {
      if (sink.count === 0) return 0;
      if (agg === 'avg') return sink.avg;
      if (agg === 'min') return sink.min;
      if (agg === 'max') return sink.max;
      if (agg === 'med') return sink.p(50);
      return sink.p(Number(/\(([^)]+)\)/.exec(agg)![1]));
    }
  }
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '==':
    case '===':
      return a === b;
    case '!=':
      return a !== b;
    default:
      return false;
  }
}

export function evaluate(specs: readonly ThresholdSpec[], reg: Registry, durationMs: number): ThresholdResult[] {
  return specs.map((s) => {
    const sink = sinkOf(reg, s.selector);
    const measured = sink ? aggregate(sink, s.agg, durationMs) : 0;
    return { ...s, measured, ok: sink !== undefined && compare(measured, s.op, s.value) };
  });
}

/** Thresholds with abortOnFail that fail now, once their delay has passed. */
export function abortingFailures(specs: readonly ThresholdSpec[], reg: Registry, elapsedMs: number): ThresholdResult[] {
  const due = specs.filter((s) => s.abortOnFail && elapsedMs >= s.delayAbortEvalMs);
  return evaluate(due, reg, elapsedMs).filter((r) => !r.ok);
}

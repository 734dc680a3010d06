/**
 * The end-of-test summary object k6 passes to handleSummary(data): metrics with their
 * aggregated `values` and threshold verdicts, the root group's checks, state and options.
 */
import type { Registry } from './registry.js';
import type { Sink } from './sinks.js';
import type { ThresholdResult } from './thresholds.js';

const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

export interface CheckTally {
  group: string;
  name: string;
  passes: number;
  fails: number;
}

/** The check tallies of several runs or instances, summed per group and name. */
export function sumChecks(lists: readonly (readonly CheckTally[])[]): CheckTally[] {
  const checks = new Map<string, CheckTally>();
  for (const list of lists)
    for (const c of list) {
      const k = `${c.group}\u0000${c.name}`;
      const have = checks.get(k);
      if (have) {
        have.passes += c.passes;
        have.fails += c.fails;
      } else checks.set(k, { ...c });
    }
  return [...checks.values()];
}

function values(sink: Sink, durationMs: number, trendStats: readonly string[]): Record<string, number> {
  const perSec = durationMs > 0 ? 1000 / durationMs : 0;
  switch (sink.type) {
    case 'counter':
      return { count: sink.sum, rate: sink.sum * perSec };
    case 'gauge':
      return {
        value: sink.last,
        min: sink.min === Infinity ? 0 : sink.min,
        max: sink.max === -Infinity ? 0 : sink.max,
      };
    case 'rate':
      return { rate: sink.rate, passes: sink.trues, fails: sink.total - sink.trues };
    case 'trend': {
      const out: Record<string, number> = {};
      for (const st of trendStats) {
        const pm = /^p\((\d+(?:\.\d+)?)\)$/.exec(st);
        out[st] =
          sink.count === 0
            ? 0
            : pm
              ? sink.p(Number(pm[1]))
              : st === 'avg'
                ? sink.avg
                : st === 'min'
                  ? sink.min
                  : st === 'max'
                    ? sink.max
                    : st === 'med'
                      ? sink.p(50)
                      : st === 'count'
                        ? sink.count
                        : 0;
      }
      return out;
    }
  }
}

export function summaryData(
  reg: Registry,
  thresholds: readonly ThresholdResult[],
  checks: readonly CheckTally[],
  durationMs: number,
  trendStats = DEFAULT_TREND_STATS,
): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  const add = (name: string, type: string, contains: string, sink: Sink) => {
    const th = thresholds.filter((t) => t.selector === name);
    metrics[name] = {
      type,
      contains,
      values: values(sink, durationMs, trendStats),
      ...(th.length ? { thresholds: Object.fromEntries(th.map((t) => [t.source, { ok: t.ok }])) } : {}),
    };
  };
  for (const m of reg.metrics.values()) {
    const seen =
      m.sink.type === 'trend'
        ? m.sink.count
        : m.sink.type === 'rate'
          ? m.sink.total
          : m.sink.type === 'counter'
            ? m.sink.sum !== 0
              ? 1
              : 0
            : Number.isFinite(m.sink.at)
              ? 1
              : 0;
    const named = thresholds.some((t) => t.selector === m.name);
    if (seen || named) add(m.name, m.type, m.contains, m.sink);
    for (const s of m.subs)
      if (seen || thresholds.some((t) => t.selector === s.name)) add(s.name, m.type, m.contains, s.sink);
  }
  const groups = new Map<string, CheckTally[]>();
  for (const c of checks) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const group = (path: string): Record<string, unknown> => ({
    name: path.split('::').pop() ?? '',
    path,
    id: path,
    groups: [...groups.keys()]
      .filter((p) => p.startsWith(`${path}::`) && !p.slice(path.length + 2).includes('::'))
      .map(group),
    checks: (groups.get(path) ?? []).map((c) => ({
      name: c.name,
      path: `${path}::${c.name}`,
      id: `${path}::${c.name}`,
      passes: c.passes,
      fails: c.fails,
    })),
  });
  return {
    root_group: group(''),
    options: { summaryTrendStats: [...trendStats], summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: durationMs },
    metrics,
  };
}

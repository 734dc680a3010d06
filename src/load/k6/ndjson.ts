/**
 * Reads k6's `--out json` stream (one Metric or Point object per line) into the same registry
 * and time series the built-in runner fills, so both engines yield the same reports and
 * merge alike. Unreadable lines are counted, never fatal.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Registry, parseSelector } from '../metrics/registry.js';
import { TimeSeries } from '../metrics/timeseries.js';
import type { CheckTally } from '../metrics/summary.js';
import type { ThresholdSpec } from '../metrics/thresholds.js';
import type { Contains, MetricType } from '../metrics/sinks.js';
import { isLifecycle } from '../engine/collect.js';
import type { DeclaredMetric } from '../runtime/protocol.js';

interface Ingested {
  registry: Registry;
  series: TimeSeries;
  checks: CheckTally[];
  firstMs: number;
  lastMs: number;
  badLines: number;
}

interface Line {
  type?: string;
  metric?: string;
  data?: {
    name?: string;
    type?: MetricType;
    contains?: Contains;
    time?: string;
    value?: number;
    tags?: Record<string, string> | null;
  };
}

export async function ingestNdjson(
  file: string,
  specs: readonly ThresholdSpec[],
  declared: readonly DeclaredMetric[] = [],
): Promise<Ingested> {
  const registry = new Registry();
  registry.declareBuiltins();
  // The script's own metrics exist even when no sample was written (a counter that stayed at 0 meets count==0).
  for (const m of declared) registry.declare(m.name, m.type, m.isTime ? 'time' : 'default');
  const series = new TimeSeries(0);
  const checks = new Map<string, CheckTally>();
  const wanted = specs
    .map((s) => parseSelector(s.selector))
    .filter((s): s is { name: string; tags: Record<string, string> } => !('error' in s));
  for (const w of wanted)
    if (Object.keys(w.tags).length && registry.metrics.has(w.name)) registry.submetric(w.name, w.tags);
  let firstMs = Infinity,
    lastMs = -Infinity,
    badLines = 0;
  const rl = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const raw of rl) {
    if (!raw.trim()) continue;
    let l: Line;
    try {
      l = JSON.parse(raw) as Line;
    } catch {
      badLines++;
      continue;
    }
    const d = l.data ?? {};
    if (l.type === 'Metric' && d.name && d.type) {
      registry.declare(d.name, d.type, d.contains ?? 'default');
      for (const w of wanted) if (w.name === d.name && Object.keys(w.tags).length) registry.submetric(w.name, w.tags);
      continue;
    }
    if (l.type !== 'Point' || !l.metric || typeof d.value !== 'number' || !d.time) {
      badLines++;
      continue;
    }
    const t = Date.parse(d.time);
    if (Number.isNaN(t)) {
      badLines++;
      continue;
    }
    firstMs = Math.min(firstMs, t);
    lastMs = Math.max(lastMs, t);
    const tags = d.tags ?? {};
    registry.add(l.metric, d.value, tags, undefined, t);
    if (l.metric === 'checks') {
      const k = `${tags.group ?? ''}\u0000${tags.check ?? ''}`;
      const c = checks.get(k) ?? { group: tags.group ?? '', name: tags.check ?? '', passes: 0, fails: 0 };
      if (d.value) c.passes++;
      else c.fails++;
      checks.set(k, c);
    }
    // The series starts with the scenarios (their samples carry a scenario tag), not with setup().
    if (series.t0 === 0 && tags.scenario) series.t0 = t;
    if (series.t0 === 0) continue;
    switch (l.metric) {
      case 'http_req_duration': {
        const status = Number(tags.status ?? 0);
        if (!isLifecycle(tags))
          series.request(
            t,
            d.value,
            status,
            tags.expected_response === 'false' || status === 0,
            tags.key ?? '(untagged)',
            tags.name ?? tags.url ?? '',
          );
        break;
      }
      case 'iterations':
        series.iteration(t);
        break;
      case 'dropped_iterations':
        series.dropped(t, d.value);
        break;
      case 'vus':
        series.vus(t, d.value);
        break;
    }
  }
  return { registry, series, checks: [...checks.values()], firstMs, lastMs, badLines };
}

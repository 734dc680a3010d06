/**
 * Builds results.json from a finished run (either engine) or from merged instances. Clauses
 * of a threshold come from its `{clause:…}` tag, else from the scenario's own list.
 */
import { redactText } from '../../client/redact.js';
import { Registry, parseSelector } from '../metrics/registry.js';
import { TimeSeries } from '../metrics/timeseries.js';
import { evaluate, parseThresholds, type ThresholdResult } from '../metrics/thresholds.js';
import { sumChecks, type CheckTally } from '../metrics/summary.js';
import { rateAt, type Scenario } from '../engine/options.js';
import type { RunOutcome } from '../engine/run.js';
import { capacity, capacityOfSearch } from './capacity.js';
import { SCHEMA_VERSION, type Results, type Search } from './schema.js';

interface RunMeta {
  scenario: string;
  clauses: readonly string[];
  target: { url: string; edition: string; api_version: string; tls?: string };
  p95BudgetMs: number;
}

/** Offered arrival rate per bucket of the run, from the scenarios' schedules; `share` is this instance's part of each (k6 execution segments). */
export function fillOffered(
  series: TimeSeries,
  scenarios: readonly Scenario[],
  durationMs: number,
  share: number | ((s: Scenario) => number) = 1,
): void {
  const seconds = Math.ceil(durationMs / series.widthMs);
  const part = typeof share === 'number' ? () => share : share;
  for (let i = 0; i < seconds; i++) {
    const mid = i * series.widthMs + series.widthMs / 2;
    const r = scenarios.reduce((a, s) => a + rateAt(s, mid - s.startTimeMs) * part(s), 0);
    if (r > 0) series.offered(i, r);
  }
}

function clausesOf(selector: string, fallback: readonly string[]): string[] {
  const sel = parseSelector(selector);
  if (!('error' in sel) && sel.tags.clause) return [sel.tags.clause];
  const named = /\b([A-Z]+-\d+)\b/.exec(selector);
  return named ? [named[1]!] : [...fallback];
}

/** Secrets never reach a report: known ones are masked, and so is anything shaped like a token. */
export function scrub(s: string): string {
  return redactText(s)
    .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '«redacted»')
    .replace(/\b[0-9a-f]{40}\b/g, '«redacted»');
}

export function buildResults(o: {
  meta: RunMeta;
  engines: string[];
  instances: number;
  registry: Registry;
  series: TimeSeries;
  checks: readonly CheckTally[];
  thresholds: readonly ThresholdResult[];
  options: Record<string, unknown>;
  scenarios: readonly Scenario[];
  startedAt: number;
  durationMs: number;
  exitCode: number;
  aborted?: string;
  errors: readonly string[];
  search?: Search;
}): Results {
  const cap = o.search ? capacityOfSearch(o.search) : capacity(o.series, o.meta.p95BudgetMs);
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: 'conformance load',
    engine: o.engines.length === 1 ? o.engines[0]! : 'merged',
    engines: [...o.engines],
    scenario: o.meta.scenario,
    clauses: [...o.meta.clauses],
    target: {
      url: o.meta.target.url,
      edition: o.meta.target.edition,
      api_version: o.meta.target.api_version,
      ...(o.meta.target.tls ? { tls: o.meta.target.tls } : {}),
    },
    instances: o.instances,
    startedAt: new Date(o.startedAt).toISOString(),
    durationMs: o.durationMs,
    exitCode: o.exitCode,
    ...(o.aborted !== undefined ? { aborted: scrub(o.aborted) } : {}),
    options: {
      thresholds: (o.options.thresholds ?? {}) as Record<string, unknown>,
      scenarios: o.scenarios.map((s) => ({ ...s })),
    },
    thresholds: o.thresholds.map((t) => ({
      selector: t.selector,
      source: t.source,
      ok: t.ok,
      measured: t.measured,
      clauses: clausesOf(t.selector, o.meta.clauses),
    })),
    checks: o.checks.map((c) => ({ ...c })),
    metrics: o.registry.toJSON(),
    series: { widthMs: o.series.widthMs, buckets: o.series.toJSON() },
    ...(cap ? { capacity: cap } : {}),
    ...(o.search ? { search: o.search } : {}),
    errors: o.errors.map(scrub),
  };
}

/** What a single instance's run gives its results, whatever kind of run it was. */
const ofOneInstance = (out: RunOutcome, meta: RunMeta) => ({
  meta,
  engines: [out.engine],
  instances: 1,
  registry: out.registry,
  series: out.series,
  checks: out.checks,
  options: out.options,
  startedAt: out.startedAt,
  durationMs: out.durationMs,
  exitCode: out.exitCode,
  ...(out.aborted !== undefined ? { aborted: out.aborted } : {}),
  errors: out.errors,
});

export function resultsOfRun(out: RunOutcome, meta: RunMeta): Results {
  fillOffered(out.series, out.scenarios, out.durationMs, (s) => out.parts[s.name]?.rateShare ?? 1);
  return buildResults({ ...ofOneInstance(out, meta), thresholds: out.thresholds, scenarios: out.scenarios });
}

/** A capacity search: the offered rate is each step's, where the step ran; the figure is the search's. */
export function resultsOfSearch(out: RunOutcome, search: Search, meta: RunMeta): Results {
  const w = out.series.widthMs;
  for (const st of search.steps) {
    for (let i = Math.floor(st.atMs / w); i < Math.ceil((st.atMs + st.seconds * 1000) / w); i++)
      out.series.offered(i, st.rate);
  }
  return buildResults({ ...ofOneInstance(out, meta), thresholds: [], scenarios: [], search });
}

/** Merge several instances: counters summed, histograms merged, thresholds re-judged on the sums. */
export function mergeResults(parts: readonly Results[], p95BudgetMs: number): Results {
  const first = parts[0];
  if (!first) throw new Error('nothing to merge');
  for (const p of parts)
    if (p.scenario !== first.scenario) throw new Error(`cannot merge scenario ${p.scenario} into ${first.scenario}`);
  const registry = new Registry();
  registry.declareBuiltins();
  const series = new TimeSeries(0, Math.max(...parts.map((p) => p.series.widthMs)));
  for (const p of parts) {
    registry.mergeJSON(p.metrics);
    series.merge(TimeSeries.fromJSON(p.series.buckets, p.series.widthMs));
  }
  const durationMs = Math.max(...parts.map((p) => p.durationMs));
  const parsed = parseThresholds(first.options.thresholds);
  const thresholds = 'specs' in parsed ? evaluate(parsed.specs, registry, durationMs) : [];
  const failed = thresholds.some((t) => !t.ok);
  const worst = Math.max(...parts.map((p) => (p.exitCode === 99 ? 0 : p.exitCode)));
  return buildResults({
    meta: { scenario: first.scenario, clauses: first.clauses, target: first.target, p95BudgetMs },
    engines: [...new Set(parts.flatMap((p) => p.engines))],
    instances: parts.reduce((a, p) => a + p.instances, 0),
    registry,
    series,
    checks: sumChecks(parts.map((p) => p.checks)),
    thresholds,
    options: first.options,
    scenarios: first.options.scenarios as unknown as Scenario[],
    startedAt: Math.min(...parts.map((p) => Date.parse(p.startedAt))),
    durationMs,
    exitCode: failed ? 99 : worst,
    errors: parts.flatMap((p) => p.errors),
  });
}

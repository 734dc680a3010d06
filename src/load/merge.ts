/**
 * `conformance load merge FILE...`: results.json files of several instances, or k6's
 * `--out json` sample files of k6-operator pods (then `--scenario` names the script whose
 * thresholds judge them), combined into one report: counters summed, histograms merged,
 * percentiles recomputed, thresholds re-judged on the totals.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { bundleScenario, LOAD_DIR } from './bundle.js';
import { scenarioInfo } from './scenarios.js';
import { readOptions } from './engine/inspect.js';
import { normaliseScenarios } from './engine/options.js';
import { evaluate, parseThresholds } from './metrics/thresholds.js';
import { ingestNdjson } from './k6/ndjson.js';
import { buildResults, fillOffered, mergeResults } from './report/results.js';
import { parseResults, type Results } from './report/schema.js';

async function isNdjson(file: string): Promise<boolean> {
  const rl = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      if (!line.trim()) continue;
      try { const j = JSON.parse(line) as { type?: unknown }; return j.type === 'Metric' || j.type === 'Point'; } catch { return false; }
    }
    return false;
  } finally {
    rl.close();
  }
}

async function fromSamples(file: string, scenario: string, p95BudgetMs: number, share: number): Promise<Results> {
  const bundle = await bundleScenario(scenario);
  const ready = await readOptions(bundle.code, {}, LOAD_DIR);
  const options = JSON.parse(ready.options) as Record<string, unknown>;
  const parsed = parseThresholds(options.thresholds);
  const specs = 'specs' in parsed ? parsed.specs : [];
  const got = await ingestNdjson(file, specs);
  const durationMs = Number.isFinite(got.firstMs) ? got.lastMs - got.firstMs : 0;
  const scenarios = normaliseScenarios(options);
  fillOffered(got.series, scenarios, durationMs, share);
  const thresholds = evaluate(specs, got.registry, durationMs);
  return buildResults({
    meta: { scenario, clauses: scenarioInfo(scenario)?.clauses ?? [], target: { url: 'unknown', edition: 'unknown', api_version: 'unknown' }, p95BudgetMs },
    engines: ['k6'], instances: 1, registry: got.registry, series: got.series, checks: got.checks, thresholds, options, scenarios,
    startedAt: Number.isFinite(got.firstMs) ? got.firstMs : Date.now(), durationMs, exitCode: thresholds.some((t) => !t.ok) ? 99 : 0,
    errors: got.badLines ? [`${file}: ${got.badLines} unreadable lines`] : [],
  });
}

export async function mergeFiles(files: readonly string[], o: { scenario?: string; p95BudgetMs: number }): Promise<Results> {
  if (files.length === 0) throw new Error('merge: name at least one results.json or k6 JSON output file');
  const parts: Results[] = [];
  const nd = await Promise.all(files.map(isNdjson));
  // k6-operator splits one schedule into equal execution segments: each pod offered its share.
  const share = 1 / Math.max(1, nd.filter(Boolean).length);
  for (const [i, f] of files.entries()) {
    if (nd[i]) {
      if (!o.scenario) throw new Error(`${f} is k6 JSON output: give --scenario to know its thresholds`);
      parts.push(await fromSamples(f, o.scenario, o.p95BudgetMs, share));
    } else {
      let raw: unknown;
      try { raw = JSON.parse(readFileSync(f, 'utf8')); } catch (e) { throw new Error(`${f}: ${(e as Error).message}`); }
      parts.push(parseResults(raw, f));
    }
  }
  return mergeResults(parts, o.p95BudgetMs);
}

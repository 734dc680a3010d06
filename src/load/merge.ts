/**
 * `conformance load merge FILE...`: results.json files of several instances, or k6's
 * `--out json` sample files of split-run instances (stock k6, k6-operator pods, the built-in
 * runner) — then `--scenario` names the script whose thresholds judge them, and its options
 * are evaluated with the target and __ENV the instances had — combined into one report:
 * counters summed, histograms merged, percentiles recomputed, thresholds re-judged on the totals.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { bundleScenario, LOAD_DIR } from './bundle.js';
import { targetForOptions } from './target.js';
import { scenarioInfo } from './scenarios.js';
import { readOptions } from './engine/inspect.js';
import { normaliseScenarios } from './engine/options.js';
import { evaluate, parseThresholds } from './metrics/thresholds.js';
import { ingestNdjson } from './k6/ndjson.js';
import { buildResults, fillOffered, mergeResults } from './report/results.js';
import { parseResults, type Results } from './report/schema.js';
import type { DeclaredMetric } from './runtime/protocol.js';

async function isNdjson(file: string): Promise<boolean> {
  const rl = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      if (!line.trim()) continue;
      try {
        const j = JSON.parse(line) as { type?: unknown };
        return j.type === 'Metric' || j.type === 'Point';
      } catch {
        return false;
      }
    }
    return false;
  } finally {
    rl.close();
  }
}

interface SampleContext {
  scenario: string;
  env: Record<string, string>;
  p95BudgetMs: number;
}

/**
 * A k6 JSON sample file as one instance's results. Its thresholds come from the scenario's
 * options, evaluated as the instances evaluated them: with the same target (shape) and __ENV.
 */
async function fromSamples(
  file: string,
  c: SampleContext,
  options: Record<string, unknown>,
  declared: readonly DeclaredMetric[],
  share: number,
): Promise<Results> {
  const parsed = parseThresholds(options.thresholds);
  const specs = 'specs' in parsed ? parsed.specs : [];
  const got = await ingestNdjson(file, specs, declared);
  const durationMs = Number.isFinite(got.firstMs) ? got.lastMs - got.firstMs : 0;
  const scenarios = normaliseScenarios(options);
  fillOffered(got.series, scenarios, durationMs, share);
  const thresholds = evaluate(specs, got.registry, durationMs);
  return buildResults({
    meta: {
      scenario: c.scenario,
      clauses: scenarioInfo(c.scenario)?.clauses ?? [],
      target: targetMeta(c.env),
      p95BudgetMs: c.p95BudgetMs,
    },
    engines: ['k6'],
    instances: 1,
    registry: got.registry,
    series: got.series,
    checks: got.checks,
    thresholds,
    options,
    scenarios,
    startedAt: Number.isFinite(got.firstMs) ? got.firstMs : Date.now(),
    durationMs,
    exitCode: thresholds.some((t) => !t.ok) ? 99 : 0,
    errors: got.badLines ? [`${file}: ${got.badLines} unreadable lines`] : [],
  });
}

/** The target's public part for the report (never a secret). */
function targetMeta(env: Record<string, string>): { url: string; edition: string; api_version: string } {
  try {
    const t = JSON.parse(env.TARGET ?? '{}') as { url?: string; edition?: string; api_version?: string };
    return { url: t.url ?? 'unknown', edition: t.edition ?? 'unknown', api_version: t.api_version ?? 'unknown' };
  } catch {
    return { url: 'unknown', edition: 'unknown', api_version: 'unknown' };
  }
}

interface MergeOptions {
  p95BudgetMs: number;
  /** Scenario of k6 JSON input, and the target and __ENV its instances ran with. */
  scenario?: string;
  target?: string;
  targetFile?: string;
  env?: Record<string, string>;
}

export async function mergeFiles(files: readonly string[], o: MergeOptions): Promise<Results> {
  if (files.length === 0) throw new Error('merge: name at least one results.json or k6 JSON output file');
  const parts: Results[] = [];
  const nd = await Promise.all(files.map(isNdjson));
  let sampled: { c: SampleContext; options: Record<string, unknown>; declared: readonly DeclaredMetric[] } | undefined;
  if (nd.some(Boolean)) {
    const first = files[nd.indexOf(true)]!;
    if (!o.scenario) throw new Error(`${first} is k6 JSON output: give --scenario to know its thresholds`);
    if (!o.target && !o.targetFile)
      throw new Error(
        `${first} is k6 JSON output: give the --target-file (secrets may be left out) or --target the instances ran with; ${o.scenario}'s options depend on it`,
      );
    const env = {
      ...targetForOptions({ ...(o.target ? { url: o.target } : {}), ...(o.targetFile ? { file: o.targetFile } : {}) }),
      P95_BUDGET_MS: String(o.p95BudgetMs),
      ...(o.env ?? {}),
    };
    const ready = await readOptions((await bundleScenario(o.scenario)).code, env, LOAD_DIR);
    sampled = {
      c: { scenario: o.scenario, env, p95BudgetMs: o.p95BudgetMs },
      options: JSON.parse(ready.options) as Record<string, unknown>,
      declared: ready.metrics,
    };
  }
  // k6 JSON does not say which segment a file ran: together the files offered the whole schedule once.
  const share = 1 / Math.max(1, nd.filter(Boolean).length);
  for (const [i, f] of files.entries()) {
    if (nd[i]) parts.push(await fromSamples(f, sampled!.c, sampled!.options, sampled!.declared, share));
    else {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(f, 'utf8'));
      } catch (e) {
        throw new Error(`${f}: ${(e as Error).message}`);
      }
      parts.push(parseResults(raw, f));
    }
  }
  return mergeResults(parts, o.p95BudgetMs);
}

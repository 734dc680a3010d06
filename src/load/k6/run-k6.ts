/**
 * Runs stock k6 on the emitted bundle: the target reaches the script through the process
 * environment (k6 copies it into __ENV; never on the command line, where `ps` would show a
 * token), samples go to `--out json`, and the run's reports are built from those samples.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { evaluate, parseThresholds } from '../metrics/thresholds.js';
import { normaliseScenarios } from '../engine/options.js';
import type { RunOutcome } from '../engine/run.js';
import { Registry } from '../metrics/registry.js';
import { TimeSeries } from '../metrics/timeseries.js';
import { ingestNdjson } from './ndjson.js';
import type { DeclaredMetric } from '../runtime/protocol.js';
import { executionTuple, segmentString } from '../engine/segment.js';
import { partOf } from '../engine/plan.js';
import { writeCaBundle } from '../../client/tls.js';

/** `k6` on PATH, or undefined. */
export function findK6(pathEnv = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    const f = join(dir, 'k6');
    try {
      accessSync(f, constants.X_OK);
      return f;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export interface K6Input {
  k6: string;
  bundleCode: string;
  options: Record<string, unknown>;
  /** The script's own metrics (from its init context), so those that got no sample still exist. */
  declared?: readonly DeclaredMetric[];
  env: Record<string, string>;
  sourceIps?: readonly string[];
  /** This instance's part of a split run, passed to k6 as its own flags. */
  segment?: string;
  segmentSequence?: string;
  /** Keep k6's samples in this file (`--out json=FILE`) instead of a temporary one. */
  outJson?: string;
  noThresholds?: boolean;
  /** --insecure-skip-tls-verify. */
  insecure?: boolean;
  /** A CA file to trust besides the system roots: k6 (Go) reads one bundle, SSL_CERT_FILE, made of both. */
  caFile?: string;
  log?: (line: string) => void;
}

export async function runK6(input: K6Input): Promise<RunOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-k6-'));
  const script = join(dir, 'script.js');
  const samples = input.outJson ?? join(dir, 'samples.json');
  writeFileSync(script, input.bundleCode);
  const args = ['run', '--quiet', '--no-usage-report', '--out', `json=${samples}`];
  if (input.sourceIps?.length) args.push('--local-ips', input.sourceIps.join(','));
  if (input.segment) args.push('--execution-segment', input.segment);
  if (input.segmentSequence) args.push('--execution-segment-sequence', input.segmentSequence);
  if (input.noThresholds) args.push('--no-thresholds');
  if (input.insecure) args.push('--insecure-skip-tls-verify');
  args.push(script);
  const log = input.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const bundle = writeCaBundle(
    { insecure: input.insecure === true, ...(input.caFile ? { caFile: input.caFile } : {}) },
    join(dir, 'ca-bundle.pem'),
  );
  const started = Date.now();
  const exitCode = await new Promise<number>((resolve) => {
    const child = spawn(input.k6, args, {
      env: { ...process.env, ...input.env, ...(bundle ? { SSL_CERT_FILE: bundle } : {}) },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    child.stderr.on('data', (b: Buffer) => log(b.toString().trimEnd()));
    child.on('error', (e) => {
      log(`k6 could not start: ${e.message}`);
      resolve(2);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 2 : 0)));
  });
  const durationMs = Date.now() - started;
  const parsed = parseThresholds(input.options.thresholds);
  const specs = 'specs' in parsed && !input.noThresholds ? parsed.specs : [];
  // No file is k6 having written nothing; any other failure to read it is said as it is.
  const got = await ingestNdjson(samples, specs, input.declared ?? []).catch((e: NodeJS.ErrnoException) =>
    e.code === 'ENOENT' ? 'k6 wrote no samples' : `k6's JSON output (${samples}) could not be read: ${e.message}`,
  );
  rmSync(dir, { recursive: true, force: true });
  const errors: string[] =
    typeof got === 'string' ? [got] : got.badLines ? [`${got.badLines} unreadable lines in k6's JSON output`] : [];
  const read = typeof got === 'string' ? undefined : got;
  const registry = read?.registry;
  const runMs = read && Number.isFinite(read.firstMs) ? read.lastMs - read.firstMs : durationMs;
  const thresholds = registry ? evaluate(specs, registry, runMs) : [];
  let scenarios: RunOutcome['scenarios'] = [];
  try {
    scenarios = normaliseScenarios(input.options);
  } catch {
    /* k6 judged the options itself */
  }
  // k6 divides a split run as the built-in runner does (plan.ts): the same parts describe it.
  const tuple = executionTuple(input.segment, input.segmentSequence);
  return {
    engine: 'k6',
    registry: registry ?? new Registry(),
    series: read?.series ?? new TimeSeries(started),
    checks: read?.checks ?? [],
    thresholds,
    scenarios,
    options: input.options,
    startedAt: read && Number.isFinite(read.firstMs) ? read.firstMs : started,
    durationMs: runMs,
    exitCode,
    errors,
    summaryOutputs: {},
    segment: segmentString(tuple.segment),
    parts: Object.fromEntries(scenarios.map((sc) => [sc.name, partOf(sc, tuple)])),
  };
}

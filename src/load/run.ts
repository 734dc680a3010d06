/**
 * `conformance load`: bundle the scenario, resolve the target (or start the reference server),
 * run it on stock k6 when available and wanted, else on the built-in runner, and write
 * results.json, JUnit and the HTML report. The report names the engine that ran.
 */
import { writeFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { bundleScenario, LOAD_DIR, type Bundle } from './bundle.js';
import { scenarioInfo } from './scenarios.js';
import { resolveTarget, targetEnv } from './target.js';
import { runBuiltin, type RunOutcome } from './engine/run.js';
import { readOptions } from './engine/inspect.js';
import { findK6, runK6 } from './k6/run-k6.js';
import { resultsOfRun, resultsOfSearch, scrub } from './report/results.js';
import { findCapacity } from './capacity/find.js';
import type { SearchBounds } from './capacity/search.js';
import type { Slo } from './capacity/judge.js';
import { writeReports, type Written } from './report/write.js';
import type { Results } from './report/schema.js';
import { LIMIT_SETTINGS } from '../spec/limits.js';
import { parseSourceAddresses } from '../common/net.js';
import { announce, needsConfirmation } from './announce.js';
import { executionTuple } from './engine/segment.js';
import { tlsConnectOptions, trustWords, type TlsTrust } from '../client/tls.js';

export { ScriptRefused } from './runtime/transform/awaitable.js';

type EngineChoice = 'auto' | 'k6' | 'builtin';

interface LoadRunOptions {
  scenario: string;
  /** A bundle to run instead of the named scenario's (tests, custom scripts). */
  bundle?: Bundle;
  clauses?: readonly string[];
  target?: string;
  targetFile?: string;
  engine?: EngineChoice;
  k6?: string;
  reportDir: string;
  p95BudgetMs?: number;
  sourceIps?: string;
  env?: Record<string, string>;
  /** The self-started reference server: window (s) and extra environment (limit overrides). */
  rateWindowSeconds?: number;
  serverEnv?: Record<string, string>;
  /** Run against a target that is not loopback even when the scenario exhausts rate limits (--yes). */
  yes?: boolean;
  /** Verify no certificate (k6's --insecure-skip-tls-verify), for self-signed test hosts. */
  insecure?: boolean;
  /** A CA to trust besides the system roots (--ca-file); else the descriptor's `ca_file`. */
  caFile?: string;
  /** This instance's part of a split run (k6's --execution-segment / --execution-segment-sequence). */
  segment?: string;
  segmentSequence?: string;
  /** k6's --out json=FILE and --no-thresholds, as an instance of a split run writes them for `load merge`. */
  outJson?: string;
  noThresholds?: boolean;
  /** Name overrides for the built-in runner (k6's `hosts`); with hostsOnly no other name resolves. */
  hosts?: Record<string, string>;
  hostsOnly?: boolean;
  log?: (line: string) => void;
  /** `--find-capacity`: search the highest arrival rate held within the SLO, in bounded steps, instead of running the schedule. */
  find?: { slo: Slo; bounds: SearchBounds };
}

export interface LoadRunResult {
  results: Results;
  written: Written;
  exitCode: number;
  engine: 'k6' | 'builtin';
}

/** The limits a self-started server takes from its environment (§8.4), told to the script the same way. */
function embeddedLimits(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of LIMIT_SETTINGS) {
    const v = env[s.env];
    if (v && Number(v) > 0 && (s.rateClass === 'gateway' || s.rateClass === 'account'))
      out[s.rateClass === 'gateway' ? 'LIMIT_GATEWAY' : 'LIMIT_ACCOUNT'] = v;
  }
  return out;
}

export async function runLoad(o: LoadRunOptions): Promise<LoadRunResult> {
  const log = o.log ?? ((l: string) => process.stderr.write(`${scrub(l)}\n`));
  const info = scenarioInfo(o.scenario);
  const bundle = o.bundle ?? (await bundleScenario(o.scenario));
  const sourceIps = parseSourceAddresses(o.sourceIps);
  const tuple = executionTuple(o.segment, o.segmentSequence);
  if (o.find && tuple.split) throw new Error(SPLIT_SEARCH);
  const k6 = o.engine === 'builtin' ? undefined : (o.k6 ?? findK6());
  if (o.engine === 'k6' && !k6) throw new Error('--engine k6: no k6 on PATH; give --k6 PATH');
  const target = await resolveTarget({
    ...(o.target ? { url: o.target } : {}),
    ...(o.targetFile ? { file: o.targetFile } : {}),
    windowSeconds: o.rateWindowSeconds ?? 5,
    unlimited: info?.unlimited ?? false,
    ...(o.serverEnv ? { serverEnv: o.serverEnv } : {}),
  });
  try {
    const env: Record<string, string> = {
      ...targetEnv(target.descriptor),
      ...(target.embedded ? embeddedLimits({ ...process.env, ...(o.serverEnv ?? {}) }) : {}),
      ...(sourceIps.length ? { SOURCE_IPS: sourceIps.join(',') } : {}),
      P95_BUDGET_MS: String(o.p95BudgetMs ?? 500),
      ...(o.env ?? {}),
    };
    // Say what will be sent where before anything is; refuse to exhaust a remote host unconfirmed.
    const ready = await readOptions(bundle.code, env, LOAD_DIR);
    const options = JSON.parse(ready.options) as Record<string, unknown>;
    const engine = k6 ? 'k6' : 'built-in';
    // One trust for both engines: the built-in one gets the CAs, k6 a bundle of them (SSL_CERT_FILE).
    const caFile = o.caFile ?? target.descriptor.ca_file;
    const trust: TlsTrust = {
      insecure: o.insecure === true || options.insecureSkipTLSVerify === true,
      ...(caFile ? { caFile } : {}),
    };
    const { ca } = tlsConnectOptions(trust);
    const tls = target.descriptor.url.startsWith('https:') ? trustWords(trust) : undefined;
    /** What the results say of the run: the scenario, its clauses, the target (and how its TLS was checked). */
    const meta = (p95BudgetMs: number) => ({
      scenario: bundle.name,
      clauses: o.clauses ?? info?.clauses ?? [],
      target: {
        url: target.descriptor.url,
        edition: target.descriptor.edition,
        api_version: target.descriptor.api_version,
        ...(tls ? { tls } : {}),
      },
      p95BudgetMs,
    });
    try {
      const a = announce({
        scenario: bundle.name,
        info,
        url: target.descriptor.url,
        edition: target.descriptor.edition,
        engine,
        options,
        env,
        tuple,
        ...(tls ? { tls } : {}),
      });
      // A search's rate and duration are its own (announced below), not the scenario's schedule.
      for (const l of o.find ? a.lines.slice(0, 2) : a.lines) log(`conformance load: ${l}`);
      const refusal = needsConfirmation(info, a, o.yes === true);
      if (refusal) throw new ConfirmationNeeded(refusal);
    } catch (e) {
      if (e instanceof ConfirmationNeeded) throw e;
      log(`conformance load: the options do not describe a run (${(e as Error).message}); the engine will say more`);
    }
    if (o.find) {
      const { slo, bounds } = o.find;
      log(
        `conformance load: capacity search: from ${bounds.startRate} it/s, doubling then bisecting to ${bounds.precisionPct} %, never above ${bounds.maxRate} it/s, steps of ${bounds.stepSeconds} s, at most ${bounds.maxDurationMs / 1000} s and ${bounds.maxSteps} steps; SLO p95 ≤ ${slo.p95Ms} ms, failed requests ≤ ${slo.errorPct} %`,
      );
      const f = await findCapacity({
        ...(k6 ? { k6 } : {}),
        bundleCode: bundle.code,
        scriptDir: LOAD_DIR,
        options,
        declared: ready.metrics,
        env,
        sourceIps,
        log,
        slo,
        bounds,
        ...(o.insecure ? { insecure: true } : {}),
        ...(o.hosts ? { hosts: o.hosts } : {}),
        ...(o.hostsOnly ? { hostsOnly: true } : {}),
      });
      const results = resultsOfSearch(f.out, f.search, meta(slo.p95Ms));
      return { results, written: writeReports(o.reportDir, results), exitCode: f.out.exitCode, engine: f.out.engine };
    }
    const split = {
      ...(o.segment ? { segment: o.segment } : {}),
      ...(o.segmentSequence ? { segmentSequence: o.segmentSequence } : {}),
      ...(o.outJson ? { outJson: o.outJson } : {}),
      ...(o.noThresholds ? { noThresholds: true } : {}),
    };
    let out: RunOutcome;
    if (k6) {
      out = await runK6({
        k6,
        bundleCode: bundle.code,
        options,
        declared: ready.metrics,
        env,
        sourceIps,
        log,
        ...split,
        ...(o.insecure ? { insecure: true } : {}),
        ...(trust.caFile ? { caFile: trust.caFile } : {}),
      });
    } else {
      out = await runBuiltin({
        bundleCode: bundle.code,
        scriptDir: LOAD_DIR,
        env,
        sourceIps,
        log,
        ...split,
        ...(o.insecure ? { insecureSkipTLSVerify: true } : {}),
        ...(ca ? { ca } : {}),
        ...(o.hosts ? { hosts: o.hosts } : {}),
        ...(o.hostsOnly ? { hostsOnly: true } : {}),
      });
      if (out.vuThreads) log(`conformance load: the VUs shared ${out.vuThreads} thread(s)`);
    }
    for (const [k, v] of Object.entries(out.summaryOutputs)) {
      if (k === 'stdout') process.stdout.write(scrub(v));
      else if (k === 'stderr') process.stderr.write(scrub(v));
      else writeFileSync(resolvePath(k), scrub(v));
    }
    const results = resultsOfRun(out, meta(o.p95BudgetMs ?? 500));
    const written = writeReports(o.reportDir, results);
    return { results, written, exitCode: out.exitCode, engine: out.engine };
  } finally {
    await target.close();
  }
}

/** Why a split run does not search: told to a user who asks for both. */
export const SPLIT_SEARCH =
  '--find-capacity cannot run as one instance of a split run (--execution-segment): each instance would pick its next rate from its own share and the instances would not step together. ' +
  'Search distributed capacity in two parts: run the fixed staircase of the capacity scenario (PEAK_RATE, STEPS, HOLD_SECONDS) on every instance with --no-thresholds --out json=FILE, ' +
  'then `conformance load merge` adds the instances second by second and reports the knee (the highest rate held, and why the next was not). See load/README.md, "Finding capacity".';

/** The run was refused before anything was sent: a usage error, not a harness failure. */
export class ConfirmationNeeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfirmationNeeded';
  }
}

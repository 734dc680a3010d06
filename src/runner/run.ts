/**
 * `conformance run`: check the options (usage errors before anything starts), resolve the
 * target, create the run's fixtures, run the functional families and then the rate family,
 * merge the reports, and let `finish` apply the baseline and decide the exit code. The
 * run's tables are removed at the end, also when it fails or is interrupted (SIGINT/SIGTERM).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { closeAgents } from '../client/http.js';
import { redactText, registerSecret } from '../client/redact.js';
import { setTrust, trustWords } from '../client/tls.js';
import { FailFastScopes, RunState } from '../harness/state.js';
import { readJsonFile } from '../common/json-file.js';
import { SWEEP_TAG, tagCalls, tagging, Target } from '../harness/target.js';
import type { StateWarning } from '../harness/outcome.js';
import {
  CLAUSES,
  configuredRateLimits,
  descriptorSecrets,
  matchClauses,
  NEWEST_VERSION,
  RATE_LIMITS,
  type Edition,
} from '../spec/index.js';
import { readBaseline } from './baseline.js';
import { preflightTarget } from '../harness/preflight.js';
import { replayOptions } from './replay-options.js';
import { finish, type PhaseEnd, type RunInfo, type RunOutcome, type Timings } from './finish.js';
import { createFixtures, newRunId, sweepTables } from './fixtures.js';
import { type RunOptions } from './options.js';
import { DEFAULT_SOURCE_ADDRESSES, isLoopbackUrl, parseSourceAddresses } from '../common/net.js';
import { BOTH_PHASES } from '../common/harness-env.js';
import { grepFor, interruptPhase, mergeReports, phasesFor, runPhase, type Phase } from './phases.js';
import { splitForRate } from './rate-alongside.js';
import { SecretsFile } from './redact-stream.js';
import { checkTargetOptions, resolveTarget, trustOf, type ResolvedTarget, type RunHooks } from './target.js';

const log = (s: string) => process.stderr.write(`${s}\n`);
const isHttps = (url: string) => url.startsWith('https:');

/** Remove the run's own tables; what could not be removed is said (terminal, and a warning in the reports). */
async function sweepRun(target: Target): Promise<StateWarning[]> {
  const prefix = target.state.tablePrefix;
  if (tagging()) tagCalls(SWEEP_TAG);
  const { removed, problems } = await sweepTables(target, (name) => name.startsWith(prefix)).finally(() =>
    tagCalls(undefined),
  );
  if (removed.length) log(`conformance: removed ${removed.length} table(s) of this run`);
  for (const p of problems)
    log(`conformance: could not remove this run's tables: ${redactText(p)} (\`conformance clean\` removes them later)`);
  return problems.map((p) => ({
    check: 'end-of-run sweep',
    what: `${redactText(p)}; \`conformance clean\` removes such tables`,
    accountChanged: false,
  }));
}

/** The state a phase's workers read: a private file (it holds secrets). */
function writeState(file: string, state: RunState): string {
  writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function defaultReportDir(now = new Date()): string {
  return join('reports', now.toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19));
}

/** Everything that makes a run impossible, found before it starts: a usage error (message) or undefined. */
export function preflight(o: RunOptions): string | undefined {
  try {
    if (o.baseline) readBaseline(o.baseline);
    grepFor(o.clauses, o.grep);
    checkTargetOptions(o);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The clauses a run was asked to judge: those `--clauses` names, or all of them unless only `--grep` picks checks. */
function selectedClauses(o: Pick<RunOptions, 'clauses' | 'grep'>): string[] {
  if (o.clauses) return matchClauses(o.clauses);
  return o.grep ? [] : CLAUSES.map((c) => c.id);
}

/** The limits the rate clauses hold the target to: what it was configured with (descriptor or limits file), else its edition's. */
function heldLimits(edition: Edition, configured: ResolvedTarget['configuredLimits']): RunState['limits'] {
  const defaults = { ...RATE_LIMITS[edition] };
  if (!configured) return { source: `the ${edition} edition's defaults (§8.1)`, values: defaults };
  return { source: configured.source, values: { ...defaults, ...configuredRateLimits(configured.file) } };
}

function stateFor(o: RunOptions, resolved: ResolvedTarget, ids: { runId: string; tablePrefix: string }): RunState {
  const d = resolved.descriptor;
  const [host, port] = o.webhookListen.split(':');
  const edition = o.edition ?? d.edition;
  return RunState.parse({
    ...ids,
    target: d,
    seed: o.seed,
    edition,
    limits: heldLimits(edition, resolved.configuredLimits),
    apiVersion: o.apiVersion ?? d.api_version ?? NEWEST_VERSION,
    http: {
      connectMs: 5_000,
      headersMs: o.requestTimeout * 1000,
      bodyMs: o.requestTimeout * 2000,
      maxBodyBytes: Math.round(o.maxBodyMb * 1024 * 1024),
    },
    tls: trustOf(o, d),
    sourceIps: parseSourceAddresses(o.sourceIps ?? (isLoopbackUrl(d.url) ? DEFAULT_SOURCE_ADDRESSES : 'none')),
    webhook: {
      listenHost: host,
      listenPort: Number(port),
      publicUrl: o.webhookUrl,
      waitMs: Math.round(o.webhookWait * 1000),
    },
    limitsConfig: resolved.limitsConfig,
    allowPlanChanges: o.allowPlanChanges ?? resolved.embedded,
    transcripts: o.transcripts,
    strict: o.strict,
    failFastScopes: o.failFastScopes ? readJsonFile(o.failFastScopes, FailFastScopes, '--fail-fast-scopes') : undefined,
    // Playwright's own terminal reporters read its statuses: there a kept worker's check would show as passed.
    keepWorkers: o.reporter === 'progress' || !!o.failFastScopes,
  });
}

/** What results.json says of the run: the target, what it was held to, and what `replay` needs to run its checks again. */
function runInfo(o: RunOptions, state: RunState, id: string, embedded: boolean, startedAt: Date): RunInfo {
  return {
    id,
    target: state.target.url,
    edition: state.edition,
    apiVersion: state.apiVersion,
    embedded,
    strict: o.strict,
    startedAt: startedAt.toISOString(),
    selected: selectedClauses(o),
    limits: state.limits,
    options: replayOptions(o),
    ...(isHttps(state.target.url) ? { tls: trustWords(state.tls) } : {}),
  };
}

export async function run(o: RunOptions, hooks: RunHooks = {}): Promise<RunOutcome> {
  const startedAt = new Date();
  const timings: Timings = [];
  let lapStart = Date.now();
  const lap = (name: string) => {
    timings.push([name, Date.now() - lapStart]);
    lapStart = Date.now();
  };
  const reportDir = resolve(o.reportDir ?? defaultReportDir(startedAt));
  const workDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  const secrets = new SecretsFile(join(workDir, 'secrets'));
  writeFileSync(secrets.path, '', { mode: 0o600 });
  let resolved: ResolvedTarget | undefined;
  let target: Target | undefined;
  let interrupted = false;
  let swept = false;
  const onSignal = (signal: string) => {
    if (interrupted) {
      log(`conformance: ${signal} again — still removing this run's tables`);
      return;
    }
    interrupted = true;
    interruptPhase();
    log(`conformance: ${signal} — stopping the checks, then cleaning up`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    mkdirSync(reportDir, { recursive: true });
    resolved = await resolveTarget(o, hooks);
    const d = resolved.descriptor;
    for (const s of [
      ...descriptorSecrets(d),
      ...(resolved.limitsConfig ? descriptorSecrets(resolved.limitsConfig.target) : []),
    ])
      registerSecret(s);
    const ids = newRunId(startedAt);
    const state = stateFor(o, resolved, ids);
    setTrust(state.tls);
    const tls = isHttps(d.url) ? trustWords(state.tls) : undefined;
    // The embedded server is the run's own (and the selftest's mutants live there): only a given target is preflighted.
    if (!resolved.embedded) {
      const pre = await preflightTarget(d);
      lap('preflight');
      if (!pre.ok) {
        const info: RunInfo = { ...runInfo(o, state, ids.runId, false, startedAt), selected: [] };
        return finish({ o, reportDir, workDir, info, interrupted: false, timings, phases: [], preflight: pre.what });
      }
    }
    target = new Target(state);
    log(
      `conformance: run ${ids.runId} against ${d.url}${resolved.embedded ? ' (embedded reference server)' : ''}, held to ${state.apiVersion} ${state.edition}${tls ? `, ${tls}` : ''}`,
    );
    try {
      if (!interrupted) state.fixtures = await createFixtures(target, ids.tablePrefix);
      const refused = Object.keys(state.fixtures?.refused ?? {});
      if (refused.length)
        log(
          `conformance: the target refused ${refused.length} column type(s) of the fixture table: ${refused.join(', ')} — only their checks are affected`,
        );
    } catch (e) {
      state.fixturesProblem = redactText((e as Error).message);
      log(
        `conformance: could not create the fixture tables: ${state.fixturesProblem} — checks that need them will end as errors`,
      );
    }
    const phases = phasesFor(o.clauses);
    const split = o.rateAlongside && phases.length === 2 ? splitForRate(state) : undefined;
    const stateFiles = {
      functional: writeState(join(workDir, 'state.json'), split?.functional ?? state),
      rate: split ? writeState(join(workDir, 'state-rate.json'), split.rate) : join(workDir, 'state.json'),
    };
    lap('setup');
    const grep = grepFor(o.clauses, o.grep);
    const phaseEnv = (phase: Phase) => ({
      stateFile: stateFiles[phase],
      secrets,
      workDir,
      workers: o.workers,
      testTimeoutMs: o.testTimeout * 1000,
      reporter: o.reporter,
    });
    const ended: PhaseEnd[] = [];
    if (split && !interrupted) {
      log(
        `conformance: the rate family runs beside the others, in bases of its own (${split.rate.target.bases.map((b) => b.name).join(', ')})`,
      );
      const t0 = Date.now();
      // One Playwright process for both: a worker of its own for the rate family beside the others' workers.
      const end = await runPhase('both', grep, {
        ...phaseEnv('functional'),
        rate: { stateFile: stateFiles.rate, othersDoneFile: join(workDir, 'functional-done') },
      });
      ended.push({ phase: BOTH_PHASES, projects: phases, ...end });
      lap(BOTH_PHASES);
      log(`conformance: side by side, both phases took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } else {
      for (const phase of phases) {
        if (interrupted) break;
        ended.push({ phase, ...(await runPhase(phase, grep, phaseEnv(phase))) });
        lap(phase);
      }
    }
    const info = runInfo(o, state, ids.runId, resolved.embedded, startedAt);
    const mergeError = await mergeReports(workDir, reportDir, info, secrets, o.html);
    const left = await sweepRun(target);
    swept = true;
    lap('reports');
    return finish({
      o,
      reportDir,
      workDir,
      info,
      interrupted,
      timings,
      phases: ended,
      warnings: left,
      ...(mergeError ? { mergeError } : {}),
    });
  } finally {
    if (target && !swept) await sweepRun(target);
    await closeAgents();
    for (const s of resolved?.servers ?? []) await s.close().catch(() => undefined);
    for (const dir of [workDir, ...(resolved?.tempDirs ?? [])]) rmSync(dir, { recursive: true, force: true });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

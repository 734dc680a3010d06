/**
 * `conformance run`: resolve the target, create the run's fixtures, run the functional
 * families and then the rate family, merge the reports, apply the baseline, and decide the
 * exit code (0 nothing failed, 1 a check failed, 2 harness error or undecided checks).
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { closeAgents } from '../client/http.js';
import { redactText, registerSecret } from '../client/redact.js';
import { RunState } from '../harness/state.js';
import { Target } from '../harness/target.js';
import { clausesMarkdown } from '../reports/clauses-md.js';
import { Results } from '../reports/results-schema.js';
import { descriptorSecrets, NEWEST_VERSION } from '../spec/index.js';
import { applyBaseline, readBaseline } from './baseline.js';
import { createFixtures, newRunId, sweepTables } from './fixtures.js';
import { parseSourceIps, type RunOptions } from './options.js';
import { grepFor, interruptPhase, mergeReports, runPhase } from './phases.js';
import { scrubSecrets } from './scrub.js';
import { resolveTarget, type ResolvedTarget } from './target.js';

export interface RunOutcome { exitCode: number; reportDir: string; results?: Results }

const log = (s: string) => process.stderr.write(`${s}\n`);
const isLoopback = (url: string) => /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:|\/|$)/.test(url);

export function defaultReportDir(now = new Date()): string {
  return join('reports', now.toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19));
}

export async function run(o: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
  const reportDir = resolve(o.reportDir ?? defaultReportDir(startedAt));
  if (o.baseline) readBaseline(o.baseline); // a broken baseline is a usage error before anything runs
  grepFor(o.clauses, o.grep);
  mkdirSync(reportDir, { recursive: true });
  const workDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  let resolved: ResolvedTarget | undefined;
  let target: Target | undefined;
  let interrupted = false;
  const onSigint = () => { interrupted = true; interruptPhase(); log('conformance: interrupted — cleaning up'); };
  process.on('SIGINT', onSigint);
  try {
    resolved = await resolveTarget(o);
    const d = resolved.descriptor;
    for (const s of [...descriptorSecrets(d), ...(resolved.limitsConfig ? descriptorSecrets(resolved.limitsConfig.target) : [])]) registerSecret(s);
    const { runId, tablePrefix } = newRunId(startedAt);
    const [host, port] = o.webhookListen.split(':');
    const state: RunState = RunState.parse({
      runId, tablePrefix, target: d,
      edition: o.edition ?? d.edition,
      apiVersion: o.apiVersion ?? d.api_version ?? NEWEST_VERSION,
      http: { connectMs: 5_000, headersMs: o.requestTimeout * 1000, bodyMs: o.requestTimeout * 2000, maxBodyBytes: Math.round(o.maxBodyMb * 1024 * 1024) },
      sourceIps: parseSourceIps(o.sourceIps ?? (isLoopback(d.url) ? '127.0.0.2-127.0.0.9' : 'none')),
      webhook: { listenHost: host, listenPort: Number(port), publicUrl: o.webhookUrl },
      limitsConfig: resolved.limitsConfig,
    });
    target = new Target(state);
    log(`conformance: run ${runId} against ${d.url}${resolved.embedded ? ' (embedded reference server)' : ''}, held to ${state.apiVersion} ${state.edition}`);
    try {
      state.fixtures = await createFixtures(target, tablePrefix);
    } catch (e) {
      log(`conformance: could not create the fixture tables: ${redactText((e as Error).message)} — checks that need them will end as errors`);
    }
    const stateFile = join(workDir, 'state.json');
    writeFileSync(stateFile, JSON.stringify(state));
    chmodSync(stateFile, 0o600);
    const grep = grepFor(o.clauses, o.grep);
    const phaseEnv = { stateFile, workDir, workers: o.workers, testTimeoutMs: o.testTimeout * 1000, reporter: o.reporter };
    if (!interrupted) await runPhase('functional', grep, phaseEnv);
    if (!interrupted) await runPhase('rate', grep, phaseEnv);
    const runInfo = { id: runId, target: d.url, edition: state.edition, apiVersion: state.apiVersion, embedded: resolved.embedded, startedAt: startedAt.toISOString() };
    await mergeReports(workDir, reportDir, runInfo);
    return finish(o, reportDir, interrupted);
  } finally {
    process.off('SIGINT', onSigint);
    if (target) {
      const prefix = target.state.tablePrefix;
      const removed = await sweepTables(target, (name) => name.startsWith(prefix)).catch(() => []);
      if (removed.length) log(`conformance: removed ${removed.length} table(s) of this run`);
    }
    await closeAgents();
    for (const s of resolved?.servers ?? []) await s.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function finish(o: RunOptions, reportDir: string, interrupted: boolean): RunOutcome {
  const file = join(reportDir, 'results.json');
  if (!existsSync(file)) {
    log('conformance: no results were produced (the test runner failed to start?)');
    return { exitCode: 2, reportDir };
  }
  const results = Results.parse(JSON.parse(readFileSync(file, 'utf8')));
  let failing = results.clauses.filter((c) => c.outcome === 'fail').map((c) => c.id);
  if (o.baseline) failing = applyBaseline(results, o.baseline);
  writeFileSync(file, JSON.stringify(results, null, 2));
  const md = clausesMarkdown(results);
  writeFileSync(join(reportDir, 'clauses.md'), md);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, md);
  scrubSecrets(reportDir);
  const t = results.totals;
  log(`conformance: ${t.pass} passed, ${t.fail} failed, ${t.error} errors, ${t.skip} skipped — reports in ${reportDir}`);
  if (results.baseline) log(`conformance: baseline: ${results.baseline.known.length} known, ${results.baseline.new.length} new, ${results.baseline.fixed.length} fixed failures`);
  const exitCode = interrupted ? 2 : failing.length ? 1 : t.error ? 2 : 0;
  return { exitCode, reportDir, results };
}

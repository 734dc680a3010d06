/**
 * One `conformance run` in a child process against its own embedded reference server(s),
 * started with the given fault switches (hidden run option `--embedded-fault`). A child per
 * run keeps runs apart: the runner's process-wide state (HTTP agents, registered secrets,
 * SIGINT handling) is not shared between parallel runs. Bounded by a timeout that kills the
 * child's whole process group (the run and its Playwright phases).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Results } from '../reports/results-schema.js';
import type { Edition } from '../spec/index.js';
import { CLI_ENTRY } from '../spec/layout.js';
import { harnessEnvVars } from '../common/harness-env.js';

interface RunSpec {
  faults: readonly string[];
  edition: Edition;
  apiVersion: string;
  reportDir: string;
  logFile: string;
  /** Functional-phase workers of the run. */
  workers: number;
  /** Rate window of the embedded servers, seconds. */
  window: number;
  timeoutMs: number;
  /** Only the checks this Playwright --grep matches (coverage-selected)… */
  grep?: string;
  /** …of these clauses (lets the runner skip a phase with nothing to run). */
  clauses?: readonly string[];
  /** Record fault coverage per check into this file (clean runs). */
  coverageFile?: string;
  /** Check title → mutant: a mutant's clause is decided by its first failing check (the runner's `--fail-fast-scopes`). */
  failFastScopes?: Readonly<Record<string, string>>;
}

export interface RunResult {
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  results?: Results;
  /** Why there are no results, if there are none. */
  problem?: string;
}

const live = new Set<number>();

/** Stop every child run (selftest interrupted). */
export function killAllRuns(signal: NodeJS.Signals = 'SIGINT'): void {
  for (const pid of live) {
    try {
      process.kill(-pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/**
 * The reference server answers in milliseconds: a mutant that hangs a call, or never delivers
 * a webhook, is told in 5 s rather than the 15 s and 20 s a real target is given.
 */
const PATIENCE_SECONDS = 5;

/** Where a run's --fail-fast-scopes file is written: beside its report folder. */
const scopesFile = (s: RunSpec) => `${s.reportDir}.fail-fast.json`;

function runArgs(s: RunSpec): string[] {
  return [
    // The CLI as the selftest itself runs: the compiled one (npm test) starts no tsx per run.
    CLI_ENTRY,
    'run',
    '--edition',
    s.edition,
    '--api-version',
    s.apiVersion,
    '--report-dir',
    s.reportDir,
    '--workers',
    String(s.workers),
    '--rate-window',
    String(s.window),
    '--reporter',
    'dot',
    '--request-timeout',
    String(PATIENCE_SECONDS),
    '--webhook-wait',
    String(PATIENCE_SECONDS),
    '--no-html',
    '--transcripts',
    'none',
    ...s.faults.flatMap((f) => ['--embedded-fault', f]),
    ...(s.grep ? ['--grep', s.grep] : []),
    ...(s.clauses?.length ? ['--clauses', s.clauses.join(',')] : []),
    ...(s.coverageFile ? ['--embedded-coverage', s.coverageFile] : []),
    ...(s.failFastScopes ? ['--fail-fast-scopes', scopesFile(s)] : []),
  ];
}

export function runConformance(s: RunSpec): Promise<RunResult> {
  mkdirSync(s.reportDir, { recursive: true });
  mkdirSync(dirname(s.logFile), { recursive: true });
  if (s.failFastScopes) writeFileSync(scopesFile(s), JSON.stringify(s.failFastScopes));
  const log = createWriteStream(s.logFile);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, runArgs(s), {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', ...harnessEnvVars({ tagCalls: !!s.coverageFile }) },
    });
    const pid = child.pid!;
    live.add(pid);
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    let timedOut = false;
    let hardKill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-pid, 'SIGINT');
      } catch {
        /* gone */
      }
      hardKill = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 15_000);
    }, s.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (hardKill) clearTimeout(hardKill);
      live.delete(pid);
      // The run is over; Playwright processes it left behind (a crash) go with it.
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      log.end();
      const r: RunResult = { exitCode: code, durationMs: Date.now() - started, timedOut };
      const file = join(s.reportDir, 'results.json');
      if (!existsSync(file))
        return resolve({
          ...r,
          problem: timedOut
            ? `timed out after ${Math.round(s.timeoutMs / 1000)} s`
            : `no results.json (exit ${code}); see ${s.logFile}`,
        });
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        return resolve({ ...r, problem: `results.json unreadable: ${(e as Error).message}` });
      }
      const parsed = Results.safeParse(raw);
      resolve(
        parsed.success
          ? { ...r, results: parsed.data }
          : { ...r, problem: `results.json does not match its schema: ${parsed.error.issues[0]?.message}` },
      );
    });
  });
}

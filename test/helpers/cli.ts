/**
 * The CLI as users meet it: `node bin/conformance.js …` in a child process, and the
 * reference server started with `serve --json` (its descriptor is its one stdout line).
 * Every child is bounded in time and ended by its own id. Under `npm test`
 * (CONFHARNESS_COMPILED_CLI) the child is the compiled CLI that npm test built into dist/: the
 * same code, without tsx compiling it at every start; a test file run alone runs the sources.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { phasesFor } from '../../src/runner/phases.js';
import { distTwin } from '../../src/spec/layout.js';
import { HARNESS_ENV_PREFIX, harnessEnv, harnessEnvVars } from '../../src/common/harness-env.js';

export const ROOT = join(import.meta.dirname, '..', '..');
/** The checkout's entry: the sources through tsx. */
const BIN = join(ROOT, 'bin', 'conformance.js');
const COMPILED_START = distTwin(join(ROOT, 'src', 'cli', 'start.ts'));

/**
 * The file a test starts the CLI with: the compiled CLI under npm test, otherwise the
 * checkout's bin. A run of test-only suites (CONFHARNESS_SUITES_DIR in `env`) is compiled only
 * when npm test's build compiled them too (`build --test-suites`, see compiledSuites).
 */
export function cliEntry(env?: NodeJS.ProcessEnv): string {
  const suites = env && harnessEnv('suitesDir', env);
  if (!harnessEnv('compiledCli') || (suites && !suites.startsWith(distTwin(ROOT)))) return BIN;
  if (!existsSync(COMPILED_START))
    throw new Error(`${COMPILED_START} is missing: npm test builds it first (npm run build)`);
  return COMPILED_START;
}

/**
 * Under npm test, `env` with its test-only suites dir swapped for the JavaScript of npm test's
 * build (dist/test/suites/…: the compiled runner takes `.spec.js`); unchanged otherwise.
 */
function compiledSuites(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv | undefined {
  const dir = env && harnessEnv('suitesDir', env);
  if (!dir || !harnessEnv('compiledCli')) return env;
  const compiled = distTwin(dir);
  return existsSync(compiled) ? { ...env, ...harnessEnvVars({ suitesDir: compiled }) } : env;
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

interface CliOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Called with the child once it runs (to signal it mid-run). */
  onStart?: (child: ChildProcess) => void;
  /** Called with each piece of stderr as it arrives. */
  onStderr?: (text: string, child: ChildProcess) => void;
  /**
   * Alone among the project's test workers (default: for a `run` that has a rate phase): the
   * rate family times bursts against a window, and two runs at once on two cores make it
   * undecided. A run of a test-only suite, or of clauses without RATE, needs no lock.
   */
  exclusive?: boolean;
  /** The checkout's bin (the sources through tsx) even under npm test: a test of that entry itself. */
  source?: boolean;
}

const LOCK = join(tmpdir(), 'conformance-project-tests.lock');
const LOCK_WAIT_MS = 20 * 60_000;

/** Does this command start a rate phase? (Its `--grep` is not looked at: a rate phase that runs nothing still counts.) */
function hasRatePhase(args: string[], env: NodeJS.ProcessEnv | undefined): boolean {
  if (args[0] !== 'run') return false;
  const at = args.findIndex((a) => a === '--clauses' || a.startsWith('--clauses='));
  const clauses = at < 0 ? undefined : args[at]!.includes('=') ? args[at]!.split('=').slice(1).join('=') : args[at + 1];
  try {
    return phasesFor(clauses, (env && harnessEnv('suitesDir', env)) ?? join(ROOT, 'suites')).includes('rate');
  } catch {
    return true; // a --clauses the runner refuses: the run stops before any phase, the lock costs nothing
  }
}

/** A lock file shared by the test workers; a holder that died is taken over. */
async function lock(): Promise<() => void> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(LOCK, { force: true });
    } catch {
      let holder = 0;
      try {
        holder = Number(readFileSync(LOCK, 'utf8'));
      } catch {
        continue;
      }
      let alive = holder > 0;
      try {
        if (alive) process.kill(holder, 0);
      } catch {
        alive = false;
      }
      if (!alive) {
        rmSync(LOCK, { force: true });
        continue;
      }
      if (Date.now() > until) throw new Error(`the lock ${LOCK} is held by process ${holder} for too long`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * A run of chosen clauses or checks (--clauses, --grep) runs on one worker (CONFORMANCE_WORKERS,
 * so a --workers flag or the test's `env` still decides): it has a few checks, and the tests
 * already run three at a time on two cores, so a second worker would only add its start (a
 * second or more of CPU). Whole runs keep the default, as users run them.
 */
const SELECTING = /^--(clauses|grep)(=|$)/;
const oneWorker = (args: string[]): Record<string, string> =>
  args[0] === 'run' && args.some((a) => SELECTING.test(a)) ? { CONFORMANCE_WORKERS: '1' } : {};

/** Run the CLI to completion. Environment: ours minus CONFORMANCE_* and CONFHARNESS_* (a developer's shell cannot change a test), plus `env`. */
export async function cli(args: string[], o: CliOptions = {}): Promise<CliResult> {
  const release = (o.exclusive ?? hasRatePhase(args, o.env)) ? await lock() : undefined;
  try {
    return await spawnCli(args, o);
  } finally {
    release?.();
  }
}

function spawnCli(args: string[], o: CliOptions): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CONFORMANCE_') && k !== 'GITHUB_STEP_SUMMARY' && !k.startsWith(HARNESS_ENV_PREFIX),
    ),
  );
  const own = compiledSuites(o.env);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [o.source ? BIN : cliEntry(own), ...args], {
      cwd: ROOT,
      env: { ...env, FORCE_COLOR: '0', ...oneWorker(args), ...own },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      output += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      output += d;
      o.onStderr?.(d.toString(), child);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 240_000);
    o.onStart?.(child);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output });
    });
  });
}

export interface Served {
  descriptor: Record<string, unknown> & { url: string; bases: { uuid: string; api_token: string; name: string }[] };
  /** The descriptor as a file, for --target-file. */
  file: string;
  dataFile: string;
  stop(): Promise<void>;
}

/** `conformance serve --json` with a data file (so a test can read what the server issued); a 3-second rate window unless `args` name one. */
export function serve(args: string[] = []): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'cf-serve-'));
  const dataFile = join(dir, 'data.sqlite');
  const child = spawn(
    process.execPath,
    [
      cliEntry(),
      'serve',
      '--json',
      ...(args.includes('--rate-window') ? [] : ['--rate-window', '3']),
      '--data',
      dataFile,
      ...args,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('close', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGINT');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`serve did not start: ${err}`));
    }, 60_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const descriptor = JSON.parse(out.slice(0, nl)) as Served['descriptor'];
      const file = join(dir, 'target.json');
      writeFileSync(file, JSON.stringify(descriptor));
      resolve({ descriptor, file, dataFile, stop });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

export const tempDir = (label: string) => mkdtempSync(join(tmpdir(), `cf-${label}-`));

/**
 * Running Playwright: one child process per phase, then the merge of their blob reports.
 * The children's output reaches the terminal through a redacting pipe, and their blob
 * reports are scrubbed before the merge, so no reporter ever sees a secret.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { harnessEnv, harnessEnvVars } from '../common/harness-env.js';
import { matchClauses } from '../spec/index.js';
import { CODE_ROOT, codeFile, COMPILED, SUITE_SUFFIX } from '../spec/layout.js';
import { scrubBlob } from './blobs.js';
import { pipeRedacted, SecretsFile } from './redact-stream.js';

const require = createRequire(import.meta.url);
/** Playwright's command line, which every Playwright process of the runner runs. */
export const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');

const running = new Set<ChildProcess>();

/** Stop the running phases (SIGINT handling). */
export function interruptPhase(): void {
  for (const child of running) child.kill('SIGINT');
}

/** Colours and a terminal width for the children when we have a terminal (their output is piped). */
function ttyEnv(): NodeJS.ProcessEnv {
  if (!process.stdout.isTTY) return {};
  return {
    FORCE_COLOR: process.env.FORCE_COLOR ?? '1',
    PLAYWRIGHT_FORCE_TTY: String(process.stdout.columns || 100),
    ...harnessEnvVars({ color: true }),
  };
}

/** How a child ended: its exit code, and why it did not run when it could not be started. */
interface ChildEnd {
  exitCode: number;
  error?: string;
}

/** Run `command` with its output through the redacting pipe; a child that cannot be started ends with its error. */
export function runRedacted(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  secrets: SecretsFile,
  quiet = false,
): Promise<ChildEnd> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...env, ...ttyEnv() }, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const out = quiet
      ? (child.stdout.resume(), Promise.resolve())
      : pipeRedacted(child.stdout, process.stdout, secrets);
    const err = pipeRedacted(child.stderr, process.stderr, secrets);
    let code = 1;
    let error: string | undefined;
    child.on('exit', (c, signal) => {
      code = c ?? (signal ? 130 : 1);
    });
    child.on('error', (e) => {
      error = `${command} could not be started: ${e.message}`;
    });
    child.on('close', () => {
      running.delete(child);
      void Promise.all([out, err]).then(() => resolve(error ? { exitCode: code || 1, error } : { exitCode: code }));
    });
  });
}

/**
 * Compiled (the package, or the checkout's dist/), every file Playwright loads is JavaScript:
 * its ESM loader (a hooks thread that hashes each file and keeps babel at hand for TypeScript)
 * has nothing to do and cost each Playwright process a third of its start-up CPU.
 */
const NO_TS_LOADER: NodeJS.ProcessEnv = COMPILED ? { PW_DISABLE_TS_ESM: '1' } : {};

/** The environment of a Playwright process the runner starts: `env`, and no TypeScript loader where it has nothing to do. */
export const playwrightEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...env, ...NO_TS_LOADER });

const runNode = (args: string[], env: NodeJS.ProcessEnv, secrets: SecretsFile, quiet = false) =>
  runRedacted(process.execPath, [PLAYWRIGHT_CLI, ...args], playwrightEnv(env), secrets, quiet);

/** Playwright's --grep for a clause pattern and a free regular expression, combined. */
export function grepFor(clauses: string | undefined, grep: string | undefined): string | undefined {
  const parts: string[] = [];
  if (clauses) {
    const ids = matchClauses(clauses);
    if (ids.length === 0) throw new Error(`--clauses ${clauses}: matches no clause`);
    parts.push(`(?=.*(?:${ids.join('|')})(?![0-9]))`);
  }
  if (grep) {
    try {
      new RegExp(grep);
    } catch (e) {
      throw new Error(`--grep: ${(e as Error).message}`);
    }
    parts.push(`(?=.*(?:${grep}))`);
  }
  return parts.length ? `^${parts.join('')}` : undefined;
}

export type Phase = 'functional' | 'rate';
/** What one Playwright process runs: a phase, or both at once (the rate family beside the others). */
type PhaseRun = Phase | 'both';

const SUITES_DIR = harnessEnv('suitesDir') ?? join(CODE_ROOT, 'suites');

/** The phases a run needs: no Playwright start (a second or two) for a phase that would run nothing. */
export function phasesFor(clauses: string | undefined, suitesDir = SUITES_DIR): Phase[] {
  const files = existsSync(suitesDir) ? readdirSync(suitesDir).filter((f) => f.endsWith(SUITE_SUFFIX)) : [];
  const ids = clauses ? matchClauses(clauses) : undefined;
  const rate = files.includes(`rate${SUITE_SUFFIX}`) && (!ids || ids.some((id) => id.startsWith('RATE-')));
  const other = files.some((f) => f !== `rate${SUITE_SUFFIX}`) && (!ids || ids.some((id) => !id.startsWith('RATE-')));
  return [...(other ? ['functional' as const] : []), ...(rate ? ['rate' as const] : [])];
}

interface PhaseEnv {
  stateFile: string;
  secrets: SecretsFile;
  workDir: string;
  workers: number;
  testTimeoutMs: number;
  reporter: string;
  /** Both phases at once: the rate family's state (its own bases), and the file that says the others are done. */
  rate?: { stateFile: string; othersDoneFile: string };
}

export function runPhase(phase: PhaseRun, grep: string | undefined, p: PhaseEnv): Promise<ChildEnd> {
  const args = ['test', '--config', codeFile('src', 'runner', 'playwright.config'), '--pass-with-no-tests'];
  if (phase !== 'both') args.push('--project', phase);
  if (grep) args.push('--grep', grep);
  return runNode(
    args,
    {
      ...process.env,
      ...harnessEnvVars({
        stateFile: p.stateFile,
        rateStateFile: p.rate?.stateFile,
        othersDoneFile: p.rate?.othersDoneFile,
        secretsFile: p.secrets.path,
        phase,
        workDir: p.workDir,
        workers: phase === 'rate' ? 1 : p.workers,
        testTimeoutMs: p.testTimeoutMs,
        terminalReporter: p.reporter,
      }),
    },
    p.secrets,
  );
}

/** Scrub the phases' blob reports and merge them; what went wrong, when the merge failed (no blob report at all is not a failure of the merge). */
export async function mergeReports(
  workDir: string,
  reportDir: string,
  runInfo: object,
  secrets: SecretsFile,
  html = true,
): Promise<string | undefined> {
  const all = join(workDir, 'blobs-all');
  mkdirSync(all, { recursive: true });
  for (const phase of ['functional', 'rate', 'both'] satisfies PhaseRun[]) {
    const dir = join(workDir, 'blobs', phase);
    if (existsSync(dir))
      for (const f of readdirSync(dir)) if (f.endsWith('.zip')) copyFileSync(join(dir, f), join(all, f));
  }
  const blobs = readdirSync(all);
  if (blobs.length === 0) return undefined;
  secrets.refresh();
  for (const f of blobs) await scrubBlob(join(all, f));
  const merged = await runNode(
    ['merge-reports', '--config', codeFile('src', 'runner', 'merge.config'), all],
    {
      ...process.env,
      ...harnessEnvVars({ reportDir, runInfo: JSON.stringify(runInfo), mergeWork: workDir, noHtml: !html }),
    },
    secrets,
    true,
  );
  if (merged.error) return `merging the phases' reports failed: ${merged.error}`;
  return merged.exitCode === 0
    ? undefined
    : `merging the phases' reports failed (Playwright merge-reports ended with exit code ${merged.exitCode}): the reports are incomplete`;
}

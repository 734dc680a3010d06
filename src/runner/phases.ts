/** Running Playwright: one child process per phase, then the merge of their blob reports. */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { matchClauses } from '../spec/index.js';

const require = createRequire(import.meta.url);
const CLI = require.resolve('@playwright/test/cli');
const HERE = import.meta.dirname;

let current: ChildProcess | undefined;

/** Stop the running phase (SIGINT handling). */
export function interruptPhase(): void {
  current?.kill('SIGINT');
}

function runNode(args: string[], env: NodeJS.ProcessEnv, quiet = false): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : ['ignore', 'inherit', 'inherit'] });
    current = child;
    child.on('exit', (code, signal) => {
      current = undefined;
      resolve(code ?? (signal ? 130 : 1));
    });
    child.on('error', () => resolve(1));
  });
}

/** Playwright's --grep for a clause pattern and a free regular expression, combined. */
export function grepFor(clauses: string | undefined, grep: string | undefined): string | undefined {
  const parts: string[] = [];
  if (clauses) {
    const ids = matchClauses(clauses);
    if (ids.length === 0) throw new Error(`--clauses ${clauses} matches no clause`);
    parts.push(`(?=.*(?:${ids.join('|')})(?![0-9]))`);
  }
  if (grep) parts.push(`(?=.*(?:${grep}))`);
  return parts.length ? `^${parts.join('')}` : undefined;
}

export interface PhaseEnv {
  stateFile: string;
  workDir: string;
  workers: number;
  testTimeoutMs: number;
  reporter?: string;
}

export function runPhase(phase: 'functional' | 'rate', grep: string | undefined, p: PhaseEnv): Promise<number> {
  const args = ['test', '--config', join(HERE, 'playwright.config.ts'), '--project', phase, '--pass-with-no-tests'];
  if (grep) args.push('--grep', grep);
  return runNode(args, {
    ...process.env,
    CONFHARNESS_STATE_FILE: p.stateFile,
    CONFHARNESS_PHASE: phase,
    CONFHARNESS_WORK_DIR: p.workDir,
    CONFHARNESS_WORKERS: String(phase === 'rate' ? 1 : p.workers),
    CONFHARNESS_TEST_TIMEOUT_MS: String(p.testTimeoutMs),
    ...(p.reporter ? { CONFHARNESS_TERMINAL_REPORTER: p.reporter } : {}),
  });
}

/** Merge the phases' blob reports; false when no phase produced one. */
export async function mergeReports(workDir: string, reportDir: string, runInfo: object): Promise<boolean> {
  const all = join(workDir, 'blobs-all');
  mkdirSync(all, { recursive: true });
  for (const phase of ['functional', 'rate']) {
    const dir = join(workDir, 'blobs', phase);
    if (existsSync(dir)) for (const f of readdirSync(dir)) if (f.endsWith('.zip')) copyFileSync(join(dir, f), join(all, f));
  }
  if (readdirSync(all).length === 0) return false;
  await runNode(['merge-reports', '--config', join(HERE, 'merge.config.ts'), all], {
    ...process.env,
    CONFHARNESS_REPORT_DIR: reportDir,
    CONFHARNESS_RUN_INFO: JSON.stringify(runInfo),
  }, true);
  return true;
}

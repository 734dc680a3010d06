/**
 * `--fail-fast-scopes`: checks grouped into scopes (the selftest gives each mutant one); once
 * a check of a scope fails, the later checks of the same scope and clause are skipped. The
 * clause is failed either way, so what a scope's run says per clause (fail, error, pass)
 * is unchanged: only the repeats go. Worth it because Playwright ends its worker after every
 * failed test and starts a new one (≈ 0.6 s each, more on a loaded machine): a fault that
 * breaks all 16 checks of SHAPE-1 costs ten seconds of restarts to say what the first says.
 *
 * Marks are files beside the run's state file (one folder per run, shared by its phases and
 * by every worker Playwright starts); only `fail` marks: an undecided check never skips others.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { RunState } from './state.js';
import { callsEnded } from '../client/in-flight.js';
import { harnessEnv } from '../common/harness-env.js';

function markFile(scope: string, clause: string): string | undefined {
  const stateFile = harnessEnv('stateFile');
  if (!stateFile) return undefined;
  const name = createHash('sha256').update(`${scope}\u0000${clause}`).digest('hex').slice(0, 32);
  return join(dirname(stateFile), 'failed-scopes', name);
}

const keyOf = (state: RunState, title: string, clause: string | null) => {
  const scope = clause ? state.failFastScopes?.[title] : undefined;
  return scope === undefined ? undefined : markFile(scope, clause!);
};

/** Why this check need not run (a check of its scope and clause already failed), or undefined. */
export function alreadyFailed(state: RunState, title: string, clause: string | null): string | undefined {
  const file = keyOf(state, title, clause);
  if (!file || !existsSync(file)) return undefined;
  return `${clause} already failed in this scope (${readFileSync(file, 'utf8')}): --fail-fast-scopes skips its later checks`;
}

/** Record a failed check, so later checks of its scope and clause are skipped. */
export function noteFailure(state: RunState, title: string, clause: string | null): void {
  const file = keyOf(state, title, clause);
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, title.slice(0, 200));
}

/** How long a failed check's calls may take to end before its worker is given up after all. */
const CALLS_END_MS = 2_000;

/**
 * A scoped run keeps its worker after a check whose assertions failed (or that an assertion
 * warning stopped): Playwright otherwise ends the worker after every failed test and starts
 * a new one (≈ 1.5–2.4 s under a selftest's load, a third of its mutant runs' time). What a
 * new worker would start without is dropped first — the worker's shared worlds (a table
 * half-changed by the failed check is grown afresh by the next check that needs it) and the
 * target's tokens and rate budgets — and only once every call the check started has ended.
 * Played as an expected failure, so Playwright keeps the worker; the check's outcome is its
 * outcome.json, as always. A check that could not be decided (`error`: a timeout, a harness
 * bug) still ends its worker. Only with --fail-fast-scopes (the selftest): a normal run's
 * checks, reports and exit code are untouched.
 */
export async function keepWorker(
  state: RunState,
  testInfo: TestInfo,
  outcome: 'pass' | 'fail' | 'skip' | 'error',
  forget: () => Promise<void>,
): Promise<void> {
  if (!state.failFastScopes || testInfo.status !== 'failed' || outcome === 'error') return;
  if (!(await callsEnded(CALLS_END_MS))) return;
  await forget();
  testInfo.expectedStatus = 'failed';
}

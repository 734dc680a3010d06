/**
 * `--fail-fast-scopes`: checks grouped into scopes (the selftest gives each mutant one); once
 * a check of a scope fails, the later checks of the same scope and clause are skipped. The
 * clause is failed either way, so what a scope's run says per clause (fail, error, pass)
 * is unchanged: only the repeats go: a fault that breaks all 16 checks of SHAPE-1 would cost
 * fifteen checks to say what the first says.
 *
 * Marks are files beside the run's state file (one folder per run, shared by its phases and
 * by every worker Playwright starts); only `fail` marks: an undecided check never skips others.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunState } from './state.js';
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

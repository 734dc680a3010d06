/**
 * Turns among the run's workers for checks that change one shared thing of the account under
 * test and read it back — the team logo (ACCT-5 sets and deletes it, ROUTE-2 and SHAPE-8 put
 * it back after changing it): without turns one check reads the other's logo. The lock is a
 * directory made atomically in the run's own work folder (beside its state file).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Undecided } from './outcome.js';
import { harnessEnv } from '../common/harness-env.js';

async function withLock<T>(name: string, work: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const stateFile = harnessEnv('stateFile');
  const dir = join(stateFile ? dirname(stateFile) : tmpdir(), `lock-${name}`);
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() > until)
        throw new Undecided('lock', `waited ${timeoutMs / 1000} s for another check to finish with ${name}`);
      await sleep(25);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The team logo, one check at a time. */
export const withTeamLogo = <T>(work: () => Promise<T>) => withLock('team-logo', work);

/**
 * A run keeps its Playwright worker after a check whose assertions failed (or that an
 * assertion warning stopped). Playwright otherwise ends the worker after every failed test and
 * starts a new one: a second or more of CPU each (Node, Playwright and the suites loaded
 * again, the worker's fixtures set up again), so a target that fails twenty checks paid twenty
 * restarts, and the selftest's mutant runs a third of their time.
 *
 * What a new worker would start without is dropped first — the worker's shared worlds (a table
 * half-changed by the failed check is grown afresh by the next check that needs it) and the
 * target's tokens and rate budgets — and only once every call the check started has ended.
 * The check is then played as an expected failure, which is what makes Playwright keep the
 * worker, and marked so; the runner turns the mark back into a plain failure before any
 * report reads the phase's events (src/runner/blobs.ts), so HTML, JUnit and results say
 * `failed` as always, and the check's outcome is its outcome.json as always.
 *
 * A check that could not be decided (`error`: a timeout, a harness bug) still ends its worker.
 * Only where the terminal shows the harness's own outcomes (the `progress` reporter, or a
 * selftest's scoped run): Playwright's own terminal reporters would show the check as passed.
 */
import type { TestInfo } from '@playwright/test';
import { callsEnded } from '../client/in-flight.js';
import type { RunState } from './state.js';

/** The annotation of a check whose failure kept its worker (read by the runner's blob scrub). */
export const KEPT_WORKER = 'conformance:kept-worker';

/** How long a failed check's calls may take to end before its worker is given up after all. */
const CALLS_END_MS = 2_000;

export async function keepWorker(
  state: RunState,
  testInfo: TestInfo,
  outcome: 'pass' | 'fail' | 'skip' | 'error',
  forget: () => Promise<void>,
): Promise<void> {
  if (!state.keepWorkers || testInfo.status !== 'failed' || outcome === 'error') return;
  if (!(await callsEnded(CALLS_END_MS))) return;
  await forget();
  testInfo.annotations.push({ type: KEPT_WORKER });
  testInfo.expectedStatus = 'failed';
}

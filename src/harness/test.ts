/**
 * The suites' `test`: Playwright's, with the run's state and target as fixtures, every
 * call recorded and attached (redacted, with curl reproducers), and `check()` to declare a
 * test of a clause: its title starts with the clause ID and it carries the annotations
 * `clause` and `evidence` (src/spec/evidence.ts) that flow into JUnit and the reports. Two automatic fixtures settle
 * every check (src/harness/marks.ts): its outcome settled as data (a failure only through a
 * violation recorded by this module's `expect`), and secrets redacted from its errors and
 * printed output.
 */
import { test as base, type TestInfo } from '@playwright/test';
import {
  behaviourAt,
  clause as clauseOf,
  type Behaviour,
  type ClauseId,
  type Edition,
  type Evidence,
} from '../spec/index.js';
import { alreadyFailed, noteFailure } from './fail-fast.js';
import { keepWorker } from './keep-worker.js';
import { attachData, redactStdio, settleCheck } from './marks.js';
import { evidenceAnnotation } from './evidence-annotation.js';
import { beginCheck, clauseOfCheck, hasAssertionWarnings } from './verdict.js';
import { HAR_ATTACHMENT, Recorder } from './recorder.js';
import { loadState, type RunState } from './state.js';
import { tagCalls, tagging, Target } from './target.js';
import { adoptProjectState, harnessEnv } from '../common/harness-env.js';

interface Fixtures {
  target: Target;
  rec: Recorder;
  /** Automatic: outcome annotation and redacted errors after every check. */
  _settle: void;
  /** Automatic: calls tagged with the check's title (selftest coverage only). */
  _tag: void;
}
/**
 * What a suite's checks share within a worker (a scratch world, a big table, a signed-in
 * client), by name: made on first use, dropped when the worker ends (a failed drop is left
 * to the end-of-run sweep). Every suite takes its shared things from this one worker fixture
 * rather than declaring a worker fixture of its own, so all suites have one fixture pool and
 * Playwright may run any check on any worker: a pool of its own needs a worker of its own —
 * a process start of ≈ 0.7 s — each time the scheduler moves to that suite's checks.
 */
class Shared {
  private readonly items = new Map<string, unknown>();

  get<W>(name: string, make: () => W): W {
    if (!this.items.has(name)) this.items.set(name, make());
    return this.items.get(name) as W;
  }

  async dropAll(): Promise<void> {
    for (const item of this.items.values()) {
      const drop = (item as { drop?: () => Promise<void> }).drop;
      if (typeof drop === 'function') await drop.call(item).catch(() => undefined);
    }
    this.items.clear();
  }
}

interface WorkerFixtures {
  state: RunState;
  sharedTarget: Target;
  shared: Shared;
  /** Automatic: the worker's stdout/stderr redacted. */
  _stdio: void;
}

/**
 * Playwright's own per-test fixture `_setupArtifacts` (screenshots and traces of browser
 * pages) pulls in `_combinedContextOptions` and its ~27 browser-context options, each set up
 * and torn down as a report step with a stack capture, for every check: ≈ 5 ms of a worker's
 * CPU per check for pages the suites never open. Replaced by a no-op of the same kind (an
 * override must keep `auto`; the name is internal, and should it change the override is
 * merely an extra no-op and Playwright's fixture runs as before).
 */
const apiTest = base.extend({
  _setupArtifacts: [async ({}, use: () => Promise<void>) => use(), { auto: 'all-hooks-included', box: 'self' }],
} as unknown as Parameters<typeof base.extend>[0]) as typeof base;

// `box: 'self'` on the per-check fixtures: the harness's own plumbing makes no report step
// (each step is a worker→runner message, a blob line and merge work; they were 8 per check).
export const test = apiTest.extend<Fixtures, WorkerFixtures>({
  _stdio: [
    async ({}, use, workerInfo) => {
      adoptProjectState(workerInfo.project.name); // first: every later read of the state is this project's
      if (harnessEnv('stateFile')) loadState(); // learn the descriptor's secrets before anything is printed
      const restore = redactStdio();
      await use();
      restore();
    },
    { scope: 'worker', auto: true },
  ],
  _settle: [
    async ({ rec, state, shared, sharedTarget }, use, testInfo) => {
      const clause = clauseOfCheck(testInfo);
      const skip = alreadyFailed(state, testInfo.title, clause);
      testInfo.skip(!!skip, skip);
      beginCheck(testInfo, rec, state.strict);
      await use();
      const outcome = await settleCheck(testInfo);
      if (outcome === 'fail') noteFailure(state, testInfo.title, clause);
      await keepWorker(state, testInfo, outcome, async () => {
        await shared.dropAll();
        sharedTarget.forget();
      });
    },
    { auto: true, box: 'self' },
  ],
  _tag: [
    async ({}, use, testInfo) => {
      const on = tagging(); // selftest coverage only (src/mutants/coverage.ts)
      if (on) tagCalls(testInfo.title);
      await use();
      if (on) tagCalls(undefined);
    },
    { auto: true, box: 'self' },
  ],
  state: [async ({}, use) => use(loadState()), { scope: 'worker' }],
  sharedTarget: [async ({ state }, use) => use(new Target(state)), { scope: 'worker' }],
  shared: [
    async ({}, use) => {
      const shared = new Shared();
      await use(shared);
      await shared.dropAll();
    },
    { scope: 'worker' },
  ],
  rec: [async ({}, use) => use(new Recorder()), { box: 'self' }],
  target: [
    async ({ sharedTarget, rec, state }, use, testInfo) => {
      sharedTarget.recorder = rec;
      await use(sharedTarget);
      sharedTarget.recorder = undefined;
      attachCalls(rec, testInfo, state.transcripts);
    },
    { box: 'self' },
  ],
});

function attachCalls(rec: Recorder, testInfo: TestInfo, transcripts: RunState['transcripts']): void {
  attachData(testInfo, 'calls.json', JSON.stringify({ calls: rec.calls, refused: rec.refused }), 'application/json');
  // "failures": a check that threw (failed, or could not be decided); a pass's exchanges are seldom read and make most of a report's size.
  const threw =
    testInfo.errors.length > 0 ||
    (testInfo.status !== 'passed' && testInfo.status !== 'skipped') ||
    hasAssertionWarnings();
  const wanted = transcripts === 'all' || (transcripts === 'failures' && threw);
  if (rec.exchanges.length === 0 || !wanted) return;
  attachData(testInfo, 'requests and responses', rec.transcript(), 'text/plain');
  attachData(testInfo, 'curl reproducer', rec.curl(), 'text/plain');
  // A check that did not pass (or whose calls were refused unasked: the vacuous-pass guard may make it an error) carries a HAR file.
  if (threw || rec.refused > 0) attachData(testInfo, HAR_ATTACHMENT, rec.har(), 'application/json');
}

/**
 * `test` with a `world`: what a suite's checks share within a worker (tables or other
 * things), named `name` in the worker's shared registry, made on first use and dropped
 * when the worker ends.
 */
export function withWorld<W>(name: string, make: (target: Target) => W) {
  return test.extend<{ world: W }>({
    world: [async ({ shared, sharedTarget }, use) => use(shared.get(name, () => make(sharedTarget))), { box: 'self' }],
  });
}

/**
 * Title and details of a check of clause `id`: `test(...clause('RATE-3', 'a 429 has an empty body', ev.spec('7, 8.1.3')), async (...) => …)`.
 * `evidence` is the default of the check's assertions (one may name its own: `expect.because(…)`);
 * without one, every assertion of the check must name its own (the evidence test holds that).
 * (Spread into `test` at the call site so reports point at the suite file, not at this helper.)
 */
export function clause(
  id: ClauseId,
  title: string,
  evidence?: Evidence,
): [string, { annotation: { type: string; description: string }[] }] {
  const c = clauseOf(id);
  return [
    `${id} ${title}`,
    {
      annotation: [
        { type: 'clause', description: id },
        ...(evidence ? [evidenceAnnotation(evidence)] : []),
        { type: 'source', description: `§${c.source}` },
      ],
    },
  ];
}

/** The behaviour the run holds the target to (its `--api-version`). */
export function behaviour(state: RunState): Readonly<Behaviour> {
  return behaviourAt(state.apiVersion);
}

/** Skip unless the release the run holds the target to has `feature` (= `value`): clauses that do not apply are skipped with the reason, never silently. */
export function needsRelease<K extends keyof Behaviour>(
  state: RunState,
  feature: K,
  value: Behaviour[K] = true as Behaviour[K],
  why = String(feature),
): void {
  test.skip(behaviour(state)[feature] !== value, `does not apply to release ${state.apiVersion}: ${why}`);
}

export function needsEdition(state: RunState, editions: readonly Edition[], why: string): void {
  test.skip(
    !editions.includes(state.edition),
    `applies to the ${editions.join('/')} edition only (${why}); the run holds the target to ${state.edition}`,
  );
}

export function needsBases(state: RunState, n: number): void {
  test.skip(
    state.target.bases.length < n,
    `needs ${n} bases in the target descriptor (it has ${state.target.bases.length})`,
  );
}

export function needsAdmin(state: RunState): void {
  test.skip(!state.target.admin, 'needs an admin account (descriptor "admin": true)');
}

export function needsAccount(state: RunState): void {
  test.skip(
    !state.target.account_token && !(state.target.username && state.target.password),
    'needs an account (account_token, or username and password)',
  );
}

export { expect, warnState } from './verdict.js';
export { ev } from '../spec/index.js';

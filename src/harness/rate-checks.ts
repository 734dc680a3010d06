/**
 * The rate family's check machinery (suites/rate.spec.ts): which key and which target a
 * check bursts at, using a budget up, and counting admissions exactly in a fresh window —
 * with the rules that keep timing from deciding a verdict: a burst the evidence shows to
 * have straddled a window boundary is tried again, a machine too slow for the window leaves
 * the check undecided (error), and only proof (headers, or more than twice the limit inside
 * one window) fails a target for having no limit.
 */
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { LIMIT_SETTINGS, type RateClass } from '../spec/index.js';
import { Undecided } from './outcome.js';
import {
  admitted,
  baseKey,
  basesByFreshness,
  clockOf,
  exhaust,
  fireFor,
  ipKey,
  pickIps,
  prepare,
  refused,
  unlimitedProof,
  volley,
  type RateKey,
  type Shot,
} from './rate.js';
import type { RunState } from './state.js';
import { Target } from './target.js';
import { behaviour, expect, needsAccount, test } from './test.js';
import { harnessEnv } from '../common/harness-env.js';

export const CLASS: Record<RateClass, string> = {
  gateway: 'base operations (/api-gateway/, counted per base)',
  account: 'account operations (/api/v2.1/, counted per source address)',
  'auth-token': 'the account-token endpoint (/api2/auth-token/, counted per source address)',
};
/** Calls beyond the limit in an exact-count burst, and the size of the "unlimited" probe. */
export const EXTRA = 20;
export const UNLIMITED_PROBE = 200;
export const CONCURRENCY = 48;

/** The limit the run holds the target to for `cls` (its configured one, else its edition's); null = unlimited. */
export const limitOf = (state: RunState, cls: RateClass): number | null => state.limits.values[cls];
/** Did the target's configuration (descriptor or limits file) set these limits, rather than its edition? */
export const configured = (state: RunState) => !state.limits.source.startsWith(`the ${state.edition} edition`);

/** Skip a check of `cls` that needs what the run lacks; returns the limit it is held to. */
export function gate(state: RunState, cls: RateClass, o: { limited?: boolean } = {}): number | null {
  const limit = limitOf(state, cls);
  if (o.limited !== false)
    test.skip(
      limit === null,
      `${CLASS[cls]} are unlimited (${state.limits.source}); RATE-5 checks that more than the cloud limit is admitted`,
    );
  if (cls !== 'gateway') {
    if (cls === 'account') needsAccount(state);
    test.skip(
      state.sourceIps.length === 0,
      'needs extra source addresses for per-IP budgets (--source-ips; available for loopback targets): the default address is shared with the rest of the run',
    );
  }
  return limit;
}

/** The key a check of `cls` bursts at: the base free soonest, or the least recently used source address. */
export function keyFor(target: Target, cls: RateClass): RateKey {
  return on(
    target,
    cls === 'gateway' ? baseKey(target, basesByFreshness(target)[0]!) : ipKey(cls, pickIps(target, cls, 1)[0]),
  );
}

/** A key of the limits-file target says so in messages. */
export const on = (target: Target, key: RateKey): RateKey =>
  target === limitsTarget ? { ...key, label: `${key.label} of the target started with the limits file` } : key;

let limitsTarget: Target | undefined;
/** The target started with the limits configuration file (RATE-7), as a second Target. */
export function configuredTarget(target: Target, state: RunState): Target {
  limitsTarget ??= new Target({ ...state, target: state.limitsConfig!.target, fixtures: undefined });
  limitsTarget.recorder = target.recorder;
  return limitsTarget;
}

/**
 * Where a check that must use up a budget of `cls` runs (RATE-1 to RATE-4), and the limit
 * there. When the run has the target started with the limits file (the same implementation
 * with smaller limits, RATE-7), per-address budgets are used up there — 456 calls instead of
 * 3,000 keep the phase short and decidable on a loaded machine — and so are per-base ones
 * when this machine was last too slow for the target under test. RATE-5 counts the target
 * under test's own limits exactly.
 */
export function budgetTarget(
  target: Target,
  state: RunState,
  cls: RateClass,
): { t: Target; limit: number; ceiling: number } {
  const limit = limitOf(state, cls)!;
  const cfg = state.limitsConfig;
  const value = cfg?.values[LIMIT_SETTINGS.find((x) => x.rateClass === cls)!.key];
  const usable =
    cfg &&
    state.edition !== 'cloud' &&
    behaviour(state).limitsConfigFile &&
    value !== undefined &&
    value > 0 &&
    value < limit;
  const slow = clockOf(target).callsPerWindow() < 0.8 * limit;
  if (!usable || (cls === 'gateway' && !slow)) return { t: target, limit, ceiling: limit };
  const why =
    cls === 'gateway'
      ? `this machine last sent ${clockOf(target).callsPerWindow()} calls per window, too few to use up the ${limit} of the target under test`
      : `its per-address budget is smaller than the ${limit} of the target under test`;
  test.info().annotations.push({
    type: 'note',
    description: `checked on the target started with the limits file ${cfg.file} (${CLASS[cls]}: ${value} per window): ${why}`,
  });
  // Should that target not apply its file (RATE-7's failure), its limit is the edition's: the ceiling.
  return { t: configuredTarget(target, state), limit: value, ceiling: limit };
}

/**
 * When the rate family runs beside the other families (src/runner/rate-alongside.ts), the
 * runner names a file that appears once they are done. An exact count sends thousands of
 * calls inside one window and needs the machine to itself, and a change of the team's plan
 * changes other families' data: both wait for that file. The wait
 * is no part of the check's time limit (the other families may take minutes on a real target).
 */
export async function othersDone(): Promise<void> {
  const file = harnessEnv('othersDoneFile');
  if (!file || existsSync(file)) return;
  const info = test.info();
  const [limit, from] = [info.timeout, Date.now()];
  info.setTimeout(0);
  while (!existsSync(file)) await sleep(50);
  info.setTimeout(limit + (Date.now() - from));
}

/** Give up at once (undecided) when the harness's last bursts were far too slow to send `calls` calls inside one window. */
function tooSlow(target: Target, calls: number, what: string): void {
  const clock = clockOf(target);
  if (clock.callsPerWindow() >= 0.4 * calls) return;
  throw new Undecided(
    'timing',
    `cannot ${what}: the harness's last burst reached ${Math.round(clock.callsPerMs * 1000)} calls/s, about ${clock.callsPerWindow()} per ${clock.windowMs / 1000}-second window, far from the ${calls} calls needed inside one window (the machine is too slow or loaded)`,
  );
}

/** Exhaust `key` and insist that it ended in a 429 (RATE-1's own verdict; other clauses cannot decide without one). */
export async function usedUp(
  target: Target,
  key: RateKey,
  limit: number,
  o: { fresh?: boolean; strict?: boolean; ceiling?: number } = {},
): Promise<Shot[]> {
  tooSlow(target, limit, `use up the budget of ${key.label} (${CLASS[key.cls]})`);
  const shots = await exhaust(target, key, limit, o);
  if (refused(shots).length === 0) {
    const ceiling = Math.max(limit, o.ceiling ?? 0);
    const span = Math.max(...shots.map((s) => s.t1)) - Math.min(...shots.map((s) => s.t0));
    const msg = `${shots.length} calls from ${key.label} to ${CLASS[key.cls]} in ${span} ms, limit ${ceiling} per ${target.state.target.rate_window_seconds}-second window: none answered 429`;
    const proof = unlimitedProof(shots, ceiling, clockOf(target).windowMs);
    if (!proof)
      throw new Undecided(
        'timing',
        `${msg}, but the harness could not send more than the limit inside one window (the machine is too slow or loaded), so this proves nothing`,
      );
    if (o.strict)
      expect(refused(shots).length, `${msg}; ${proof} — the endpoint is not rate-limited`).toBeGreaterThan(0);
    throw new Undecided('no-429', `${msg}; this check needs a used-up budget (RATE-1 reports the missing limit)`);
  }
  return shots;
}

/**
 * Fire `expected + EXTRA` calls concurrently at a fresh window of `key` and count the
 * admitted ones: exactly `expected` (null = unlimited: all of UNLIMITED_PROBE). A burst the
 * evidence shows to have straddled a window boundary is tried once more in the next window.
 */
export async function admitsExactly(
  target: Target,
  key: RateKey,
  expected: number | null,
  what: string,
  o: { waitForOthers?: boolean } = {},
): Promise<Shot[]> {
  if (o.waitForOthers ?? true) await othersDone();
  await prepare(target);
  const clock = clockOf(target);
  const total = expected === null ? UNLIMITED_PROBE : expected + EXTRA;
  // A per-address burst may share its window with the harness's own calls from the default
  // address: they must not count, should the target wrongly keep one budget for all (RATE-2's
  // business). The burst goes at once; only a short count in such a shared window is tried
  // again (not counted as an attempt) after that window, in one of its own.
  const shared = key.cls === 'gateway' ? undefined : ipKey(key.cls, undefined).id;
  let alone = false;
  for (let attempt = 1; ; attempt++) {
    tooSlow(target, total, `count ${what} inside one window`);
    await clock.ready(alone && shared ? [key.id, shared] : [key.id], total, { fresh: true });
    const sharing = !alone && shared !== undefined && !clock.isFresh(shared);
    // A burst not done within a window has straddled a boundary: stop sending then.
    const shots = await volley(total, fireFor(target, key), { concurrency: CONCURRENCY, deadlineMs: clock.windowMs });
    clock.note([key.id], shots);
    const n = admitted(shots).length;
    if (shots.length < total)
      throw new Undecided(
        'timing',
        `${what}: only ${shots.length} of ${total} calls could be sent within one ${clock.windowMs / 1000}-second window (the machine is too slow or loaded)`,
      );
    if (sharing && n < (expected ?? total)) {
      alone = true;
      attempt--;
      continue;
    }
    if (expected === null) {
      expect(
        total - n,
        `${what}: ${total - n} of ${total} concurrent calls from ${key.label} answered 429 — ${CLASS[key.cls]} are unlimited on this edition`,
      ).toBe(0);
      return shots;
    }
    if (n === expected) return shots;
    const maxRemaining = Math.max(-1, ...shots.map((s) => s.remaining ?? -1));
    const why =
      clock.straddle(shots) ??
      (n < expected && maxRemaining >= 0 && maxRemaining < expected - 1
        ? `x-ratelimit-remaining started at ${maxRemaining}: the window was not fresh`
        : undefined);
    if (!why)
      expect(
        n,
        `${what}: of ${total} concurrent calls at a fresh window of ${key.label}, ${n} were admitted and ${total - n} answered 429 — exactly ${expected} must be admitted`,
      ).toBe(expected);
    if (/longer than a window/.test(why!))
      throw new Undecided(
        'timing',
        `${what}: ${n} of ${total} admitted, but ${why}: the machine is too slow or loaded to keep a burst inside one ${target.state.target.rate_window_seconds}-second window`,
      );
    if (attempt >= 2)
      throw new Undecided(
        'timing',
        `${what}: ${n} of ${total} admitted, but the burst could not be kept inside one window twice (${why}); the machine may be too slow for a ${target.state.target.rate_window_seconds}-second window`,
      );
  }
}

/** Gateway answers that carry x-ratelimit-limit must carry `expected`. */
export function expectLimitHeader(shots: Shot[], expected: number, what: string): void {
  const wrong = admitted(shots).filter((s) => s.limit !== undefined && s.limit !== expected);
  expect
    .soft(
      wrong.length,
      `${what}: ${wrong.length} answers carried x-ratelimit-limit ${wrong[0]?.limit}, not ${expected}`,
    )
    .toBe(0);
}

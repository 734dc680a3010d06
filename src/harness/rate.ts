/**
 * Rate-limit windows as the rate family sees them: bursts ("volleys") of calls at one key —
 * a base (gateway class) or a source address (account and auth-token classes) — started in
 * a fresh window, and the evidence that tells a burst that straddled a window boundary from
 * a limiter that miscounts. Timing never decides a verdict: it only decides when a burst
 * starts and whether it is tried again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RateClass } from '../spec/index.js';
import type { Reply, Target } from './target.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { harnessEnv } from '../common/harness-env.js';

/**
 * Playwright starts a new worker after a failed check, and module state dies with the old
 * one: the bookkeeping is kept in a file of the run's work folder so it survives that.
 */
const WORK = harnessEnv('workDir');
const BOOK = WORK ? join(WORK, 'rate-bookkeeping.json') : undefined;
interface Book {
  clocks: Record<string, { grid?: number; busyUntil: [string, number][]; callsPerMs: number }>;
  ipUse: [string, number][];
}
function readBook(): Book {
  try {
    if (BOOK && existsSync(BOOK)) return JSON.parse(readFileSync(BOOK, 'utf8')) as Book;
  } catch {
    // a torn write: start afresh
  }
  return { clocks: {}, ipUse: [] };
}
function saveBook(): void {
  if (!BOOK) return;
  const book: Book = {
    clocks: Object.fromEntries([...clocks].map(([url, c]) => [url, c.toJSON()])),
    ipUse: [...ipUse],
  };
  writeFileSync(BOOK, JSON.stringify(book));
}

export interface Shot {
  /** Index of the call in its volley. */
  i: number;
  status: number;
  /** Local clock (ms) when the call was sent and when its answer had arrived. */
  t0: number;
  t1: number;
  bytes: number;
  head: string;
  contentLength?: string;
  contentType?: string;
  limit?: number;
  remaining?: number;
  reset?: number;
  /** The server's clock (ms, from the Date header; whole seconds). */
  date?: number;
}

const intHeader = (v: string | undefined): number | undefined =>
  v !== undefined && /^\s*-?\d+\s*$/.test(v) ? Number(v) : undefined;
/** An `x-ratelimit-reset` that is a Unix time (not seconds-from-now). */
export const isUnixTime = (n: number | undefined): n is number => n !== undefined && n > 1_000_000_000;

function shotOf(r: Reply, t0: number, t1: number, i = 0): Shot {
  const date = r.header('date') ? Date.parse(r.header('date')!) : NaN;
  return {
    i,
    status: r.status,
    t0,
    t1,
    bytes: r.res.body.length,
    head: r.text.slice(0, 80),
    contentLength: r.header('content-length'),
    contentType: r.header('content-type'),
    limit: intHeader(r.header('x-ratelimit-limit')),
    remaining: intHeader(r.header('x-ratelimit-remaining')),
    reset: intHeader(r.header('x-ratelimit-reset')),
    date: Number.isFinite(date) ? date : undefined,
  };
}

export const admitted = (shots: readonly Shot[]) => shots.filter((s) => s.status !== 429);
export const refused = (shots: readonly Shot[]) => shots.filter((s) => s.status === 429);

/**
 * Fire `n` calls, at most `concurrency` in flight; with `stopOn429` no call is sent once a
 * 429 has arrived, with `deadlineMs` none once that long has passed since the first.
 */
export async function volley(
  n: number,
  fire: (i: number) => Promise<Reply>,
  o: { concurrency?: number; stopOn429?: boolean; deadlineMs?: number } = {},
): Promise<Shot[]> {
  const shots: Shot[] = [];
  let next = 0;
  let stop = false;
  const deadline = Date.now() + (o.deadlineMs ?? Number.POSITIVE_INFINITY);
  const worker = async () => {
    while (!stop && next < n && Date.now() < deadline) {
      const i = next++;
      const t0 = Date.now();
      let r: Reply;
      try {
        r = await fire(i);
      } catch (e) {
        stop = true;
        throw e;
      }
      const s = shotOf(r, t0, Date.now(), i);
      shots.push(s);
      if (o.stopOn429 && s.status === 429) stop = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, o.concurrency ?? 32)) }, worker));
  return shots;
}

/**
 * Window bookkeeping of one target: where window boundaries lie (learnt from absolute
 * `x-ratelimit-reset` values, else assumed aligned to the epoch), which keys this run has
 * used in the current window, and how fast calls go (to judge whether a burst fits).
 */
class RateClock {
  private grid?: number;
  private readonly busyUntil = new Map<string, number>();
  /** Calls per millisecond the harness reached in its last burst (optimistic until measured). */
  callsPerMs = 2;

  constructor(
    readonly windowMs: number,
    saved?: Book['clocks'][string],
  ) {
    if (saved) {
      this.grid = saved.grid;
      for (const [k, v] of saved.busyUntil) this.busyUntil.set(k, v);
      this.callsPerMs = saved.callsPerMs;
    }
  }

  toJSON(): Book['clocks'][string] {
    return { grid: this.grid, busyUntil: [...this.busyUntil], callsPerMs: this.callsPerMs };
  }

  /** Calls the harness can send in one window at the rate it last reached. */
  callsPerWindow(): number {
    return Math.floor(this.callsPerMs * this.windowMs);
  }

  /** How long after a boundary a burst starts: covers rounding of reset to whole seconds and small clock skew. */
  margin(): number {
    return Math.round(Math.min(250, Math.max(50, this.windowMs * 0.02)));
  }

  /** The first window boundary after `t`. */
  nextBoundary(t = Date.now()): number {
    const g = this.grid ?? 0;
    return g + (Math.floor((t - g) / this.windowMs) + 1) * this.windowMs;
  }

  /** Learn the boundary grid and the call rate from a burst; the keys stay busy until their window ends. */
  note(keys: readonly string[], shots: readonly Shot[]): void {
    if (shots.length === 0) return;
    const resets = shots.map((s) => s.reset).filter(isUnixTime);
    if (resets.length) this.grid = Math.max(...resets) * 1000;
    const start = Math.min(...shots.map((s) => s.t0));
    const end = Math.max(...shots.map((s) => s.t1));
    // Small bursts measure latency more than capacity: learn the rate from large ones only.
    if (shots.length >= 200 && end > start) this.callsPerMs = shots.length / (end - start);
    const until = Math.max(this.nextBoundary(end), resets.length ? Math.max(...resets) * 1000 : 0);
    for (const k of keys) this.busyUntil.set(k, Math.max(this.busyUntil.get(k) ?? 0, until));
    saveBook();
  }

  /** Keys touched by single calls (not bursts): busy until the end of the current window. */
  touch(keys: readonly string[]): void {
    const until = this.nextBoundary(Date.now());
    for (const k of keys) this.busyUntil.set(k, Math.max(this.busyUntil.get(k) ?? 0, until));
    saveBook();
  }

  isFresh(key: string, t = Date.now()): boolean {
    return (this.busyUntil.get(key) ?? 0) <= t;
  }

  /** When `key` is next free: the end of the window in which the run last used it (0 = never used). */
  freeAt(key: string): number {
    return this.busyUntil.get(key) ?? 0;
  }

  /**
   * Wait until the window has room for `calls` calls, else start just after the next
   * boundary; with `fresh`, first wait until none of `keys` has been used in the current
   * window.
   */
  async ready(keys: readonly string[], calls: number, o: { fresh?: boolean } = {}): Promise<void> {
    const now = Date.now();
    const busy = o.fresh === false ? 0 : Math.max(0, ...keys.map((k) => this.freeAt(k)));
    if (busy > now) {
      await sleep(busy - now + this.margin());
      return;
    }
    const room = this.nextBoundary(now) - now;
    const need = (calls / this.callsPerMs) * 1.5 + this.margin();
    if (room < need) await sleep(room + this.margin());
  }

  /** Evidence that a burst crossed a window boundary, or undefined. */
  straddle(shots: readonly Shot[]): string | undefined {
    if (shots.length === 0) return undefined;
    const resets = new Set(shots.map((s) => s.reset).filter(isUnixTime));
    if (resets.size > 1)
      return `x-ratelimit-reset changed during the burst (${[...resets].sort().join(', ')}): it spanned two windows`;
    const no = refused(shots);
    if (no.length) {
      const first429 = Math.min(...no.map((s) => s.t1));
      if (admitted(shots).some((s) => s.t0 > first429))
        return 'a call sent after a 429 had arrived was admitted: the budget came back during the burst (a new window)';
    }
    const start = Math.min(...shots.map((s) => s.t0));
    const end = Math.max(...shots.map((s) => s.t1));
    if (end - start >= this.windowMs) return `the burst took ${end - start} ms, longer than a window`;
    if (resets.size === 0) {
      const b = this.nextBoundary(start);
      if (b <= end)
        return `the burst (${end - start} ms, no x-ratelimit-reset to tell) may have crossed the window boundary expected at ${new Date(b).toISOString()}`;
    }
    return undefined;
  }
}

const clocks = new Map<string, RateClock>();
const ipUse = new Map<string, number>();
let loaded = false;
function load(): void {
  if (loaded) return;
  loaded = true;
  const book = readBook();
  for (const [k, v] of book.ipUse) ipUse.set(k, v);
  for (const [url, c] of Object.entries(book.clocks)) clocks.set(url, new RateClock(0, c));
}

/** The window bookkeeping of a target, kept for the whole rate phase. */
export function clockOf(target: Target): RateClock {
  load();
  let c = clocks.get(target.url);
  if (!c || c.windowMs !== target.windowMs()) {
    c = new RateClock(target.windowMs(), c?.toJSON());
    clocks.set(target.url, c);
  }
  return c;
}

/** A rate-limit key: what a burst is counted against. */
export interface RateKey {
  cls: RateClass;
  /** Bookkeeping id, e.g. `gateway:base:<uuid>` or `account:ip:127.0.0.2`. */
  id: string;
  /** For messages: `base #1 (Conformance A)`, `source address 127.0.0.2`. */
  label: string;
  base?: number;
  localAddress?: string;
}

/**
 * The source address of the rate family's gateway calls, when the run has addresses to
 * spare: one of its own, so that what a limiter counts per address (wrongly, for base
 * operations — RATE-2's business) is the rate family's calls only, never the other
 * families' calls from the default address that may run at the same time.
 */
export function gatewayAddress(target: Target): string | undefined {
  const ips = target.state.sourceIps;
  return ips.length >= 2 ? ips[0] : undefined;
}

export function baseKey(target: Target, i: number): RateKey {
  const b = target.base(i);
  return {
    cls: 'gateway',
    id: `gateway:base:${b.uuid}`,
    label: `base #${i + 1} (${b.name})`,
    base: i,
    localAddress: gatewayAddress(target),
  };
}

export function ipKey(cls: Exclude<RateClass, 'gateway'>, ip: string | undefined): RateKey {
  return {
    cls,
    id: `${cls}:ip:${ip ?? 'default'}`,
    label: ip ? `source address ${ip}` : 'the default source address',
    localAddress: ip,
  };
}

/** Base indexes, the one free soonest (unused in the current window) first. */
export function basesByFreshness(target: Target): number[] {
  const clock = clockOf(target);
  return target.state.target.bases
    .map((_, i) => i)
    .sort((a, b) => clock.freeAt(baseKey(target, a).id) - clock.freeAt(baseKey(target, b).id) || a - b);
}

/**
 * Source addresses for per-IP checks of `cls`: first those never used for `cls` in this run,
 * then those not used in the current window, least recently used first — so each check gets
 * an address of its own while there are enough. Empty when the run has none.
 */
export function pickIps(
  target: Target,
  cls: Exclude<RateClass, 'gateway'>,
  n: number,
  except: readonly string[] = [],
): string[] {
  const clock = clockOf(target);
  const rank = (ip: string) => [
    ipUse.get(`${target.url}|${cls}|${ip}`) === undefined ? 0 : 1,
    clock.isFresh(`account:ip:${ip}`) && clock.isFresh(`auth-token:ip:${ip}`) ? 0 : 1,
    ipUse.get(`${target.url}|*|${ip}`) ?? 0,
  ];
  const order = target.state.sourceIps
    .filter((ip) => !except.includes(ip) && ip !== gatewayAddress(target))
    .map((ip) => [ip, rank(ip)] as const);
  order.sort(([, a], [, b]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!);
  const picked = order.slice(0, n).map(([ip]) => ip);
  for (const ip of picked) {
    ipUse.set(`${target.url}|${cls}|${ip}`, Date.now());
    ipUse.set(`${target.url}|*|${ip}`, Date.now());
  }
  saveBook();
  return picked;
}

/** The cheapest harmless call of each class, counted against `key`. 429 is what a burst asks to see. */
export function fireFor(target: Target, key: RateKey): (i: number) => Promise<Reply> {
  const common = { raw429: true, localAddress: key.localAddress };
  switch (key.cls) {
    case 'gateway':
      return () =>
        target.call({
          ...common,
          method: 'GET',
          path: target.gatewayPath(key.base ?? 0, 'metadata/'),
          auth: { base: key.base ?? 0 },
          expect: [429],
        });
    case 'account':
      return () =>
        target.call({ ...common, method: 'GET', path: '/api/v2.1/universal-apps/', auth: 'account', expect: [429] });
    case 'auth-token':
      // An unknown user: a refused login is still a call of the endpoint, and no real account can be locked out.
      return () =>
        target.call({
          ...common,
          method: 'POST',
          path: '/api2/auth-token/',
          auth: 'none',
          form: { username: `conformance-nobody-${target.state.runId}@example.invalid`, password: 'not-the-password' },
          expect: [400, 429],
        });
  }
}

const prepared = new WeakSet<Target>();

/**
 * Obtain the account token and every base token before any burst, so obtaining them is
 * no part of one; they are account calls from the default address, so its keys count as
 * used in this window (a per-address burst that must not share a window with them waits).
 */
export async function prepare(target: Target): Promise<void> {
  if (prepared.has(target)) return;
  await target.accountToken();
  for (let i = 0; i < target.state.target.bases.length; i++) await target.baseToken(i);
  prepared.add(target);
  clockOf(target).touch([ipKey('account', undefined).id, ipKey('auth-token', undefined).id]);
}

/**
 * Use up `key`'s budget: calls until the first 429 (at most twice the limit and a margin,
 * so a burst that crosses a window boundary still ends in a 429; `ceiling`: the largest limit
 * the key may legitimately have, if more). It needs no fresh window
 * (a key already used up answers 429 at once), only room for the calls. Returns every shot.
 */
export async function exhaust(
  target: Target,
  key: RateKey,
  limit: number,
  o: { fresh?: boolean; ceiling?: number } = {},
): Promise<Shot[]> {
  await prepare(target);
  const clock = clockOf(target);
  await clock.ready([key.id], limit, { fresh: o.fresh ?? false });
  const shots = await volley(2 * Math.max(limit, o.ceiling ?? 0) + 64, fireFor(target, key), {
    concurrency: 32,
    stopOn429: true,
    deadlineMs: 2 * clock.windowMs,
  });
  clock.note([key.id], shots);
  return shots;
}

/**
 * Why a volley that saw no 429 proves the key unlimited, or undefined when it proves
 * nothing (the harness was too slow to send more than the limit inside one window).
 * Proof: more than `limit` calls admitted under one x-ratelimit-reset, or more than twice
 * the limit admitted within less than a window (two windows at most, whatever their alignment).
 */
export function unlimitedProof(shots: readonly Shot[], limit: number, windowMs: number): string | undefined {
  const ok = admitted(shots);
  const byReset = new Map<number, number>();
  for (const s of ok) if (isUnixTime(s.reset)) byReset.set(s.reset, (byReset.get(s.reset) ?? 0) + 1);
  const [reset, most] = [...byReset].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  if (most > limit)
    return `${most} calls were admitted in the one window ending at x-ratelimit-reset ${reset}, limit ${limit}`;
  const span = Math.max(...shots.map((s) => s.t1)) - Math.min(...shots.map((s) => s.t0));
  if (ok.length > 2 * limit && span < windowMs)
    return `${ok.length} calls were admitted within ${span} ms, less than one window, limit ${limit}`;
  return undefined;
}

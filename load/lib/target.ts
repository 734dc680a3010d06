/**
 * The target as a load script sees it: the target descriptor from `__ENV.TARGET` (JSON) or
 * `__ENV.TARGET_FILE` (read in the init context), the limits of its edition from the facts
 * module (overridable for a target configured otherwise, RATE-7), and loopback by default.
 */
import { RATE_LIMITS, RATE_WINDOW_SECONDS, SIZE_LIMITS, type Edition } from '../../src/spec/limits.js';
import { expandAddressRange } from '../../src/common/address-range.js';

export interface Base {
  name: string;
  uuid: string;
  api_token: string;
}
interface Target {
  url: string;
  edition: Edition;
  account_token?: string;
  bases: Base[];
  rate_window_seconds: number;
}

const DEFAULT_URL = 'http://127.0.0.1:8000';

function envNumber(name: string): number | undefined {
  const v = __ENV[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`__ENV.${name}=${v} is not a number`);
  return n;
}

function readTarget(): Target {
  const raw = __ENV.TARGET ? __ENV.TARGET : __ENV.TARGET_FILE ? open(__ENV.TARGET_FILE) : '';
  const d = (raw ? JSON.parse(raw) : {}) as Partial<Target>;
  const url = String(__ENV.TARGET_URL || d.url || DEFAULT_URL).replace(/\/+$/, '');
  const edition = (d.edition || 'self-hosted') as Edition;
  if (!RATE_LIMITS[edition]) throw new Error(`unknown edition ${edition}`);
  return {
    url,
    edition,
    account_token: d.account_token,
    bases: (d.bases || []).filter((b) => b && b.uuid && b.api_token),
    rate_window_seconds: envNumber('WINDOW_SECONDS') || d.rate_window_seconds || RATE_WINDOW_SECONDS,
  };
}

export const target: Target = readTarget();

/** Calls per window: the edition's limits (§8.1), unless `LIMIT_GATEWAY` / `LIMIT_ACCOUNT` say otherwise. */
export const limits = {
  gateway: envNumber('LIMIT_GATEWAY') || RATE_LIMITS[target.edition].gateway || 0,
  account: envNumber('LIMIT_ACCOUNT') || RATE_LIMITS[target.edition].account || 0,
  window: target.rate_window_seconds,
};

export { SIZE_LIMITS };

/** Source addresses VUs are bound to (`--local-ips` / `--source-ips`); VU n gets the n-th, round robin, as k6 hands them out. */
export function sourceIps(): string[] {
  const raw = __ENV.SOURCE_IPS || '';
  const out: string[] = [];
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const range = expandAddressRange(part);
    if (range)
      for (const a of range.slice(0, 1024 - out.length)) out.push(a); // no spread: emitted scripts stay free of it (report.test.ts)
    else out.push(part);
  }
  return out;
}

export function ipOfVu(vu: number, ips: string[]): string {
  return ips.length ? ips[(vu - 1) % ips.length] || 'default' : 'default';
}

/** An integer from the environment, with a default. */
export function envInt(name: string, dflt: number): number {
  const n = envNumber(name);
  return n === undefined ? dflt : Math.floor(n);
}

/**
 * Arrival-rate stages: a warm-up plateau at `start`, then `steps` plateaus up to `peak` (1 s
 * ramps, each held `holdSeconds`): capacity is then a rate held for a whole plateau, not passed by.
 */
export function stepStages(
  start: number,
  peak: number,
  steps: number,
  holdSeconds: number,
): { duration: string; target: number }[] {
  const out: { duration: string; target: number }[] = [{ duration: holdSeconds + 's', target: start }];
  const n = Math.max(1, steps);
  for (let i = 1; i <= n; i++) {
    const level = Math.round(start + ((peak - start) * i) / n);
    out.push({ duration: '1s', target: level }, { duration: holdSeconds + 's', target: level });
  }
  return out;
}

/**
 * `START_AT` (Unix seconds, the start of one of the target's rate windows): the instances of a
 * split run start their burst together at that window instead of each at the next one it
 * sees — two generators could see the next window on either side of a boundary. Waiting for
 * it is bounded (START_WAIT_SECONDS).
 */
export const START_AT = envInt('START_AT', 0);
export const START_WAIT_SECONDS = 300;

/** The Unix time a burst starts: START_AT when given, else the window end the target reported. */
export function burstStart(reset: number): number {
  if (START_AT <= 0) return reset;
  const ahead = START_AT - Date.now() / 1000;
  if (ahead < 0)
    throw new Error('START_AT ' + START_AT + ' has passed: give every instance the same window start in the future');
  if (ahead > START_WAIT_SECONDS)
    throw new Error('START_AT ' + START_AT + ' is more than ' + START_WAIT_SECONDS + ' s away');
  return START_AT;
}

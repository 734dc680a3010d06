/** The `k6` module: check, group, sleep, fail, randomSeed — with k6's metric side effects. */
import { baseTags, emit, sleepMs, state } from './vu-state.js';

type Checker = (v: unknown) => unknown;

/** Each entry emits one `checks` sample tagged with the check's name; true when all passed. */
export function check(val: unknown, sets: Record<string, Checker | unknown>, tags?: Record<string, unknown>): boolean {
  if (state.inInit) throw new Error('check() is not available in the init context');
  let all = true;
  const base = baseTags();
  const extra = stringTags(tags);
  for (const [name, fn] of Object.entries(sets ?? {})) {
    const ok = typeof fn === 'function' ? Boolean((fn as Checker)(val)) : Boolean(fn);
    emit('checks', ok ? 1 : 0, { ...base, ...extra, check: name });
    if (!ok) all = false;
  }
  return all;
}

/** Runs fn inside a group (`::outer::inner` tag) and emits group_duration. */
export function group<T>(name: string, fn: () => T): T {
  if (state.inInit) throw new Error('group() is not available in the init context');
  if (name.includes('::')) throw new Error('group and check names may not contain "::"');
  const outer = state.group;
  state.group = `${outer}::${name}`;
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    emit('group_duration', performance.now() - t0, baseTags());
    state.group = outer;
  }
}

/** Seconds, fractional allowed, as in k6. */
export function sleep(seconds: number): void {
  if (state.inInit) throw new Error('sleep() is not available in the init context');
  sleepMs(Number(seconds) * 1000);
}

export function fail(err?: string): never {
  throw new Error(err ?? '');
}

/** Seeds Math.random for this VU (k6 makes it deterministic per seed). */
export function randomSeed(seed: number): void {
  let s = Math.floor(Number(seed)) >>> 0 || 1;
  Math.random = () => {
    // mulberry32: small and good enough for reproducible test data.
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function stringTags(tags: Record<string, unknown> | undefined | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (tags && typeof tags === 'object') for (const [k, v] of Object.entries(tags)) out[k] = String(v);
  return out;
}

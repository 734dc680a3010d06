/** The `k6` module: check, group, sleep, fail, randomSeed — with k6's metric side effects. */
import { baseTags, emit, sleepMs, state, use } from './vu-state.js';

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

/** Enters group `name` (`::outer::inner` tag); the returned function leaves it and emits group_duration. */
function enterGroup(name: string): () => void {
  if (state.inInit) throw new Error('group() is not available in the init context');
  if (name.includes('::')) throw new Error('group and check names may not contain "::"');
  const s = state;
  const outer = s.group;
  s.group = `${outer}::${name}`;
  const t0 = performance.now();
  return () => {
    use(s);
    emit('group_duration', performance.now() - t0, baseTags());
    s.group = outer;
  };
}

/** Runs fn inside a group and emits group_duration; fn is awaited (the transform makes it async when it calls out). */
export async function group<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  const leave = enterGroup(name);
  try {
    return await fn();
  } finally {
    leave();
  }
}

/** Seconds, fractional allowed, as in k6. */
function sleepTime(seconds: number): number {
  if (state.inInit) throw new Error('sleep() is not available in the init context');
  return Number(seconds) * 1000;
}

export function sleep(seconds: number): Promise<void> {
  return sleepMs(sleepTime(seconds));
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

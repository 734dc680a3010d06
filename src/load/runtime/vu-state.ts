/**
 * The state of the VUs a thread runs: identity, iteration counters, current scenario and
 * group, the tags every sample carries, their samples on their way to the main thread, and
 * the awaited calls (HTTP, sleep) a hard stop must be able to end.
 */
import { parentPort } from 'node:worker_threads';
import {
  CTL,
  type Answer,
  type DeclaredMetric,
  type HttpRequestSpec,
  type Report,
  type ScenarioRef,
} from './protocol.js';
import * as samples from './samples.js';

export class Interrupted extends Error {
  constructor() {
    super('iteration interrupted');
    this.name = 'Interrupted';
  }
}

/** Thrown by exec.test.abort(): ends the run (k6 exit code 108). */
export class Aborted extends Error {
  constructor(readonly reason: string) {
    super(`test aborted: ${reason}`);
    this.name = 'Aborted';
  }
}

/** What a VU of this thread is: its identity, counters, scenario, group, tags and control words. */
export function newVuState(vu: number) {
  return {
    vu,
    vuInTest: vu,
    iterInScenario: 0,
    iterScenarioInInstance: 0,
    iterInInstance: 0,
    iterInTest: 0,
    scenario: null as ScenarioRef | null,
    scenarioStartedAt: 0,
    progress: () => 0,
    group: '',
    /** `__ENV`: the run's variables plus those of the VU's current scenario. */
    env: {} as Record<string, string>,
    /** `exec.vu.tags`: tags set by the script, added to every sample. */
    vuTags: {} as Record<string, string>,
    inInit: true,
    ctl: new Int32Array(new SharedArrayBuffer(16)),
    /** Ends whatever the VU awaits (an answer, a sleep, a ticket) when it is interrupted. */
    cancel: null as ((e: Error) => void) | null,
    /** The HTTP calls go through this thread's own client, on its event loop. */
    send: null as ((spec: HttpRequestSpec, done: (a: Answer) => void) => void) | null,
    /** The number naming the base tags (baseKey) and what it was computed from. */
    key: { scenario: null as ScenarioRef | null, group: '', version: -1, id: 0 },
  };
}
export type VuState = ReturnType<typeof newVuState>;

/**
 * The VU whose code runs now. A thread runs several VUs: the runner makes each VU current
 * again wherever its code resumes after an awaited call.
 */
export let state: VuState = newVuState(0);
export function use(s: VuState): void {
  state = s;
}

/** What all VUs of this thread share. */
export const thread = {
  globalTags: {} as Record<string, string>,
  lastFlush: Date.now(),
  newMetrics: [] as DeclaredMetric[],
  instance: new Int32Array(new SharedArrayBuffer(16)),
  testStart: Date.now(),
  optionsJSON: '{}',
};

/** Tags every sample of the current iteration carries (k6: scenario, group, global, vu tags). */
export function baseTags(): Record<string, string> {
  const t: Record<string, string> = { ...thread.globalTags };
  if (state.scenario) Object.assign(t, state.scenario.tags, { scenario: state.scenario.name });
  t.group = state.group;
  return Object.assign(t, state.vuTags);
}

/** Bumped whenever the script changes `exec.vu.tags` (set, delete or replace). */
let vuTagsVersion = 0;

/** `exec.vu.tags` as the script sees it: a plain object that tells when it changes. */
export function setVuTags(tags: Record<string, string>, s: VuState = state): void {
  vuTagsVersion++;
  s.vuTags = new Proxy(
    { ...tags },
    {
      set(t, k, v) {
        vuTagsVersion++;
        return Reflect.set(t, k, v);
      },
      deleteProperty(t, k) {
        vuTagsVersion++;
        return Reflect.deleteProperty(t, k);
      },
      defineProperty(t, k, d) {
        vuTagsVersion++;
        return Reflect.defineProperty(t, k, d);
      },
    },
  );
}

const baseIds = new Map<string, number>();

/**
 * A number naming the current base tags, recomputed only when the scenario, the group or the
 * VU tags change: samples find their tag set by this number (plus their own tags) instead of
 * serialising a tags object per sample.
 */
export function baseKey(): number {
  const k = state.key;
  if (state.scenario !== k.scenario || state.group !== k.group || vuTagsVersion !== k.version) {
    k.scenario = state.scenario;
    k.group = state.group;
    k.version = vuTagsVersion;
    const json = JSON.stringify(baseTags());
    let id = baseIds.get(json);
    if (id === undefined) baseIds.set(json, (id = baseIds.size));
    k.id = id;
  }
  return k.id;
}

export function emit(metric: string, value: number, tags: Record<string, string>): void {
  samples.push(samples.metricId(metric), samples.tagSetId(tags), value, Date.now());
}

function iterationTags(): Record<string, string> {
  const t = baseTags();
  t.group = '';
  return t;
}

const ITERATIONS = samples.metricId('iterations'),
  ITERATION_DURATION = samples.metricId('iteration_duration');

/** Iteration tag-set numbers by base-tag number (void when the numbering restarts). */
const iterationSets = new Map<number, number>();
samples.onRestart(() => iterationSets.clear());

/** An iteration's samples, tagged with the base tags outside any group (k6: group ''). */
export function emitIteration(durationMs: number): void {
  const saved = state.group;
  state.group = '';
  const base = baseKey();
  let id = iterationSets.get(base);
  if (id === undefined) iterationSets.set(base, (id = samples.newTagSet(iterationTags())));
  state.group = saved;
  const now = Date.now();
  samples.push(ITERATIONS, id, 1, now);
  samples.push(ITERATION_DURATION, id, durationMs, now);
}

/** Buffered samples (and metrics declared since the last batch) for a report to the main thread. */
export function takeSamples() {
  thread.lastFlush = Date.now();
  return samples.take();
}

/** Send buffered samples now (before a long sleep, when the buffer is full, every 200 ms). */
export function flush(): void {
  if (!samples.pending() && thread.newMetrics.length === 0) return;
  const metrics = thread.newMetrics.length ? thread.newMetrics.splice(0) : undefined;
  const b = takeSamples();
  if (b) post({ t: 'samples', b, ...(metrics ? { metrics } : {}) });
  else if (metrics)
    post({ t: 'samples', b: { names: [], tags: [], reset: false, data: new Float64Array(0) }, metrics });
}
samples.setOnFull(flush);

export function post(r: Report): void {
  const b = 'b' in r ? r.b : null;
  parentPort!.postMessage(r, b ? [b.data.buffer as ArrayBuffer] : []);
}

/**
 * An awaited call of a VU, one promise per call: `start` begins the work and calls
 * `done` with its result; a hard stop (`s.cancel`) rejects at once with Interrupted, runs
 * `onCancel`, and a result that comes later is dropped.
 */
function cancellable<T>(
  s: VuState,
  start: (done: (v: T) => void, fail: (e: unknown) => void) => void,
  onCancel?: () => void,
): Promise<T> {
  if (Atomics.load(s.ctl, CTL.interrupt) === 1) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    let over = false;
    const cancel = (e: Error) => {
      over = true;
      s.cancel = null;
      onCancel?.();
      reject(e);
    };
    s.cancel = cancel;
    start(
      (v) => {
        if (over) return;
        if (s.cancel === cancel) s.cancel = null;
        resolve(v);
      },
      (e) => {
        if (over) return;
        if (s.cancel === cancel) s.cancel = null;
        reject(e);
      },
    );
  });
}

/**
 * A request on this thread's HTTP client; `map` turns its answer into the call's result as it
 * arrives (one promise per request, not two), with the VU current. A hard stop drops the answer.
 */
export function exchange<T>(spec: HttpRequestSpec, map: (a: Answer) => T): Promise<T> {
  const s = state;
  const send = s.send;
  if (!send) return Promise.reject(new Error('this VU has no HTTP client'));
  return cancellable<T>(s, (done, fail) =>
    send(spec, (a) => {
      use(s);
      // The client calls this from its socket's events: an error here belongs to the script.
      let v: T;
      try {
        v = map(a);
      } catch (e) {
        fail(e);
        return;
      }
      done(v);
    }),
  );
}

/** Requests sent together (http.batch); the answers come back in order. */
export function exchangeAll(specs: readonly HttpRequestSpec[]): Promise<Answer[]> {
  const s = state;
  const send = s.send;
  if (!send) return Promise.reject(new Error('this VU has no HTTP client'));
  return cancellable(s, (done) => {
    const out: Answer[] = new Array(specs.length);
    let left = specs.length;
    if (left === 0) done(out);
    specs.forEach((spec, i) =>
      send(spec, (a) => {
        out[i] = a;
        if (--left === 0) done(out);
      }),
    );
  });
}

/** Sleep on a timer; a hard stop ends it at once. */
export function sleepMs(ms: number): Promise<void> {
  const s = state;
  if (Atomics.load(s.ctl, CTL.interrupt) === 1) return Promise.reject(new Interrupted());
  if (!(ms > 0)) return Promise.resolve();
  if (ms >= 100 || Date.now() - thread.lastFlush > 200) flush();
  let timer: NodeJS.Timeout | undefined;
  return cancellable<void>(
    s,
    (done) => {
      timer = setTimeout(done, ms);
    },
    () => clearTimeout(timer),
  );
}

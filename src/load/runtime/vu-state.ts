/**
 * The state of the VU this worker runs: identity, iteration counters, current scenario and
 * group, the tags every sample carries, and the buffer of samples sent to the main thread
 * with the next blocking call (so custom metrics cost no extra message).
 */
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { CTL, type DeclaredMetric, type Report, type Sample, type ScenarioRef } from './protocol.js';

export class Interrupted extends Error {
  constructor() { super('iteration interrupted'); this.name = 'Interrupted'; }
}

/** Thrown by exec.test.abort(): ends the run (k6 exit code 108). */
export class Aborted extends Error {
  constructor(readonly reason: string) { super(`test aborted: ${reason}`); this.name = 'Aborted'; }
}

export const state = {
  vu: 0,
  iterInScenario: 0,
  iterInInstance: 0,
  iterInTest: 0,
  scenario: null as ScenarioRef | null,
  scenarioStartedAt: 0,
  progress: () => 0,
  group: '',
  /** `exec.vu.tags`: tags set by the script, added to every sample. */
  vuTags: {} as Record<string, string>,
  globalTags: {} as Record<string, string>,
  samples: [] as Sample[],
  lastFlush: Date.now(),
  newMetrics: [] as DeclaredMetric[],
  ctl: new Int32Array(new SharedArrayBuffer(16)),
  instance: new Int32Array(new SharedArrayBuffer(16)),
  port: null as MessagePort | null,
  seq: 0,
  testStart: Date.now(),
  inInit: true,
  optionsJSON: '{}',
};

/** Tags every sample of the current iteration carries (k6: scenario, group, global, vu tags). */
export function baseTags(): Record<string, string> {
  const t: Record<string, string> = { ...state.globalTags };
  if (state.scenario) Object.assign(t, state.scenario.tags, { scenario: state.scenario.name });
  t.group = state.group;
  return Object.assign(t, state.vuTags);
}

export function emit(metric: string, value: number, tags: Record<string, string>): void {
  state.samples.push([metric, value, tags, Date.now()]);
  if (state.samples.length >= 512) flush();
}

export function takeSamples(): Sample[] {
  const s = state.samples;
  state.samples = [];
  state.lastFlush = Date.now();
  return s;
}

/** Send buffered samples now (before a long sleep, or when the buffer grows). */
export function flush(): void {
  if (state.samples.length === 0 && state.newMetrics.length === 0) return;
  const metrics = state.newMetrics.length ? state.newMetrics.splice(0) : undefined;
  post({ t: 'flush', s: takeSamples(), ...(metrics ? { metrics } : {}) });
}

export function post(r: Report): void {
  parentPort!.postMessage(r);
}

/** Post a request and block until the main thread answers on the response port. */
export function block<T>(r: Report): T {
  const ctl = state.ctl;
  const seq = ++state.seq;
  Atomics.store(ctl, CTL.wake, 0);
  post({ ...r, seq } as Report);
  for (;;) {
    while (Atomics.load(ctl, CTL.wake) === 0) Atomics.wait(ctl, CTL.wake, 0);
    if (Atomics.load(ctl, CTL.interrupt) === 1) throw new Interrupted();
    const m = receiveMessageOnPort(state.port!);
    if (!m) { Atomics.store(ctl, CTL.wake, 0); continue; }
    const msg = m.message as { seq: number; value: T };
    if (msg.seq === seq) return msg.value;
    // A stale answer of an interrupted call: drop it and keep waiting.
  }
}

/** Sleep without burning CPU; a hard stop wakes the VU and ends the iteration. */
export function sleepMs(ms: number): void {
  if (!(ms > 0)) return;
  if (ms >= 100 || Date.now() - state.lastFlush > 200) flush();
  const ctl = state.ctl;
  const end = Date.now() + ms;
  for (let left = ms; left > 0; left = end - Date.now()) {
    if (Atomics.load(ctl, CTL.interrupt) === 1) throw new Interrupted();
    Atomics.wait(ctl, CTL.interrupt, 0, left);
  }
  if (Atomics.load(ctl, CTL.interrupt) === 1) throw new Interrupted();
}

/**
 * The state of the VU this worker runs: identity, iteration counters, current scenario and
 * group, the tags every sample carries, its samples on their way to the main thread, and the
 * blocking exchange with its I/O thread through the mailbox.
 */
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { BELL, CTL, type DeclaredMetric, type HttpRequestSpec, type IoResult, type Report, type ScenarioRef } from './protocol.js';
import { MAILBOX_BYTES, REQ_AT, REQ_BYTES, RESP_AT, readAnswers, toIoRequest, writeRequests, writeViaPort } from './mailbox.js';
import { Reader, Writer } from './wire.js';
import * as samples from './samples.js';

export class Interrupted extends Error {
  constructor() { super('iteration interrupted'); this.name = 'Interrupted'; }
}

/** Thrown by exec.test.abort(): ends the run (k6 exit code 108). */
export class Aborted extends Error {
  constructor(readonly reason: string) { super(`test aborted: ${reason}`); this.name = 'Aborted'; }
}

const placeholder = new SharedArrayBuffer(MAILBOX_BYTES);

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
  lastFlush: Date.now(),
  newMetrics: [] as DeclaredMetric[],
  ctl: new Int32Array(placeholder),
  requests: new Writer(placeholder, REQ_AT, REQ_AT + REQ_BYTES),
  answers: new Reader(placeholder, RESP_AT),
  bell: new Int32Array(new SharedArrayBuffer(8)),
  slot: 0,
  port: null as MessagePort | null,
  seq: 0,
  instance: new Int32Array(new SharedArrayBuffer(16)),
  testStart: Date.now(),
  inInit: true,
  optionsJSON: '{}',
};

export function attachMailbox(mailbox: SharedArrayBuffer): void {
  state.ctl = new Int32Array(mailbox);
  state.requests = new Writer(mailbox, REQ_AT, REQ_AT + REQ_BYTES);
  state.answers = new Reader(mailbox, RESP_AT);
}

/** Tags every sample of the current iteration carries (k6: scenario, group, global, vu tags). */
export function baseTags(): Record<string, string> {
  const t: Record<string, string> = { ...state.globalTags };
  if (state.scenario) Object.assign(t, state.scenario.tags, { scenario: state.scenario.name });
  t.group = state.group;
  return Object.assign(t, state.vuTags);
}

/** Bumped whenever the script changes `exec.vu.tags` (set, delete or replace). */
let vuTagsVersion = 0;

/** `exec.vu.tags` as the script sees it: a plain object that tells when it changes. */
export function setVuTags(tags: Record<string, string>): void {
  vuTagsVersion++;
  state.vuTags = new Proxy({ ...tags }, {
    set(t, k, v) { vuTagsVersion++; return Reflect.set(t, k, v); },
    deleteProperty(t, k) { vuTagsVersion++; return Reflect.deleteProperty(t, k); },
    defineProperty(t, k, d) { vuTagsVersion++; return Reflect.defineProperty(t, k, d); },
  });
}

let keyScenario: ScenarioRef | null = null, keyGroup = '', keyVersion = -1, key = 0;
const baseIds = new Map<string, number>();

/**
 * A number naming the current base tags, recomputed only when the scenario, the group or the
 * VU tags change: samples find their tag set by this number (plus their own tags) instead of
 * serialising a tags object per sample.
 */
export function baseKey(): number {
  if (state.scenario !== keyScenario || state.group !== keyGroup || vuTagsVersion !== keyVersion) {
    keyScenario = state.scenario; keyGroup = state.group; keyVersion = vuTagsVersion;
    const json = JSON.stringify(baseTags());
    let id = baseIds.get(json);
    if (id === undefined) baseIds.set(json, (id = baseIds.size));
    key = id;
  }
  return key;
}

export function emit(metric: string, value: number, tags: Record<string, string>): void {
  samples.push(samples.metricId(metric), samples.tagSetId(tags), value, Date.now());
}

function iterationTags(): Record<string, string> {
  const t = baseTags();
  t.group = '';
  return t;
}

const ITERATIONS = samples.metricId('iterations'), ITERATION_DURATION = samples.metricId('iteration_duration');

/** An iteration's samples, tagged with the base tags outside any group (k6: group ''). */
export function emitIteration(durationMs: number): void {
  const saved = state.group;
  state.group = '';
  const id = samples.tagSetIdFor(`i${baseKey()}`, iterationTags);
  state.group = saved;
  const now = Date.now();
  samples.push(ITERATIONS, id, 1, now);
  samples.push(ITERATION_DURATION, id, durationMs, now);
}

/** Buffered samples (and metrics declared since the last batch) for a report to the main thread. */
export function takeSamples() {
  state.lastFlush = Date.now();
  return samples.take();
}

/** Send buffered samples now (before a long sleep, when the buffer is full, every 200 ms). */
export function flush(): void {
  if (!samples.pending() && state.newMetrics.length === 0) return;
  const metrics = state.newMetrics.length ? state.newMetrics.splice(0) : undefined;
  const b = takeSamples();
  if (b) post({ t: 'samples', b, ...(metrics ? { metrics } : {}) });
  else if (metrics) post({ t: 'samples', b: { names: [], tags: [], reset: false, data: new Float64Array(0) }, metrics });
}
samples.setOnFull(flush);

export function post(r: Report): void {
  const b = 'b' in r ? r.b : null;
  parentPort!.postMessage(r, b ? [b.data.buffer as ArrayBuffer] : []);
}

/**
 * Send requests to the I/O thread and block until their answers are in the mailbox. The VU
 * waits on the answer's sequence word, so neither a stale answer (of an interrupted call)
 * nor a wake-up between two answers can be mistaken for its own.
 */
export function exchange(reqs: readonly HttpRequestSpec[]): IoResult[] {
  if (!state.port) throw new Error('this VU has no I/O thread');
  const ctl = state.ctl;
  const seq = ++state.seq;
  if (!writeRequests(state.requests, reqs)) {
    writeViaPort(state.requests);
    state.port.postMessage({ seq, reqs: reqs.map(toIoRequest) });
  }
  Atomics.store(ctl, CTL.reqSeq, seq);
  const bell = state.bell;
  Atomics.or(bell, BELL.bits + (state.slot >> 5), 1 << (state.slot & 31));
  Atomics.add(bell, BELL.ring, 1);
  // A busy I/O thread drains the bits before it sleeps again: wake it only when it sleeps.
  if (Atomics.load(bell, BELL.asleep) === 1) Atomics.notify(bell, BELL.ring, 1);
  for (let have = Atomics.load(ctl, CTL.respSeq); have !== seq; have = Atomics.load(ctl, CTL.respSeq)) {
    if (Atomics.load(ctl, CTL.interrupt) === 1) throw new Interrupted();
    Atomics.wait(ctl, CTL.respSeq, have);
  }
  if (Atomics.load(ctl, CTL.interrupt) === 1) throw new Interrupted();
  const inline = readAnswers(state.answers);
  if (inline) return inline;
  for (let m = receiveMessageOnPort(state.port); m; m = receiveMessageOnPort(state.port)) {
    const msg = m.message as { seq: number; results: IoResult[] };
    if (msg.seq === seq) return msg.results;
  }
  throw new Error('the answer to an oversized call went missing');
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

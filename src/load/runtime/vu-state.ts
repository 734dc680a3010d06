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

export function emit(metric: string, value: number, tags: Record<string, string>): void {
  samples.push(samples.metricId(metric), samples.tagSetId(tags), value, Date.now());
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
  Atomics.notify(bell, BELL.ring, 1);
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

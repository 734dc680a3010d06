/**
 * An I/O thread: answers the HTTP calls of the VUs assigned to it, so the main thread (the
 * executors, their timing, the metrics) never waits behind sockets. VUs ring a shared
 * doorbell; the thread sleeps in Atomics.waitAsync between rings, and when it wakes it takes
 * every pending request at once — under load one wake-up serves many requests. Bundled into
 * plain CommonJS with undici (build.ts).
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { BELL, CTL, type IoRequest } from '../runtime/protocol.js';
import {
  RESP_AT,
  RESP_BYTES,
  REQ_AT,
  readRequests,
  toIoResult,
  writeAnswers,
  writeViaPort,
  type Answer,
} from '../runtime/mailbox.js';
import { Reader, Writer } from '../runtime/wire.js';
import { waitAsync } from '../runtime/wait-async.js';
import { HttpIo, warmHttp, type WarmServer } from './io.js';
import type { NetOptions } from './net-options.js';

export interface IoWorkerInit {
  bell: SharedArrayBuffer;
  maxBodyBytes?: number;
}

/** Main → I/O thread. */
export type IoCommand =
  | { t: 'vu'; slot: number; mailbox: SharedArrayBuffer; port: MessagePort; localAddress: string | undefined }
  | { t: 'forget'; slot: number }
  | { t: 'net'; net: NetOptions }
  | { t: 'close' };

interface Vu {
  ctl: Int32Array;
  reqs: Reader;
  answers: Writer;
  port: MessagePort;
  localAddress: string | undefined;
  /** The request taken last: an answer to any earlier one is stale (its VU was interrupted). */
  taken: number;
}

const init = workerData as IoWorkerInit;
const bell = new Int32Array(init.bell);
const io = new HttpIo({ ...(init.maxBodyBytes !== undefined ? { maxBodyBytes: init.maxBodyBytes } : {}) });
const vus: (Vu | undefined)[] = [];
/** Slots that rang before their registration arrived (the two travel different ways). */
const early = new Set<number>();
let words = 0;

function serve(slot: number): void {
  const vu = vus[slot];
  if (!vu) {
    early.add(slot);
    return;
  }
  const seq = Atomics.load(vu.ctl, CTL.reqSeq);
  if (seq === vu.taken) return;
  vu.taken = seq;
  let list = readRequests(vu.reqs);
  if (list === null) list = fromPort(vu.port, seq);
  if (list === null) return;
  const answers: Answer[] = new Array(list.length);
  let left = list.length;
  list.forEach((req, i) => {
    io.send(req, vu.localAddress, (a) => {
      answers[i] = a;
      if (--left === 0) answer(vu, seq, answers);
    });
  });
}

/** Oversized requests come on the port; older messages there belong to abandoned calls. */
function fromPort(port: MessagePort, seq: number): IoRequest[] | null {
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
    const msg = m.message as { seq: number; reqs: IoRequest[] };
    if (msg.seq === seq) return msg.reqs;
  }
  return null;
}

function answer(vu: Vu, seq: number, answers: Answer[]): void {
  if (vu.taken !== seq) return;
  if (!writeAnswers(vu.answers, answers)) {
    writeViaPort(vu.answers);
    vu.port.postMessage({ seq, results: answers.map(toIoResult) });
  }
  Atomics.store(vu.ctl, CTL.respSeq, seq);
  Atomics.notify(vu.ctl, CTL.respSeq);
}

function drain(): void {
  for (let w = 0; w < words; w++) {
    let bits = Atomics.exchange(bell, BELL.bits + w, 0);
    while (bits !== 0) {
      const b = 31 - Math.clz32(bits);
      bits &= ~(1 << b);
      serve(w * 32 + b);
    }
  }
}

let closing = false;

async function pump(): Promise<void> {
  while (!closing) {
    // Read the ring counter before draining: a ring during the drain makes the wait return at once.
    const seen = Atomics.load(bell, BELL.ring);
    drain();
    // Say so before sleeping: a VU that rings after this notifies; one that rang before, and
    // did not see it, changed the ring counter, so the wait below returns at once.
    Atomics.store(bell, BELL.asleep, 1);
    const w = waitAsync(bell, BELL.ring, seen);
    if (w.async) await w.value;
    Atomics.store(bell, BELL.asleep, 0);
  }
}

parentPort!.on('message', (c: IoCommand) => {
  if (c.t === 'vu') {
    const buf = c.mailbox;
    vus[c.slot] = {
      ctl: new Int32Array(buf),
      reqs: new Reader(buf, REQ_AT),
      answers: new Writer(buf, RESP_AT, RESP_AT + RESP_BYTES),
      port: c.port,
      localAddress: c.localAddress,
      taken: 0,
    };
    words = Math.max(words, (c.slot >> 5) + 1);
    // The VU may have rung already: its bit was either taken (and remembered) or not yet looked at.
    if (early.delete(c.slot)) serve(c.slot);
    drain();
  } else if (c.t === 'forget') {
    const vu = vus[c.slot];
    vu?.port.close();
    vus[c.slot] = undefined;
  } else if (c.t === 'net') {
    io.configure(c.net);
    parentPort!.postMessage('net');
  } else if (c.t === 'close') {
    closing = true;
    warm?.close();
    void io.close().then(() => parentPort!.postMessage('closed'));
  }
});

/**
 * Compile the HTTP path before any VU calls (see warmHttp); the port of the warm-up server
 * is published on the doorbell (-1 when there is none, so no VU waits for it).
 */
async function warmUp(): Promise<void> {
  const scratch = new Writer(new SharedArrayBuffer(RESP_AT + RESP_BYTES), RESP_AT, RESP_AT + RESP_BYTES);
  warm = await warmHttp(io, (a) => writeAnswers(scratch, [a]));
  Atomics.store(bell, BELL.warmPort, warm?.port ?? -1);
  Atomics.notify(bell, BELL.warmPort);
}
let warm: WarmServer | null = null;

void warmUp().finally(() => void pump());

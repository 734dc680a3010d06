/**
 * The I/O threads of a run and the assignment of VUs to them. One thread is the default: on
 * a small machine the target and the VUs need the other cores, and one event loop keeps
 * every VU's connections in one set of pools. `ioThreads` spreads the VUs round robin.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { BELL, type IoLink } from '../runtime/protocol.js';
import type { IoCommand, IoWorkerInit } from './io-worker.js';
import type { NetOptions } from './net-options.js';

/** VU slots per I/O thread: one doorbell bit each (the doorbell is 1 + SLOTS/32 words). */
const SLOTS = 1 << 16;

interface Thread {
  worker: Worker;
  bell: SharedArrayBuffer;
  next: number;
  free: number[];
}

export class IoPool {
  private readonly threads: Thread[] = [];
  private turn = 0;
  private readonly owner = new Map<IoLink, Thread>();

  constructor(workerFile: string, count: number, opts: { maxBodyBytes?: number } = {}) {
    for (let i = 0; i < Math.max(1, count); i++) {
      const bell = new SharedArrayBuffer((BELL.bits + SLOTS / 32) * 4);
      const init: IoWorkerInit = {
        bell,
        ...(opts.maxBodyBytes !== undefined ? { maxBodyBytes: opts.maxBodyBytes } : {}),
      };
      const worker = new Worker(workerFile, { workerData: init, execArgv: [], stdout: false, stderr: false });
      worker.unref();
      this.threads.push({ worker, bell, next: 0, free: [] });
    }
  }

  /** A VU's link to its I/O thread; the thread learns of the VU's mailbox and source address. */
  register(mailbox: SharedArrayBuffer, localAddress: string | undefined): IoLink {
    const t = this.threads[this.turn++ % this.threads.length]!;
    const slot = t.free.pop() ?? t.next++;
    if (slot >= SLOTS) throw new Error(`more than ${SLOTS} VUs on one I/O thread`);
    const { port1, port2 } = new MessageChannel();
    const cmd: IoCommand = { t: 'vu', slot, mailbox, port: port1, localAddress };
    t.worker.postMessage(cmd, [port1]);
    const link: IoLink = { bell: t.bell, slot, port: port2 };
    this.owner.set(link, t);
    return link;
  }

  /** The VU is gone: its slot may be reused. */
  forget(link: IoLink): void {
    const t = this.owner.get(link);
    if (!t) return;
    this.owner.delete(link);
    const cmd: IoCommand = { t: 'forget', slot: link.slot };
    t.worker.postMessage(cmd);
    t.free.push(link.slot);
  }

  /** The run's connection settings (known once its options are), before any VU sends a request. */
  async configure(net: NetOptions): Promise<void> {
    await Promise.all(
      this.threads.map(
        (t) =>
          new Promise<void>((resolve) => {
            const ack = (m: unknown) => {
              if (m === 'net') {
                t.worker.off('message', ack);
                resolve();
              }
            };
            t.worker.on('message', ack);
            const cmd: IoCommand = { t: 'net', net };
            t.worker.postMessage(cmd);
          }),
      ),
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled(
      this.threads.map(async (t) => {
        const closed = new Promise<void>((r) => {
          t.worker.once('message', () => r());
          t.worker.once('exit', () => r());
        });
        const cmd: IoCommand = { t: 'close' };
        t.worker.postMessage(cmd);
        // Pools close their sockets first; a thread that does not answer is ended anyway.
        await Promise.race([closed, new Promise((r) => setTimeout(r, 2000).unref())]);
        await t.worker.terminate();
      }),
    );
  }
}

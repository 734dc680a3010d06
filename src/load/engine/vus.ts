/**
 * The VU pool: one worker thread per VU, each with a mailbox its I/O thread answers. The
 * main thread only starts runs, stops and interrupts them, and takes in the VUs' sample
 * batches and reports.
 */
import { Worker } from 'node:worker_threads';
import { CTL, type Command, type IoLink, type Report, type WorkerInit } from '../runtime/protocol.js';
import { MAILBOX_BYTES } from '../runtime/mailbox.js';
import type { Collector } from './collect.js';
import type { IoPool } from './io-pool.js';

export type DoneReport = Extract<Report, { t: 'done' }>;
export type ReadyReport = Extract<Report, { t: 'ready' }>;

export interface PoolConfig {
  workerFile: string;
  code: string;
  env: Record<string, string>;
  scriptDir: string;
  optionsJSON: string;
  sourceIps: readonly string[];
  testStart: number;
  io: IoPool;
  collector: Collector;
  onAbort: (reason: string) => void;
  onError: (message: string) => void;
}

const GONE: DoneReport = { t: 'done', b: null, completed: 0, interrupted: true, errors: [] };

export class VU {
  busy = false;
  /** Taking iterations from an arrival-rate queue: active only while CTL.active says so. */
  queued = false;
  /** The worker has exited (crashed or terminated): it runs nothing more. */
  dead = false;
  private waiter: ((d: DoneReport) => void) | undefined;
  constructor(readonly id: number, readonly worker: Worker, readonly ctl: Int32Array, readonly localAddress: string | undefined) {}

  send(cmd: Command): Promise<DoneReport> {
    if (this.dead) return Promise.resolve(GONE);
    Atomics.store(this.ctl, CTL.interrupt, 0);
    Atomics.store(this.ctl, CTL.stop, 0);
    this.busy = true;
    this.queued = cmd.t === 'run' && cmd.mode === 'queue';
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.worker.postMessage(cmd);
    });
  }

  settle(d: DoneReport): void {
    this.busy = false;
    this.queued = false;
    const w = this.waiter;
    this.waiter = undefined;
    w?.(d);
  }

  /** Counted in k6's `vus`: running its loop, or (arrival rate) an iteration. */
  get active(): boolean { return this.busy && (!this.queued || Atomics.load(this.ctl, CTL.active) === 1); }

  /** Graceful: finish the current iteration, then stop looping. */
  stop(): void { Atomics.store(this.ctl, CTL.stop, 1); }

  /** Hard stop: the running iteration ends at its next blocking call (k6's interruption). */
  interrupt(): void {
    Atomics.store(this.ctl, CTL.interrupt, 1);
    Atomics.notify(this.ctl, CTL.respSeq);
    Atomics.notify(this.ctl, CTL.interrupt);
  }
}

export class VuPool {
  readonly all: VU[] = [];
  /** Every worker started, the setup VU included, so close() leaves no thread behind. */
  private readonly workers = new Set<Worker>();
  readonly instance = new Int32Array(new SharedArrayBuffer(16));
  private nextId = 1;
  constructor(private readonly cfg: PoolConfig) {}

  get initialized(): number { return this.all.length; }
  get active(): number { let n = 0; for (const v of this.all) if (v.active) n++; return n; }

  /** Start a VU and evaluate its init context. `id` 0 is the setup/teardown VU. */
  spawn(id = this.nextId++): Promise<VU> {
    const cfg = this.cfg;
    const mailbox = new SharedArrayBuffer(MAILBOX_BYTES);
    const ips = cfg.sourceIps;
    const localAddress = ips.length ? ips[(Math.max(id, 1) - 1) % ips.length] : undefined;
    const link: IoLink = cfg.io.register(mailbox, localAddress);
    const init: WorkerInit = {
      code: cfg.code, vu: id, env: cfg.env, mailbox, io: link, testStart: cfg.testStart,
      scriptDir: cfg.scriptDir, instance: this.instance.buffer as SharedArrayBuffer, options: cfg.optionsJSON,
    };
    const worker = new Worker(cfg.workerFile, { workerData: init, transferList: [link.port], execArgv: [], stdout: false, stderr: false });
    this.workers.add(worker);
    const vu = new VU(id, worker, new Int32Array(mailbox), localAddress);
    worker.once('exit', () => { this.workers.delete(worker); cfg.io.forget(link); });
    return new Promise((resolve, reject) => {
      worker.on('message', (r: Report) => {
        switch (r.t) {
          case 'ready':
            cfg.collector.declare(r.metrics);
            if (id > 0) { this.all.push(vu); Atomics.store(this.instance, 3, this.all.length); }
            (vu as VU & { ready?: ReadyReport }).ready = r;
            resolve(vu);
            break;
          case 'init-error': reject(new Error(`init context of VU ${id} failed: ${r.error}`)); break;
          case 'samples': cfg.collector.declare(r.metrics); cfg.collector.batch(id, r.b); break;
          case 'abort': cfg.collector.batch(id, r.b); cfg.onAbort(r.reason); break;
          case 'done':
            cfg.collector.declare(r.metrics);
            cfg.collector.batch(id, r.b);
            for (const e of r.errors) cfg.onError(`VU ${id}: ${e}`);
            vu.settle(r);
            break;
        }
      });
      worker.on('error', (e) => { cfg.onError(`VU ${id} crashed: ${e.message}`); vu.settle(GONE); reject(e); });
      worker.on('exit', () => { vu.dead = true; vu.settle(GONE); });
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.workers].map((w) => w.terminate()));
    this.all.length = 0;
  }
}

/**
 * The VU pool. VUs live on worker threads, many per thread, each thread sending its VUs'
 * HTTP itself; the setup VU (setup, teardown, handleSummary) has a thread of its own. The
 * main thread only starts runs, stops and interrupts them, and takes in the threads' sample
 * batches and the VUs' reports.
 */
import { Worker } from 'node:worker_threads';
import { CTL, CTL_BYTES, type Command, type Report, type WorkerCommand, type WorkerInit } from '../runtime/protocol.js';
import type { Collector } from './collect.js';
import { globalIndex, type Stripe } from './segment.js';
import type { NetOptions } from './net-options.js';

type DoneReport = Extract<Report, { t: 'done' }>;
export type ReadyReport = Extract<Report, { t: 'ready' }>;

interface PoolConfig {
  workerFile: string;
  /** The bundle made awaitable (transform/), as CommonJS. */
  code: string;
  /** Threads to spread the VUs over (at least 1). */
  threads: number;
  env: Record<string, string>;
  scriptDir: string;
  optionsJSON: string;
  sourceIps: readonly string[];
  testStart: number;
  /** Numbers VUs across a split run: local VU n is the stripe's n-th global one (k6's idInTest). */
  vuStripe: Stripe;
  /** Connection settings of the threads (set once the options are known, before the first VU but the setup VU). */
  net?: NetOptions;
  collector: Collector;
  onAbort: (reason: string) => void;
  onError: (message: string) => void;
}

/**
 * Node flags for the VU threads, from CONFORMANCE_LOAD_THREAD_FLAGS (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof` to profile them: a thread ignores the process's own flags).
 */
const THREAD_FLAGS = (process.env.CONFORMANCE_LOAD_THREAD_FLAGS ?? '').split(/\s+/).filter(Boolean);

const GONE: Omit<DoneReport, 'vu'> = { t: 'done', b: null, completed: 0, interrupted: true, errors: [] };

export class VU {
  busy = false;
  /** Taking iterations from an arrival-rate queue: active only while CTL.active says so. */
  queued = false;
  /** Its thread has exited (crashed or terminated): it runs nothing more. */
  dead = false;
  ready: ReadyReport | undefined;
  private waiter: ((d: DoneReport) => void) | undefined;
  constructor(
    readonly id: number,
    readonly worker: Worker,
    readonly ctl: Int32Array,
    readonly localAddress: string | undefined,
  ) {}

  send(cmd: Command): Promise<DoneReport> {
    if (this.dead) return Promise.resolve({ ...GONE, vu: this.id });
    Atomics.store(this.ctl, CTL.interrupt, 0);
    Atomics.store(this.ctl, CTL.stop, 0);
    this.busy = true;
    this.queued = cmd.t === 'run' && cmd.mode === 'queue';
    return new Promise((resolve) => {
      this.waiter = resolve;
      const msg: WorkerCommand = { ...cmd, vu: this.id };
      this.worker.postMessage(msg);
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
  get active(): boolean {
    return this.busy && (!this.queued || Atomics.load(this.ctl, CTL.active) === 1);
  }

  /** Graceful: finish the current iteration, then stop looping. */
  stop(): void {
    Atomics.store(this.ctl, CTL.stop, 1);
  }

  /** Hard stop: the running iteration ends at its next awaited call (k6's interruption). */
  interrupt(): void {
    Atomics.store(this.ctl, CTL.interrupt, 1);
    // Whatever the VU awaits is ended on its thread's event loop.
    const msg: WorkerCommand = { t: 'interrupt', vu: this.id };
    if (!this.dead) this.worker.postMessage(msg);
  }
}

/** A worker thread and the VUs it hosts; its samples are numbered per thread (collector source). */
interface Thread {
  worker: Worker;
  source: number;
  vus: Map<number, VU>;
  starting: Map<number, { resolve: (v: VU) => void; reject: (e: Error) => void }>;
}

export class VuPool {
  readonly all: VU[] = [];
  /** Every thread started, the setup VU's included, so close() leaves none behind. */
  private readonly threads = new Set<Thread>();
  private readonly shared: Thread[] = [];
  readonly instance = new Int32Array(new SharedArrayBuffer(16));
  private nextId = 1;
  private nextSource = 0;
  constructor(readonly cfg: PoolConfig) {}

  get initialized(): number {
    return this.all.length;
  }
  /** The VU threads (for the generator's health). */
  *workers(): Iterable<Worker> {
    for (const t of this.threads) yield t.worker;
  }
  get active(): number {
    let n = 0;
    for (const v of this.all) if (v.active) n++;
    return n;
  }

  /** The run's connection settings, once its options are known: for threads to come and the setup VU's. */
  configure(net: NetOptions): void {
    this.cfg.net = net;
    const msg: WorkerCommand = { t: 'net', net };
    for (const t of this.threads) t.worker.postMessage(msg);
  }

  /** Start a VU and evaluate its init context. `id` 0 is the setup/teardown VU (a thread of its own). */
  spawn(id = this.nextId++): Promise<VU> {
    const cfg = this.cfg;
    const ctl = new SharedArrayBuffer(CTL_BYTES);
    const ips = cfg.sourceIps;
    const localAddress = ips.length ? ips[(Math.max(id, 1) - 1) % ips.length] : undefined;
    const slot = (id - 1) % cfg.threads;
    const vuInTest = id > 0 ? globalIndex(cfg.vuStripe, id - 1) + 1 : 0;
    const host = id > 0 ? this.shared[slot] : undefined;
    if (host) {
      const vu = new VU(id, host.worker, new Int32Array(ctl), localAddress);
      const msg: WorkerCommand = { t: 'add', vu: id, vuInTest, ctl, localAddress };
      return this.expect(host, vu, () => host.worker.postMessage(msg));
    }
    const init: WorkerInit = {
      code: cfg.code,
      warm: id > 0,
      vu: id,
      vuInTest,
      ...(localAddress ? { localAddress } : {}),
      env: cfg.env,
      ctl,
      testStart: cfg.testStart,
      scriptDir: cfg.scriptDir,
      instance: this.instance.buffer as SharedArrayBuffer,
      options: cfg.optionsJSON,
      ...(cfg.net ? { net: cfg.net } : {}),
    };
    const worker = new Worker(cfg.workerFile, {
      workerData: init,
      execArgv: THREAD_FLAGS,
      stdout: false,
      stderr: false,
    });
    const t: Thread = { worker, source: this.nextSource++, vus: new Map(), starting: new Map() };
    this.threads.add(t);
    if (id > 0) this.shared[slot] = t;
    worker.on('message', (r: Report) => this.report(t, r));
    // An uncaught error ends the thread: 'exit' follows and settles its VUs.
    worker.on('error', (e) => {
      for (const vu of t.vus.values()) cfg.onError(`VU ${vu.id} crashed: ${e.message}`);
      for (const s of t.starting.values()) s.reject(e);
      t.starting.clear();
    });
    worker.once('exit', () => {
      this.threads.delete(t);
      for (const vu of t.vus.values()) {
        vu.dead = true;
        vu.settle({ ...GONE, vu: vu.id });
      }
      for (const s of t.starting.values()) s.reject(new Error('the VU thread exited during init'));
      t.starting.clear();
    });
    return this.expect(t, new VU(id, worker, new Int32Array(ctl), localAddress), () => undefined);
  }

  private expect(t: Thread, vu: VU, start: () => void): Promise<VU> {
    t.vus.set(vu.id, vu);
    return new Promise<VU>((resolve, reject) => {
      t.starting.set(vu.id, { resolve, reject });
      start();
    });
  }

  private report(t: Thread, r: Report): void {
    const cfg = this.cfg;
    switch (r.t) {
      case 'samples':
        cfg.collector.declare(r.metrics);
        cfg.collector.batch(t.source, r.b);
        return;
      case 'abort':
        cfg.collector.batch(t.source, r.b);
        cfg.onAbort(r.reason);
        return;
    }
    const vu = t.vus.get(r.vu);
    if (!vu) return;
    switch (r.t) {
      case 'ready':
        cfg.collector.declare(r.metrics);
        vu.ready = r;
        if (vu.id > 0) {
          this.all.push(vu);
          Atomics.store(this.instance, 3, this.all.length);
        }
        t.starting.get(vu.id)?.resolve(vu);
        t.starting.delete(vu.id);
        break;
      case 'init-error':
        t.vus.delete(vu.id);
        t.starting.get(vu.id)?.reject(new Error(`init context of VU ${vu.id} failed: ${r.error}`));
        t.starting.delete(vu.id);
        break;
      case 'done':
        cfg.collector.declare(r.metrics);
        cfg.collector.batch(t.source, r.b);
        for (const e of r.errors) cfg.onError(`VU ${vu.id}: ${e}`);
        vu.settle(r);
        break;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.threads].map((t) => t.worker.terminate()));
    this.all.length = 0;
  }
}

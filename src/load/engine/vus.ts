/**
 * The VU pool: one worker thread per VU. The main thread answers each VU's blocking HTTP call
 * (undici, bound to the VU's source address) and writes the answer to the VU's response port
 * before waking it with Atomics.notify.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { CTL, CTL_WORDS, type Command, type HttpResult, type Report, type WorkerInit } from '../runtime/protocol.js';
import type { Collector } from './collect.js';
import type { HttpIo } from './io.js';

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
  io: HttpIo;
  collector: Collector;
  onAbort: (reason: string) => void;
  onError: (message: string) => void;
}

export class VU {
  busy = false;
  /** The worker has exited (crashed or terminated): it runs nothing more. */
  dead = false;
  private waiter: ((d: DoneReport) => void) | undefined;
  constructor(readonly id: number, readonly worker: Worker, readonly ctl: Int32Array, readonly port: MessagePort, readonly localAddress: string | undefined) {}

  send(cmd: Command): Promise<DoneReport> {
    if (this.dead) return Promise.resolve({ t: 'done', s: [], completed: 0, interrupted: true, errors: [] });
    Atomics.store(this.ctl, CTL.interrupt, 0);
    Atomics.store(this.ctl, CTL.stop, 0);
    this.busy = true;
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.worker.postMessage(cmd);
    });
  }

  settle(d: DoneReport): void {
    this.busy = false;
    const w = this.waiter;
    this.waiter = undefined;
    w?.(d);
  }

  /** Graceful: finish the current iteration, then stop looping. */
  stop(): void { Atomics.store(this.ctl, CTL.stop, 1); }

  /** Hard stop: the running iteration ends at its next blocking call (k6's interruption). */
  interrupt(): void {
    Atomics.store(this.ctl, CTL.interrupt, 1);
    Atomics.store(this.ctl, CTL.wake, 1);
    Atomics.notify(this.ctl, CTL.wake);
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
  get active(): number { return this.all.filter((v) => v.busy).length; }

  /** Start a VU and evaluate its init context. `id` 0 is the setup/teardown VU. */
  spawn(id = this.nextId++): Promise<VU> {
    const cfg = this.cfg;
    const ctlBuf = new SharedArrayBuffer(CTL_WORDS * 4);
    const { port1, port2 } = new MessageChannel();
    const init: WorkerInit = {
      code: cfg.code, vu: id, env: cfg.env, ctl: ctlBuf, port: port2, testStart: cfg.testStart,
      scriptDir: cfg.scriptDir, instance: this.instance.buffer as SharedArrayBuffer, options: cfg.optionsJSON,
    };
    const worker = new Worker(cfg.workerFile, { workerData: init, transferList: [port2], execArgv: process.env.VU_EXEC_ARGV ? process.env.VU_EXEC_ARGV.split(' ') : [], stdout: false, stderr: false });
    const ips = cfg.sourceIps;
    this.workers.add(worker);
    worker.once('exit', () => this.workers.delete(worker));
    const vu = new VU(id, worker, new Int32Array(ctlBuf), port1, ips.length ? ips[(Math.max(id, 1) - 1) % ips.length] : undefined);
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
          case 'http': this.http(vu, r); break;
          case 'flush': cfg.collector.declare(r.metrics); cfg.collector.samples(r.s); break;
          case 'abort': cfg.collector.samples(r.s); cfg.onAbort(r.reason); break;
          case 'done':
            cfg.collector.declare(r.metrics);
            cfg.collector.samples(r.s);
            for (const e of r.errors) cfg.onError(`VU ${id}: ${e}`);
            vu.settle(r);
            break;
        }
      });
      worker.on('error', (e) => { cfg.onError(`VU ${id} crashed: ${e.message}`); vu.settle({ t: 'done', s: [], completed: 0, interrupted: true, errors: [] }); reject(e); });
      worker.on('exit', () => { vu.dead = true; vu.settle({ t: 'done', s: [], completed: 0, interrupted: true, errors: [] }); });
    });
  }

  private http(vu: VU, r: Extract<Report, { t: 'http' }>): void {
    const { collector, io } = this.cfg;
    if (r.s.length) collector.samples(r.s);
    const results: HttpResult[] = new Array(r.reqs.length);
    let left = r.reqs.length;
    r.reqs.forEach((spec, i) => {
      io.send(spec, vu.localAddress, (m) => {
        collector.http(spec, m, Date.now());
        results[i] = m.result;
        if (--left === 0) {
          vu.port.postMessage({ seq: r.seq, value: results });
          Atomics.store(vu.ctl, CTL.wake, 1);
          Atomics.notify(vu.ctl, CTL.wake);
        }
      });
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.workers].map((w) => w.terminate()));
    this.all.length = 0;
  }
}

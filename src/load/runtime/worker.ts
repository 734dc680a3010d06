/**
 * A VU thread. Each VU evaluates the script's init context in a scope of its own, then runs
 * iterations when the main thread says so — a loop of its own (closed executors), or
 * iterations taken from an arrival-rate scenario's queue.
 *
 * A thread runs many VUs over the bundle made awaitable (transform/) and sends their
 * requests itself, on its own event loop: no thread hand-over per request. Bundled by esbuild
 * into one CommonJS file (see build.ts), so each worker starts without a TypeScript loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { runInThisContext } from 'node:vm';
import * as core from './k6-core.js';
import * as http from './k6-http.js';
import * as metrics from './k6-metrics.js';
import * as execution from './k6-execution.js';
import {
  CTL,
  QUEUE,
  type Answer,
  type Command,
  type HttpRequestSpec,
  type WorkerCommand,
  type WorkerInit,
} from './protocol.js';
import { mute } from './samples.js';
import { HttpIo, warmHttp } from '../engine/io.js';
import {
  Aborted,
  Interrupted,
  emitIteration,
  flush,
  newVuState,
  post,
  setVuTags,
  state,
  takeSamples,
  thread,
  use,
  type VuState,
} from './vu-state.js';
import { globalIndex, type Stripe } from '../engine/segment.js';

const init = workerData as WorkerInit;
const I_COMPLETED = 0,
  I_INTERRUPTED = 1;

const esm = (ns: Record<string, unknown>, dflt: unknown = ns) => ({ __esModule: true, ...ns, default: dflt });
const MODULES: Record<string, unknown> = {
  k6: esm(core),
  'k6/http': esm({
    expectedStatuses: http.expectedStatuses,
    setResponseCallback: http.setResponseCallback,
    ExpectedStatuses: http.ExpectedStatuses,
    ...http.methods,
  }),
  'k6/metrics': esm(metrics),
  'k6/execution': esm(execution, {
    vu: execution.vu,
    scenario: execution.scenario,
    instance: execution.instance,
    test: execution.test,
  }),
  'k6/encoding': esm({
    b64encode: (s: string | ArrayBuffer, enc?: string) =>
      Buffer.from(typeof s === 'string' ? s : new Uint8Array(s)).toString(
        enc === 'rawurl' || enc === 'url' ? 'base64url' : 'base64',
      ),
    b64decode: (s: string, enc?: string, format?: string) => {
      const b = Buffer.from(s, enc === 'rawurl' || enc === 'url' ? 'base64url' : 'base64');
      return format === 's' ? b.toString() : b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    },
  }),
};

function requireModule(name: string): unknown {
  const m = MODULES[name];
  if (!m)
    throw new Error(
      `module "${name}" is not provided by the built-in runner (only k6, k6/http, k6/metrics, k6/execution, k6/encoding)`,
    );
  return m;
}

thread.instance = new Int32Array(init.instance);
thread.testStart = init.testStart;
thread.optionsJSON = init.options;

const g = globalThis as Record<string, unknown>;
Object.defineProperty(g, '__ENV', {
  get: () => state.env,
  set: (v: Record<string, string>) => {
    state.env = v;
  },
  configurable: true,
});
Object.defineProperty(g, '__VU', { get: () => state.vu, configurable: true });
Object.defineProperty(g, '__ITER', { get: () => state.iterInScenario, configurable: true });
g.open = (path: string, mode?: string) => {
  if (!state.inInit) throw new Error('open() is only available in the init context');
  const buf = readFileSync(isAbsolute(path) ? path : resolve(init.scriptDir, path));
  return mode === 'b' ? buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) : buf.toString('utf8');
};

/** A rejection carried as a value to the awaiting VU, which rethrows it once it is current again. */
class Thrown {
  constructor(readonly e: unknown) {}
}
const settle = (x: unknown) => (x instanceof Promise ? x.then(undefined, (e: unknown) => new Thrown(e)) : x);

type Script = (
  require: unknown,
  module: unknown,
  exports: unknown,
  back: (v: unknown) => unknown,
  settle: (x: unknown) => unknown,
) => void;
let compiled: Script | undefined;

interface Vu {
  s: VuState;
  script: Record<string, unknown>;
}
const vus = new Map<number, Vu>();

/** One HTTP client for all VUs of the thread, and its warm-up server. */
const io = new HttpIo({
  ...(init.maxBodyBytes !== undefined ? { maxBodyBytes: init.maxBodyBytes } : {}),
  ...(init.net ? { net: init.net } : {}),
});
// The first ArrayBuffer this thread detaches (a sample batch is transferred, vu-state.ts post)
// makes V8 throw away every optimised function that reads a typed array (its "array buffer
// detaching" protector): the parser, the socket's stream code. Detach one now, before the
// warm-up compiles them, so the run does not start by compiling them again.
const detached = new ArrayBuffer(8);
structuredClone(detached, { transfer: [detached] });
const warm = init.warm ? warmHttp(io) : undefined;
// VUs that sleep or wait for tickets still hand over what they measured.
setInterval(() => {
  if (Date.now() - thread.lastFlush > 200) flush();
}, 200).unref();

/**
 * A VU's requests: on this thread's client (a request spec is what the client takes, not
 * copied), on connections of the VU's own. The answer comes with its body still in its
 * chunks: the Response decodes it if the script reads it.
 */
const sendVia =
  (client: HttpIo, localAddress: string | undefined, vu: number) =>
  (spec: HttpRequestSpec, done: (a: Answer) => void): void =>
    client.send(spec, localAddress, done, vu);

async function addVu(
  id: number,
  inTest: number,
  ctl: SharedArrayBuffer,
  localAddress: string | undefined,
): Promise<void> {
  const s = newVuState(id);
  s.vuInTest = inTest;
  s.ctl = new Int32Array(ctl);
  s.send = sendVia(io, localAddress, id);
  s.env = { ...init.env };
  setVuTags({}, s);
  use(s);
  try {
    compiled ??= runInThisContext(`(function (require, module, exports, __k6b, __k6s) {${init.code}\n})`, {
      filename: 'script.js',
    }) as Script;
    const mod = { exports: {} as Record<string, unknown> };
    const back = (v: unknown) => {
      use(s);
      if (v instanceof Thrown) throw v.e;
      return v;
    };
    compiled(requireModule, mod, mod.exports, back, settle);
    const script = mod.exports;
    const opts = (script.options ?? {}) as { discardResponseBodies?: boolean; tags?: Record<string, unknown> };
    if (opts.discardResponseBodies) http.setDiscardResponseBodies(true);
    thread.globalTags = core.stringTags(opts.tags);
    s.inInit = false;
    vus.set(id, { s, script });
    await warmUp(s);
    use(s);
    post({
      t: 'ready',
      vu: id,
      options: JSON.stringify(script.options ?? {}),
      metrics: [...metrics.declared.values()],
      exports: Object.keys(script),
    });
  } catch (e) {
    post({ t: 'init-error', vu: id, error: describe(e) });
  }
}

/**
 * Compile the request path before the clock starts: calls to the thread's own loopback
 * server, never to the target; their samples are thrown away (the metric and tag numbering
 * they created still goes to the main thread).
 */
let warmedThread = false;
async function warmUp(s: VuState): Promise<void> {
  // The thread's code is shared by its VUs: the first one warms it for all.
  if (!warm || warmedThread) return;
  warmedThread = true;
  const port = (await warm)?.port ?? 0;
  if (port <= 0) return; // no warm-up server
  // No sample of the warm-up may reach a metric (a full buffer or the periodic flush would
  // send them): mute them; the names and tag sets it numbered still go to the main thread.
  mute(true);
  try {
    // One VU warms the code all VUs of the thread share, to the optimising compiler's
    // thresholds: a few thousand calls, ten at a time.
    const url = `http://127.0.0.1:${port}/`;
    const ten = Array.from({ length: 10 }, () => url);
    for (let i = 0; i < 300; i++) {
      use(s);
      await http.methods.batch(ten);
    }
    for (let i = 0; i < 500; i++) {
      use(s);
      await http.methods.get(url);
    }
  } catch {
    // A script option such as `throw` may make a failed call throw: warming is best effort.
  } finally {
    mute(false);
  }
  // Unmuted, the buffer holds no warm-up sample; the names and tag sets go.
  const b = takeSamples();
  if (b) post({ t: 'samples', b });
}

interface Outcome {
  completed: boolean;
  interrupted: boolean;
  error?: string;
  abort?: string;
}

/** The scenario's n-th iteration in this instance; across a split run it is the stripe's n-th global one. */
function number(s: VuState, n: number, stripe: Stripe): void {
  s.iterScenarioInInstance = n;
  s.iterInTest = globalIndex(stripe, n);
}

async function iterate(s: VuState, fn: (d: unknown) => unknown, data: unknown): Promise<Outcome> {
  use(s);
  s.group = '';
  const t0 = performance.now();
  let out: Outcome = { completed: true, interrupted: false };
  try {
    await fn(data);
  } catch (e) {
    if (e instanceof Interrupted) out = { completed: false, interrupted: true };
    else if (e instanceof Aborted) out = { completed: false, interrupted: false, abort: e.reason };
    else out = { completed: true, interrupted: false, error: describe(e) };
  }
  use(s);
  if (out.completed) {
    emitIteration(performance.now() - t0);
    Atomics.add(thread.instance, I_COMPLETED, 1);
  } else if (out.interrupted) Atomics.add(thread.instance, I_INTERRUPTED, 1);
  s.iterInScenario++;
  s.iterInInstance++;
  return out;
}

async function run(vu: Vu, cmd: Extract<Command, { t: 'run' }>): Promise<void> {
  const { s, script } = vu;
  const fn = script[cmd.scenario.exec];
  const errors: string[] = [];
  let completed = 0,
    interrupted = false,
    abort: string | undefined;
  if (typeof fn !== 'function') {
    post({
      t: 'done',
      vu: s.vu,
      b: takeSamples(),
      completed: 0,
      interrupted: false,
      errors: [`function "${cmd.scenario.exec}" not found in exports`],
    });
    return;
  }
  if (s.scenario?.name !== cmd.scenario.name) {
    s.iterInScenario = 0;
    s.scenarioStartedAt = Date.now();
  }
  s.scenario = cmd.scenario;
  Object.assign(s.env, cmd.scenario.env);
  const data = cmd.setupData === '' ? undefined : JSON.parse(cmd.setupData);
  const ctl = s.ctl;
  const one = async (): Promise<boolean> => {
    const o = await iterate(s, fn as (d: unknown) => unknown, data);
    if (o.completed) completed++;
    if (o.error && errors.length < 20) errors.push(o.error);
    if (o.interrupted) interrupted = true;
    if (o.abort !== undefined) abort = o.abort;
    if (Date.now() - thread.lastFlush > 200) flush();
    return !o.interrupted && o.abort === undefined;
  };
  if (cmd.mode === 'queue') await takeFromQueue(s, cmd, one);
  else {
    const counter = new Int32Array(cmd.counter);
    s.progress = () =>
      cmd.shared && cmd.total > 0
        ? Math.min(1, Atomics.load(counter, 0) / cmd.total)
        : cmd.deadline > 0
          ? Math.min(1, (Date.now() - s.scenarioStartedAt) / (cmd.deadline - s.scenarioStartedAt))
          : 0;
    for (let i = 0; i < cmd.iterations; i++) {
      if (Atomics.load(ctl, CTL.stop) === 1 || Atomics.load(ctl, CTL.interrupt) === 1) break;
      if (cmd.deadline > 0 && Date.now() >= cmd.deadline) break;
      const claim = Atomics.add(counter, 0, 1);
      if (cmd.shared && claim >= cmd.total) break;
      number(s, claim, cmd.stripe);
      if (!(await one())) break;
    }
  }
  use(s);
  if (abort !== undefined) post({ t: 'abort', vu: s.vu, reason: abort, b: takeSamples() });
  post({
    t: 'done',
    vu: s.vu,
    b: takeSamples(),
    completed,
    interrupted,
    errors,
    ...(thread.newMetrics.length ? { metrics: thread.newMetrics.splice(0) } : {}),
  });
}

/**
 * Arrival-rate iterations: wait idle until the main thread grants a ticket, take it, run one
 * iteration, report idle again. The VU is counted idle only while it waits here, so a ticket
 * is granted only when some VU is ready to take it at once (k6's dropped_iterations otherwise).
 */
async function takeFromQueue(
  s: VuState,
  cmd: Extract<Command, { mode: 'queue' }>,
  one: () => Promise<boolean>,
): Promise<void> {
  const q = new Int32Array(cmd.queue);
  const ctl = s.ctl;
  const local = localQueue(cmd.queue);
  s.progress = () =>
    cmd.deadline > 0 ? Math.min(1, (Date.now() - s.scenarioStartedAt) / (cmd.deadline - s.scenarioStartedAt)) : 0;
  Atomics.add(q, QUEUE.idle, 1);
  for (;;) {
    if (Atomics.load(ctl, CTL.interrupt) === 1) break;
    const ticket = await local.wait(s);
    use(s);
    if (ticket) {
      number(s, Atomics.add(q, QUEUE.next, 1), cmd.stripe);
      Atomics.store(ctl, CTL.active, 1);
      const go = await one();
      Atomics.store(ctl, CTL.active, 0);
      if (!go) break;
      Atomics.add(q, QUEUE.idle, 1);
      continue;
    }
    if (
      (Atomics.load(q, QUEUE.closed) === 1 && Atomics.load(q, QUEUE.tickets) <= 0) ||
      Atomics.load(ctl, CTL.stop) === 1
    )
      break;
  }
}

/**
 * A thread's side of an arrival-rate queue: its idle VUs park here and one waiter on
 * the shared word hands them the tickets, the VU that parked last first (its connection is
 * the warmest): one wake-up serves a burst, and few VUs stay busy where few suffice.
 */
interface Parked {
  s: VuState;
  wake: (ticket: boolean) => void;
}
const queues = new Map<SharedArrayBuffer, ReturnType<typeof newLocalQueue>>();
function localQueue(buf: SharedArrayBuffer) {
  let lq = queues.get(buf);
  if (!lq) queues.set(buf, (lq = newLocalQueue(new Int32Array(buf), () => queues.delete(buf))));
  return lq;
}

function newLocalQueue(q: Int32Array, done: () => void) {
  const parked: Parked[] = [];
  let pumping = false;
  const release = (p: Parked) => {
    p.s.cancel = null;
    p.wake(false);
  };
  async function pump(): Promise<void> {
    pumping = true;
    while (parked.length) {
      const seen = Atomics.load(q, QUEUE.seq);
      while (parked.length) {
        const t = Atomics.load(q, QUEUE.tickets);
        if (t <= 0) break;
        if (Atomics.compareExchange(q, QUEUE.tickets, t, t - 1) !== t) continue;
        const p = parked.pop()!;
        p.s.cancel = null;
        p.wake(true);
      }
      if (!parked.length) break;
      if (Atomics.load(q, QUEUE.closed) === 1) {
        for (const p of parked.splice(0)) release(p);
        break;
      }
      const w = waitAsync(q, QUEUE.seq, seen, 200);
      if (w.async && (await w.value) === 'timed-out') {
        // Now and then, let parked VUs look at their stop flags.
        for (let i = parked.length - 1; i >= 0; i--)
          if (Atomics.load(parked[i]!.s.ctl, CTL.stop) === 1) release(parked.splice(i, 1)[0]!);
      }
    }
    pumping = false;
    if (Atomics.load(q, QUEUE.closed) === 1) done();
  }
  return {
    /** Resolves true holding a ticket, or false when the VU should look at its flags. */
    wait(s: VuState): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        const p: Parked = { s, wake: resolve };
        parked.push(p);
        s.cancel = () => {
          const i = parked.indexOf(p);
          if (i >= 0) parked.splice(i, 1);
          release(p);
        };
        if (!pumping) void pump();
      });
    },
  };
}

async function call(vu: Vu, cmd: Extract<Command, { t: 'call' }>): Promise<void> {
  const { s, script } = vu;
  const fn = script[cmd.fn];
  use(s);
  s.scenario = null;
  // k6 reports setup()'s and teardown()'s samples in the groups ::setup and ::teardown.
  s.group = cmd.fn === 'handleSummary' ? '' : `::${cmd.fn}`;
  const errors: string[] = [];
  let result: string | undefined;
  try {
    if (typeof fn === 'function') {
      const arg = cmd.arg === '' ? undefined : JSON.parse(cmd.arg);
      const r = await (fn as (a: unknown) => unknown)(arg);
      result = r === undefined ? undefined : JSON.stringify(r);
    }
  } catch (e) {
    if (e instanceof Aborted) post({ t: 'abort', vu: s.vu, reason: e.reason, b: takeSamples() });
    else errors.push(describe(e));
  }
  use(s);
  post({
    t: 'done',
    vu: s.vu,
    b: takeSamples(),
    completed: 0,
    interrupted: false,
    errors,
    ...(result !== undefined ? { result } : {}),
  });
}

parentPort!.on('message', (cmd: WorkerCommand) => {
  if (cmd.t === 'exit') {
    process.exit(0);
    return;
  }
  if (cmd.t === 'add') {
    void addVu(cmd.vu, cmd.vuInTest, cmd.ctl, cmd.localAddress);
    return;
  }
  if (cmd.t === 'net') {
    io.configure(cmd.net);
    return;
  }
  const vu = vus.get(cmd.vu);
  if (!vu) return;
  if (cmd.t === 'interrupt') vu.s.cancel?.(new Interrupted());
  else if (cmd.t === 'run') void run(vu, cmd);
  else if (cmd.t === 'call') void call(vu, cmd);
});

void addVu(init.vu, init.vuInTest, init.ctl, init.localAddress);

/** Atomics.waitAsync: in V8 since Node 16, typed only in TypeScript's ES2024 lib (newer than this project's). */
type WaitAsync = (
  a: Int32Array,
  i: number,
  v: number,
  ms?: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync.bind(Atomics);

function describe(e: unknown): string {
  if (e instanceof Error) return e.stack ? e.stack.split('\n').slice(0, 4).join('\n') : `${e.name}: ${e.message}`;
  return String(e);
}

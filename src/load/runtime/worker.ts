/**
 * A VU: one worker thread that evaluates the script's init context, then runs iterations
 * when the main thread says so — a loop of its own (closed executors), or iterations taken
 * from an arrival-rate scenario's queue. Bundled by esbuild into one CommonJS file (see
 * build.ts), so each worker starts without a TypeScript loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { runInThisContext } from 'node:vm';
import * as core from './k6-core.js';
import * as http from './k6-http.js';
import * as metrics from './k6-metrics.js';
import * as execution from './k6-execution.js';
import { BELL, CTL, QUEUE, type Command, type WorkerInit } from './protocol.js';
import { Aborted, Interrupted, attachMailbox, emitIteration, flush, post, setVuTags, state, takeSamples } from './vu-state.js';

const init = workerData as WorkerInit;
const I_COMPLETED = 0, I_INTERRUPTED = 1;

const esm = (ns: Record<string, unknown>, dflt: unknown = ns) => ({ __esModule: true, ...ns, default: dflt });
const MODULES: Record<string, unknown> = {
  k6: esm(core),
  'k6/http': esm(http),
  'k6/metrics': esm(metrics),
  'k6/execution': esm(execution, { vu: execution.vu, scenario: execution.scenario, instance: execution.instance, test: execution.test }),
  'k6/encoding': esm({
    b64encode: (s: string | ArrayBuffer, enc?: string) => Buffer.from(typeof s === 'string' ? s : new Uint8Array(s)).toString(enc === 'rawurl' || enc === 'url' ? 'base64url' : 'base64'),
    b64decode: (s: string, enc?: string, format?: string) => { const b = Buffer.from(s, enc === 'rawurl' || enc === 'url' ? 'base64url' : 'base64'); return format === 's' ? b.toString() : b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); },
  }),
};

function requireModule(name: string): unknown {
  const m = MODULES[name];
  if (!m) throw new Error(`module "${name}" is not provided by the built-in runner (only k6, k6/http, k6/metrics, k6/execution, k6/encoding)`);
  return m;
}

state.vu = init.vu;
attachMailbox(init.mailbox);
if (init.io) { state.bell = new Int32Array(init.io.bell); state.slot = init.io.slot; state.port = init.io.port; }
state.instance = new Int32Array(init.instance);
setVuTags({});
state.testStart = init.testStart;
state.optionsJSON = init.options;

const g = globalThis as Record<string, unknown>;
g.__ENV = { ...init.env };
Object.defineProperty(g, '__VU', { get: () => state.vu, configurable: true });
Object.defineProperty(g, '__ITER', { get: () => state.iterInScenario, configurable: true });
g.open = (path: string, mode?: string) => {
  if (!state.inInit) throw new Error('open() is only available in the init context');
  const buf = readFileSync(isAbsolute(path) ? path : resolve(init.scriptDir, path));
  return mode === 'b' ? buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) : buf.toString('utf8');
};

let script: Record<string, unknown> = {};
try {
  const mod = { exports: {} as Record<string, unknown> };
  const fn = runInThisContext(`(function (require, module, exports) {${init.code}\n})`, { filename: 'script.js' }) as (r: unknown, m: unknown, e: unknown) => void;
  fn(requireModule, mod, mod.exports);
  script = mod.exports;
  const opts = (script.options ?? {}) as { discardResponseBodies?: boolean; tags?: Record<string, unknown> };
  if (opts.discardResponseBodies) http.setDiscardResponseBodies(true);
  state.globalTags = core.stringTags(opts.tags);
  state.inInit = false;
  warmUp();
  post({ t: 'ready', options: JSON.stringify(script.options ?? {}), metrics: [...metrics.declared.values()], exports: Object.keys(script) });
} catch (e) {
  post({ t: 'init-error', error: describe(e) });
}

/**
 * Compile the request path before the clock starts (see the I/O thread's warm-up): a few
 * dozen calls to the I/O thread's own loopback server, never to the target; their samples
 * are thrown away (the metric and tag numbering they created still goes to the main thread).
 */
function warmUp(): void {
  if (!state.port) return; // options inspection: no I/O thread
  Atomics.wait(state.bell, BELL.warmPort, 0, 5000);
  const port = Atomics.load(state.bell, BELL.warmPort);
  if (port <= 0) return;
  try {
    for (let i = 0; i < 60; i++) http.get(`http://127.0.0.1:${port}/`);
  } catch {
    // A script option such as `throw` may make a failed call throw: warming is best effort.
  }
  const b = takeSamples();
  if (b) post({ t: 'samples', b: { ...b, data: new Float64Array(0) } });
}

interface Outcome { completed: boolean; interrupted: boolean; error?: string; abort?: string }

function iterate(fn: (d: unknown) => unknown, data: unknown): Outcome {
  state.group = '';
  const t0 = performance.now();
  let out: Outcome = { completed: true, interrupted: false };
  try {
    fn(data);
  } catch (e) {
    if (e instanceof Interrupted) out = { completed: false, interrupted: true };
    else if (e instanceof Aborted) out = { completed: false, interrupted: false, abort: e.reason };
    else out = { completed: true, interrupted: false, error: describe(e) };
  }
  if (out.completed) {
    emitIteration(performance.now() - t0);
    Atomics.add(state.instance, I_COMPLETED, 1);
  } else if (out.interrupted) Atomics.add(state.instance, I_INTERRUPTED, 1);
  state.iterInScenario++;
  state.iterInInstance++;
  return out;
}

function run(cmd: Extract<Command, { t: 'run' }>): void {
  const fn = script[cmd.scenario.exec];
  const errors: string[] = [];
  let completed = 0, interrupted = false, abort: string | undefined;
  if (typeof fn !== 'function') {
    post({ t: 'done', b: takeSamples(), completed: 0, interrupted: false, errors: [`function "${cmd.scenario.exec}" not found in exports`] });
    return;
  }
  if (state.scenario?.name !== cmd.scenario.name) { state.iterInScenario = 0; state.scenarioStartedAt = Date.now(); }
  state.scenario = cmd.scenario;
  Object.assign(g.__ENV as Record<string, string>, cmd.scenario.env);
  const data = cmd.setupData === '' ? undefined : JSON.parse(cmd.setupData);
  const ctl = state.ctl;
  const one = (): boolean => {
    const o = iterate(fn as (d: unknown) => unknown, data);
    if (o.completed) completed++;
    if (o.error && errors.length < 20) errors.push(o.error);
    if (o.interrupted) interrupted = true;
    if (o.abort !== undefined) abort = o.abort;
    if (Date.now() - state.lastFlush > 200) flush();
    return !o.interrupted && o.abort === undefined;
  };
  if (cmd.mode === 'queue') takeFromQueue(cmd, one);
  else {
    const shared = cmd.shared ? new Int32Array(cmd.shared) : null;
    state.progress = () => (cmd.total > 0 && shared ? Math.min(1, Atomics.load(shared, 0) / cmd.total) : cmd.deadline > 0 ? Math.min(1, (Date.now() - state.scenarioStartedAt) / (cmd.deadline - state.scenarioStartedAt)) : 0);
    for (let i = 0; i < cmd.iterations; i++) {
      if (Atomics.load(ctl, CTL.stop) === 1 || Atomics.load(ctl, CTL.interrupt) === 1) break;
      if (cmd.deadline > 0 && Date.now() >= cmd.deadline) break;
      if (shared) {
        const claim = Atomics.add(shared, 0, 1);
        if (claim >= cmd.total) break;
        state.iterInTest = claim;
      } else state.iterInTest = state.iterInScenario;
      if (!one()) break;
    }
  }
  if (abort !== undefined) post({ t: 'abort', reason: abort, b: takeSamples() });
  post({ t: 'done', b: takeSamples(), completed, interrupted, errors, ...(state.newMetrics.length ? { metrics: state.newMetrics.splice(0) } : {}) });
}

/**
 * Arrival-rate iterations: wait idle until the main thread grants a ticket, take it, run one
 * iteration, report idle again. The VU is counted idle only while it waits here, so a ticket
 * is granted only when some VU is ready to take it at once (k6's dropped_iterations otherwise).
 */
function takeFromQueue(cmd: Extract<Command, { mode: 'queue' }>, one: () => boolean): void {
  const q = new Int32Array(cmd.queue);
  const ctl = state.ctl;
  state.progress = () => (cmd.deadline > 0 ? Math.min(1, (Date.now() - state.scenarioStartedAt) / (cmd.deadline - state.scenarioStartedAt)) : 0);
  Atomics.add(q, QUEUE.idle, 1);
  for (;;) {
    if (Atomics.load(ctl, CTL.interrupt) === 1) break;
    const seen = Atomics.load(q, QUEUE.seq);
    const t = Atomics.load(q, QUEUE.tickets);
    if (t > 0) {
      if (Atomics.compareExchange(q, QUEUE.tickets, t, t - 1) !== t) continue;
      state.iterInTest = Atomics.add(q, QUEUE.next, 1);
      Atomics.store(ctl, CTL.active, 1);
      const go = one();
      Atomics.store(ctl, CTL.active, 0);
      if (!go) break;
      Atomics.add(q, QUEUE.idle, 1);
      continue;
    }
    if (Atomics.load(q, QUEUE.closed) === 1 || Atomics.load(ctl, CTL.stop) === 1) break;
    // Idle: hand over what was measured, then sleep until a grant (or 200 ms, to flush again).
    if (Date.now() - state.lastFlush > 200) flush();
    Atomics.wait(q, QUEUE.seq, seen, 200);
  }
}

function call(cmd: Extract<Command, { t: 'call' }>): void {
  const fn = script[cmd.fn];
  const saved = state.vu;
  state.vu = 0;
  state.scenario = null;
  // k6 reports setup()'s and teardown()'s samples in the groups ::setup and ::teardown.
  state.group = cmd.fn === 'handleSummary' ? '' : `::${cmd.fn}`;
  const errors: string[] = [];
  let result: string | undefined;
  try {
    if (typeof fn === 'function') {
      const arg = cmd.arg === '' ? undefined : JSON.parse(cmd.arg);
      const r = (fn as (a: unknown) => unknown)(arg);
      result = r === undefined ? undefined : JSON.stringify(r);
    }
  } catch (e) {
    if (e instanceof Aborted) post({ t: 'abort', reason: e.reason, b: takeSamples() });
    else errors.push(describe(e));
  }
  state.vu = saved;
  post({ t: 'done', b: takeSamples(), completed: 0, interrupted: false, errors, ...(result !== undefined ? { result } : {}) });
}

parentPort!.on('message', (cmd: Command) => {
  if (cmd.t === 'run') run(cmd);
  else if (cmd.t === 'call') call(cmd);
  else if (cmd.t === 'exit') process.exit(0);
});

function describe(e: unknown): string {
  if (e instanceof Error) return e.stack ? e.stack.split('\n').slice(0, 4).join('\n') : `${e.name}: ${e.message}`;
  return String(e);
}

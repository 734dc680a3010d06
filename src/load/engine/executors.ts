/**
 * k6's executors on the VU pool. Closed models (shared-iterations, per-vu-iterations,
 * constant-vus) hand each VU a loop it runs by itself, with a shared atomic counter for
 * shared iterations. Arrival-rate executors keep the clock on the main thread: at each
 * scheduled start they grant a ticket if a VU is idle — idle VUs wait on a shared queue and
 * take tickets themselves — and count `dropped_iterations` when none is (allocating more, up
 * to maxVUs, as k6 does). Every executor ends at its duration/maxDuration; iterations still
 * running after gracefulStop are interrupted.
 */
import { QUEUE, QUEUE_WORDS, type ScenarioRef } from '../runtime/protocol.js';
import type { Collector } from './collect.js';
import type { Scenario } from './options.js';
import { ArrivalSchedule, type Part } from './plan.js';
import type { VU, VuPool } from './vus.js';

export interface ExecContext {
  pool: VuPool;
  collector: Collector;
  setupData: string;
  /** Resolves when the run is aborted (exec.test.abort, a threshold with abortOnFail). */
  aborted: Promise<void>;
  owner: Map<VU, string>;
}

interface ExecResult {
  completed: number;
  interrupted: boolean;
  dropped: number;
  attempted: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)).unref?.());

function ref(s: Scenario, startedAt: number): ScenarioRef {
  return { name: s.name, executor: s.executor, startTime: startedAt, exec: s.exec, env: s.env, tags: s.tags };
}

/** VUs owned by this scenario: free ones from the pool first, then new ones. */
async function acquire(ctx: ExecContext, n: number, name: string): Promise<VU[]> {
  const got: VU[] = [];
  for (const v of ctx.pool.all) {
    if (got.length >= n) break;
    if (!v.busy && !v.dead && !ctx.owner.has(v)) {
      ctx.owner.set(v, name);
      got.push(v);
    }
  }
  while (got.length < n) {
    const v = await ctx.pool.spawn();
    ctx.owner.set(v, name);
    got.push(v);
  }
  return got;
}

function release(ctx: ExecContext, vus: readonly VU[]): void {
  for (const v of vus) ctx.owner.delete(v);
}

/** Wait for the VUs' loops; stop them at `endAt`, interrupt them gracefulStop (plus `extraMs`) later. */
async function supervise(
  ctx: ExecContext,
  vus: VU[],
  runs: Promise<{ completed: number; interrupted: boolean }>[],
  endAt: number,
  graceMs: number,
  extraMs = 0,
): Promise<ExecResult> {
  let finished = false;
  const all = Promise.all(runs).finally(() => {
    finished = true;
  });
  const watchdog = (async () => {
    await Promise.race([sleep(endAt - Date.now()), ctx.aborted, all]);
    if (finished) return;
    for (const v of vus) v.stop();
    await Promise.race([sleep(graceMs + extraMs), all]);
    if (!finished) for (const v of vus) v.interrupt();
  })();
  const res = await all;
  await watchdog;
  const completed = res.reduce((a, r) => a + r.completed, 0);
  return {
    completed,
    interrupted: res.some((r) => r.interrupted),
    dropped: 0,
    attempted: completed + res.filter((r) => r.interrupted).length,
  };
}

async function closed(ctx: ExecContext, s: Scenario, part: Part): Promise<ExecResult> {
  const vus = await acquire(ctx, part.vus, s.name);
  const startedAt = Date.now();
  const endAt = startedAt + s.durationMs;
  // One counter numbers the scenario's iterations across its VUs (k6's per-executor counter); shared iterations are claimed from it.
  const counter = new SharedArrayBuffer(4);
  const perVu = s.executor === 'per-vu-iterations' ? part.iterations : Number.MAX_SAFE_INTEGER;
  const total = s.executor === 'shared-iterations' ? part.iterations : 0;
  const runs = vus.map((v) =>
    v.send({
      t: 'run',
      scenario: ref(s, startedAt),
      mode: 'loop',
      iterations: perVu,
      counter,
      shared: total > 0,
      total,
      stripe: part.stripe,
      deadline: endAt,
      setupData: ctx.setupData,
    }),
  );
  const r = await supervise(ctx, vus, runs, endAt, s.gracefulStopMs);
  release(ctx, vus);
  // As k6: iterations an iteration-count executor did not get to by maxDuration are dropped.
  const planned = total > 0 ? total : s.executor === 'per-vu-iterations' ? part.vus * part.iterations : 0;
  const attempted = total > 0 ? Math.min(total, Atomics.load(new Int32Array(counter), 0)) : r.attempted;
  if (planned > attempted) ctx.collector.dropped(s.name, Date.now(), planned - attempted);
  return { ...r, dropped: Math.max(0, planned - attempted) };
}

async function arrival(ctx: ExecContext, s: Scenario, part: Part): Promise<ExecResult> {
  const own = await acquire(ctx, part.preAllocatedVUs, s.name);
  const sentAt = Date.now();
  const schedule = new ArrivalSchedule(s, part.stripe);
  const total = schedule.total;
  const q = new Int32Array(new SharedArrayBuffer(QUEUE_WORDS * 4));
  const sref = ref(s, sentAt);
  const runs: Promise<{ completed: number; interrupted: boolean }>[] = [];
  const join = (v: VU) => {
    runs.push(
      v.send({
        t: 'run',
        scenario: sref,
        mode: 'queue',
        queue: q.buffer as SharedArrayBuffer,
        total,
        stripe: part.stripe,
        deadline: sentAt + s.durationMs,
        setupData: ctx.setupData,
      }),
    );
  };
  own.forEach(join);
  // k6 starts the clock with its pre-allocated VUs ready: wait (bounded) until each has taken
  // its place in the queue, so start-up latency is not counted as dropped iterations.
  for (const until = Date.now() + 10_000; Atomics.load(q, QUEUE.idle) < own.length && Date.now() < until;)
    await sleep(1);
  const startedAt = Date.now();
  const endAt = startedAt + s.durationMs;
  let started = 0,
    dropped = 0,
    spawning = 0,
    stopped = false;
  void ctx.aborted.then(() => {
    stopped = true;
  });
  const grow = () => {
    // One VU initialises at a time: a worker's start-up is CPU-heavy, and a burst of them would
    // starve the VUs at work and drop more iterations than it saves (pre-allocate instead).
    if (own.length + spawning >= part.maxVUs || spawning > 0) return;
    spawning++;
    ctx.pool
      .spawn()
      .then(
        (v) => {
          ctx.owner.set(v, s.name);
          own.push(v);
          if (!stopped && Atomics.load(q, QUEUE.closed) === 0) join(v);
        },
        () => undefined,
      )
      .finally(() => {
        spawning--;
      });
  };
  while (!stopped && started < total) {
    // Iterations due up to the end (the ramping executor's last may fall on it) are started or dropped, never lost.
    const now = Math.min(Date.now() - startedAt, s.durationMs);
    const due = schedule.dueBy(now);
    let granted = 0;
    for (; started < due; started++) {
      // Only this thread takes from `idle` (VUs only add to it), so a positive load stays positive.
      if (Atomics.load(q, QUEUE.idle) > 0) {
        Atomics.sub(q, QUEUE.idle, 1);
        granted++;
        continue;
      }
      dropped++;
      ctx.collector.dropped(s.name, Date.now());
      grow();
    }
    if (granted) {
      Atomics.add(q, QUEUE.tickets, granted);
      Atomics.add(q, QUEUE.seq, 1);
      Atomics.notify(q, QUEUE.seq, granted);
    }
    if (started >= total || now >= s.durationMs) break;
    await sleep(Math.min(schedule.dueAt(started) - (Date.now() - startedAt), endAt - Date.now()));
  }
  // No more grants: VUs leave once the granted tickets are taken and their iterations end.
  Atomics.store(q, QUEUE.closed, 1);
  Atomics.add(q, QUEUE.seq, 1);
  Atomics.notify(q, QUEUE.seq);
  const r = await supervise(ctx, own, runs, Date.now(), s.gracefulStopMs, Math.max(0, endAt - Date.now()));
  release(ctx, own);
  return { ...r, dropped };
}

export function runExecutor(ctx: ExecContext, s: Scenario, part: Part): Promise<ExecResult> {
  return s.executor.endsWith('arrival-rate') ? arrival(ctx, s, part) : closed(ctx, s, part);
}

/**
 * Split runs on the built-in runner, as k6 splits them (--execution-segment within
 * --execution-segment-sequence): every instance runs its exact part of VUs, iterations and
 * arrival-rate iterations, and numbers VUs and iterations across the whole run, so the
 * instances together do exactly what one run does.
 */
import { test, expect } from '@playwright/test';
import { runBuiltin, type RunOutcome } from './engine/run.js';
import { sinkOf } from './test-helpers.js';

const THIRDS = '0,1/3,2/3,1';
const segs = (seq: string) => {
  const p = seq.split(',');
  return p.slice(1).map((to, i) => `${p[i]}:${to}`);
};
const counter = (o: RunOutcome, sel: string) => {
  const s = sinkOf(o, sel);
  return s?.type === 'counter' ? s.sum : 0;
};

/** Run `code` once per segment of `seq`, all at once; the script reports what it saw through counters tagged with values. */
async function split(code: string, seq: string): Promise<RunOutcome[]> {
  return Promise.all(
    segs(seq).map((segment) =>
      runBuiltin({
        bundleCode: code,
        scriptDir: process.cwd(),
        env: {},
        segment,
        segmentSequence: seq,
        vuThreads: 1,
        log: () => undefined,
      }),
    ),
  );
}

/** Every value of tag `tag` a counter was added with, over all instances. */
function tagValues(outs: RunOutcome[], metric: string, tag: string): number[] {
  const seen: number[] = [];
  for (const o of outs)
    for (const sub of o.registry.metrics.get(metric)?.subs ?? [])
      if (sub.sink.type === 'counter') for (let i = 0; i < sub.sink.sum; i++) seen.push(Number(sub.tags[tag]));
  return seen.sort((a, b) => a - b);
}

/** Declares a submetric per value so each value's count is kept apart. */
const perValue = (metric: string, tag: string, n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `'${metric}{${tag}:${i}}': ['count>=0']`).join(', ')} }`;

test('shared-iterations over thirds: 37 iterations of 4 VUs split as k6 splits them, every iterationInTest once', async () => {
  const outs = await split(
    `
    import exec from 'k6/execution';
    import { Counter } from 'k6/metrics';
    const it = new Counter('it');
    export const options = { scenarios: { s: { executor: 'shared-iterations', vus: 4, iterations: 37, maxDuration: '20s' } }, thresholds: ${perValue('it', 'n', 37)} };
    export default function () { it.add(1, { n: String(exec.scenario.iterationInTest) }); }`,
    THIRDS,
  );
  // 4 VUs over thirds: 2, 1, 1; the iterations follow the VUs (re-cut 2/4, 1/4, 1/4): 19, 9, 9.
  expect(outs.map((o) => o.parts.s!.vus)).toEqual([2, 1, 1]);
  expect(outs.map((o) => counter(o, 'iterations'))).toEqual([19, 9, 9]);
  expect(tagValues(outs, 'it', 'n')).toEqual(Array.from({ length: 37 }, (_, i) => i));
  for (const o of outs) expect(o.exitCode).toBe(0);
});

test('per-vu-iterations: 10 VUs over thirds are 4, 3, 3, numbered across instances (idInTest), each running every iteration; constant-vus scales alike', async () => {
  const outs = await split(
    `
    import exec from 'k6/execution';
    import { sleep } from 'k6';
    import { Counter } from 'k6/metrics';
    const vu = new Counter('vu');
    export const options = { scenarios: {
      p: { executor: 'per-vu-iterations', vus: 10, iterations: 3 },
      c: { executor: 'constant-vus', vus: 5, duration: '300ms', startTime: '0s' } },
      thresholds: Object.assign({ 'iterations{scenario:p}': ['count>=0'] }, ${perValue('vu', 'id', 17)}) };
    export default function () { if (exec.vu.iterationInScenario === 0) vu.add(1, { id: String(exec.vu.idInTest) }); sleep(0.01); }`,
    THIRDS,
  );
  expect(outs.map((o) => o.parts.p!.vus)).toEqual([4, 3, 3]);
  expect(outs.map((o) => counter(o, 'iterations{scenario:p}'))).toEqual([12, 9, 9]);
  expect(outs.map((o) => o.parts.c!.vus)).toEqual([2, 2, 1]);
  // The instances' 6 + 5 + 4 VUs are numbered by the stripes of thirds (every third number): 1 4 7 10 13 16 | 2 5 8 11 14 | 3 6 9 12.
  expect(tagValues(outs, 'vu', 'id')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16]);
});

test('arrival rates: each instance starts the iterations of its stripe; together exactly those of one run, none twice', async () => {
  const outs = await split(
    `
    import exec from 'k6/execution';
    import { Counter } from 'k6/metrics';
    const it = new Counter('it');
    export const options = { scenarios: {
      c: { executor: 'constant-arrival-rate', rate: 30, timeUnit: '1s', duration: '1s', preAllocatedVUs: 6, maxVUs: 6 },
      r: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', preAllocatedVUs: 3, stages: [{ duration: '1s', target: 20 }, { duration: '500ms', target: 20 }], startTime: '0s' } },
      thresholds: Object.assign({ 'iterations{scenario:c}': ['count>=0'], 'iterations{scenario:r}': ['count>=0'], 'dropped_iterations{scenario:c}': ['count>=0'], 'dropped_iterations{scenario:r}': ['count>=0'] }, ${perValue('it', 'n', 30)}) };
    export default function () { if (exec.scenario.name === 'c') it.add(1, { n: String(exec.scenario.iterationInTest) }); }`,
    '0,1/2,1',
  );
  expect(outs.map((o) => [o.parts.c!.preAllocatedVUs, o.parts.c!.rateShare])).toEqual([
    [3, 0.5],
    [3, 0.5],
  ]);
  // 30/s for 1 s: iterations 0…29 (the first at once), the even ones on one instance, the odd ones on the other.
  // Each scheduled start is an iteration or a dropped one: 30 of c, 20 of r (the area of its stages). As in k6 the rate
  // follows maxVUs: c's 6 split 3 + 3, r's 3 split 2 + 1, so r's iterations go 2/3 and 1/3 (13 and 7 of 20).
  const started = (o: RunOutcome, s: string) =>
    counter(o, `iterations{scenario:${s}}`) + counter(o, `dropped_iterations{scenario:${s}}`);
  expect(outs.map((o) => [started(o, 'c'), started(o, 'r')])).toEqual([
    [15, 13],
    [15, 7],
  ]);
  expect(outs.map((o) => o.parts.r!.rateShare)).toEqual([2 / 3, 1 / 3]);
  const seen = tagValues(outs, 'it', 'n');
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen.every((n) => n >= 0 && n < 30)).toBe(true);
});

test('an instance whose part is nothing runs nothing, and a segment not in the sequence is an invalid configuration (104)', async () => {
  const code = `export const options = { scenarios: { one: { executor: 'shared-iterations', vus: 1, iterations: 1 } } }; export default function () {}`;
  const outs = await split(code, '0,1/2,1');
  expect(outs.map((o) => counter(o, 'iterations'))).toEqual([1, 0]);
  expect(outs.map((o) => o.exitCode)).toEqual([0, 0]);
  const bad = await runBuiltin({
    bundleCode: code,
    scriptDir: process.cwd(),
    env: {},
    segment: '1/4:1/2',
    segmentSequence: THIRDS,
    log: () => undefined,
  });
  expect(bad.exitCode).toBe(104);
  expect(bad.errors.join()).toMatch(/couldn't find segment/);
});

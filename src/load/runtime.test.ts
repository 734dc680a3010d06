/**
 * The built-in runner against k6's documented semantics (grafana.com/docs/k6: executors,
 * thresholds, expectedStatuses / http_req_failed, dropped_iterations, handleSummary, exit
 * codes, k6/execution). Each test states the rule it pins; the VUs are spread over two threads.
 */
import { test, expect } from '@playwright/test';
import { runScript, sinkOf, stubServer, type StubServer } from './test-helpers.js';

let srv: StubServer;
test.beforeAll(async () => {
  srv = await stubServer();
});
test.afterAll(async () => {
  await srv.close();
});

const counterOf = (out: Awaited<ReturnType<typeof runScript>>, sel: string) => {
  const s = sinkOf(out, sel);
  return s?.type === 'counter' ? s.sum : NaN;
};
const rateOf = (out: Awaited<ReturnType<typeof runScript>>, sel: string) => {
  const s = sinkOf(out, sel);
  return s?.type === 'rate' ? [s.trues, s.total] : [NaN, NaN];
};

const run = runScript;
test('shared-iterations: the VUs share exactly `iterations`; iterationInTest numbers each once', async () => {
  const out = await run(`
        import exec from 'k6/execution';
        import { Counter } from 'k6/metrics';
        const seen = new Counter('seen');
        export const options = { scenarios: { s: { executor: 'shared-iterations', vus: 4, iterations: 37, maxDuration: '20s' } } };
        export default function () { seen.add(exec.scenario.iterationInTest); }`);
  expect(out.exitCode).toBe(0);
  expect(counterOf(out, 'iterations')).toBe(37);
  expect(counterOf(out, 'seen')).toBe((36 * 37) / 2);
});

test('per-vu-iterations: each VU runs exactly `iterations`; __VU and __ITER are the VU number and its iteration', async () => {
  const out = await run(`
        import { Counter } from 'k6/metrics';
        const perVu = new Counter('per_vu');
        export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 3, iterations: 5 } },
          thresholds: { 'per_vu{vu:1}': ['count==5'], 'per_vu{vu:2}': ['count==5'], 'per_vu{vu:3}': ['count==5'], 'per_vu{iter:4}': ['count==3'] } };
        export default function () { perVu.add(1, { vu: String(__VU), iter: String(__ITER) }); }`);
  expect(out.thresholds.map((t) => [t.selector, t.ok])).toEqual([
    ['per_vu{vu:1}', true],
    ['per_vu{vu:2}', true],
    ['per_vu{vu:3}', true],
    ['per_vu{iter:4}', true],
  ]);
  expect(counterOf(out, 'iterations')).toBe(15);
});

test('constant-vus: VUs loop for `duration`, then stop; a sleeping iteration past gracefulStop is interrupted', async () => {
  const t0 = Date.now();
  const out = await run(`
        import { sleep } from 'k6';
        export const options = { scenarios: { s: { executor: 'constant-vus', vus: 2, duration: '1s', gracefulStop: '0s' } } };
        export default function () { sleep(0.3); }`);
  const took = Date.now() - t0;
  const it = counterOf(out, 'iterations');
  expect(it).toBeGreaterThanOrEqual(4);
  expect(it).toBeLessThanOrEqual(8);
  expect(out.durationMs).toBeLessThan(3000);
  expect(took).toBeLessThan(15_000);
});

test('constant-arrival-rate: starts rate×duration iterations; with no free VU they are dropped_iterations', async () => {
  const ok = await run(`
        export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '2s', preAllocatedVUs: 4 } } };
        export default function () {}`);
  // Every scheduled start is either an iteration or a dropped one; on a quiet machine all run.
  expect(counterOf(ok, 'iterations') + counterOf(ok, 'dropped_iterations')).toBe(40);
  expect(counterOf(ok, 'iterations')).toBeGreaterThanOrEqual(30);
  const starved = await run(`
        import { sleep } from 'k6';
        export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 1, gracefulStop: '2s' } },
          thresholds: { dropped_iterations: ['count==0'] } };
        export default function () { sleep(0.45); }`);
  const dropped = counterOf(starved, 'dropped_iterations');
  expect(dropped + counterOf(starved, 'iterations')).toBe(10);
  expect(dropped).toBeGreaterThanOrEqual(6);
  expect(starved.exitCode).toBe(99);
});

test('ramping-arrival-rate: iterations follow the integral of the stages', async () => {
  const out = await run(`
        export const options = { scenarios: { s: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', preAllocatedVUs: 4,
          stages: [{ duration: '1s', target: 20 }, { duration: '1s', target: 20 }] } } };
        export default function () {}`);
  expect(counterOf(out, 'iterations') + counterOf(out, 'dropped_iterations')).toBe(30);
});

test('thresholds: k6 syntax on tagged submetrics; a breach exits 99; invalid or unknown-metric thresholds exit 104', async () => {
  const pass = await run(`
        import { check } from 'k6';
        export const options = { iterations: 3, thresholds: { 'checks{clause:X-1}': ['rate==1'], iterations: ['count>=3', 'count<4'], iteration_duration: ['p(95)<10000', 'avg < 10000', 'med>=0'] } };
        export default function () { check(1, { one: (v) => v === 1 }, { clause: 'X-1' }); }`);
  expect(pass.exitCode).toBe(0);
  expect(pass.thresholds.every((t) => t.ok)).toBe(true);
  const fail = await run(`
        import { check } from 'k6';
        export const options = { iterations: 2, thresholds: { 'checks{clause:X-2}': ['rate==1'] } };
        export default function () { check(1, { wrong: (v) => v === 2 }, { clause: 'X-2' }); }`);
  expect(fail.exitCode).toBe(99);
  expect(fail.thresholds[0]).toMatchObject({ ok: false, measured: 0 });
  const empty = await run(`
        export const options = { thresholds: { 'checks{clause:NONE}': ['rate==1'] } };
        export default function () {}`);
  expect(empty.exitCode).toBe(99); // k6 ≥ 0.38 evaluates an empty rate as 0
  const bad = await run(
    `export const options = { thresholds: { http_reqs: ['p(95)<1'] } }; export default function () {}`,
  );
  expect(bad.exitCode).toBe(104);
  const unknown = await run(
    `export const options = { thresholds: { no_such_metric: ['count==0'] } }; export default function () {}`,
  );
  expect(unknown.exitCode).toBe(104);
});

test('http_req_failed: 200–399 expected by default; expectedStatuses via setResponseCallback; a null responseCallback emits nothing', async () => {
  const out = await run(
    `
        import http from 'k6/http';
        export const options = { iterations: 1, thresholds: { 'http_req_failed{name:default}': ['rate==0.5'], 'http_req_failed{name:custom}': ['rate==0'] } };
        export default function () {
          http.get(__ENV.URL + '/status/204', { tags: { name: 'default' } });
          http.get(__ENV.URL + '/status/429', { tags: { name: 'default' } });
          http.get(__ENV.URL + '/status/500', { tags: { name: 'none' }, responseCallback: null });
          http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));
          http.get(__ENV.URL + '/status/429', { tags: { name: 'custom' } });
        }`,
    { URL: srv.url },
  );
  expect(out.thresholds.every((t) => t.ok)).toBe(true);
  expect(rateOf(out, 'http_req_failed')).toEqual([1, 3]);
  expect(counterOf(out, 'http_reqs')).toBe(4);
  // Every request also emits each of k6's http_req_* trends once, and its bytes both ways.
  const trends = ['duration', 'blocked', 'connecting', 'tls_handshaking', 'sending', 'waiting', 'receiving'];
  expect(
    trends.map((t) => [t, sinkOf(out, `http_req_${t}`)?.type === 'trend' && sinkOf(out, `http_req_${t}`)]),
  ).toEqual(trends.map((t) => [t, expect.objectContaining({ count: 4 })]));
  expect([counterOf(out, 'data_sent') > 0, counterOf(out, 'data_received') > 0]).toEqual([true, true]);
});

test('responses: status, canonical headers, body, json() with a selector, timings; batch keeps order', async () => {
  const out = await run(
    `
        import http from 'k6/http';
        import { check } from 'k6';
        export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };
        export default function () {
          const r = http.get(__ENV.URL + '/json');
          check(r, {
            status: (x) => x.status === 200,
            header: (x) => x.headers['X-Ratelimit-Limit'] === '7' && x.headers['Content-Type'] === 'application/json',
            json: (x) => x.json('a.b.1') === 2 && x.json().a.b.length === 3,
            timings: (x) => x.timings.duration >= 0 && x.timings.waiting >= 0 && typeof x.timings.blocked === 'number',
          });
          const p = http.post(__ENV.URL + '/echo', JSON.stringify({ x: 1 }), { headers: { 'Content-Type': 'application/json', 'X-Test': 'y' } });
          check(p, { echo: (x) => x.json('method') === 'POST' && x.json('body') === '{"x":1}' && x.json('headers.x-test') === 'y' });
          const b = http.batch([['GET', __ENV.URL + '/status/201'], ['GET', __ENV.URL + '/status/202'], __ENV.URL + '/status/203']);
          check(b, { order: (x) => x.map((y) => y.status).join() === '201,202,203' });
          const bad = http.get(__ENV.URL + '/bad-json');
          let threw = false; try { bad.json(); } catch (e) { threw = true; }
          check(threw, { 'malformed JSON throws in json()': (t) => t === true });
        }`,
    { URL: srv.url },
  );
  expect(out.checks.filter((c) => c.fails > 0)).toEqual([]);
  expect(out.exitCode).toBe(0);
});

test('a broken target is counted, never a crash: refused connection 1212, timeout 1050', async () => {
  const out = await run(
    `
        import http from 'k6/http';
        import { check } from 'k6';
        export const options = { iterations: 1 };
        export default function () {
          const refused = http.get('http://127.0.0.1:9/');
          const slow = http.get(__ENV.URL + '/slow/2000', { timeout: '200ms' });
          check(null, { refused: () => refused.status === 0 && refused.error_code === 1212, timeout: () => slow.status === 0 && slow.error_code === 1050 });
        }`,
    { URL: srv.url },
  );
  expect(out.exitCode).toBe(0);
  expect(out.checks.every((c) => c.fails === 0)).toBe(true);
  expect(rateOf(out, 'http_req_failed')).toEqual([2, 2]);
});

test("setup data reaches every VU and teardown; handleSummary gets k6's summary object and its outputs are returned", async () => {
  const out = await run(`
        import { check } from 'k6';
        export const options = { vus: 2, iterations: 4, thresholds: { checks: ['rate==1'] } };
        export function setup() { return { token: 'abc', n: 3 }; }
        export default function (d) { check(d, { 'setup data': (x) => x.token === 'abc' && x.n === 3 }); }
        export function teardown(d) { if (d.n !== 3) throw new Error('teardown lost the data'); }
        export function handleSummary(data) {
          return { 'summary.json': JSON.stringify({ passes: data.metrics.checks.values.passes, th: data.metrics.checks.thresholds['rate==1'].ok,
            its: data.metrics.iterations.values.count, hasDur: typeof data.state.testRunDurationMs, setup: data.setup_data.n, group: data.root_group.checks[0].name }) };
        }`);
  expect(out.errors).toEqual([]);
  expect(JSON.parse(out.summaryOutputs['summary.json']!)).toEqual({
    passes: 4,
    th: true,
    its: 4,
    hasDur: 'number',
    setup: 3,
    group: 'setup data',
  });
});

test('k6/execution and groups: scenario name, VU ids, group tags and group_duration; exec.test.abort exits 108', async () => {
  const out = await run(`
        import exec from 'k6/execution';
        import { group, check } from 'k6';
        export const options = { scenarios: { named: { executor: 'per-vu-iterations', vus: 2, iterations: 1 } }, thresholds: { 'group_duration{group:::outer::inner}': ['max>0'], 'checks{group:::outer::inner}': ['rate==1'] } };
        export default function () {
          group('outer', () => group('inner', () => check(exec, { ids: (e) => e.scenario.name === 'named' && e.vu.idInTest === __VU && e.scenario.executor === 'per-vu-iterations' })));
        }`);
  expect(out.exitCode).toBe(0);
  const aborted = await run(`
        import exec from 'k6/execution';
        export const options = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '30s' } } };
        export default function () { exec.test.abort('enough'); }`);
  expect(aborted.exitCode).toBe(108);
  expect(aborted.durationMs).toBeLessThan(5000);
});

test('source addresses: VUs are bound to the given loopback IPs round robin, as k6 --local-ips hands them out', async () => {
  srv.seen.length = 0;
  const out = await run(
    `
        import http from 'k6/http';
        export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 4, iterations: 2 } } };
        export default function () { http.get(__ENV.URL + '/ip?vu=' + __VU); }`,
    { URL: srv.url },
    ['127.0.0.2', '127.0.0.3'],
  );
  expect(out.exitCode).toBe(0);
  const byVu = new Map(
    srv.seen.filter((s) => s.url.startsWith('/ip')).map((s) => [s.url.split('=')[1], s.remote.replace('::ffff:', '')]),
  );
  expect(Object.fromEntries(byVu)).toEqual({
    '1': '127.0.0.2',
    '2': '127.0.0.3',
    '3': '127.0.0.2',
    '4': '127.0.0.3',
  });
});

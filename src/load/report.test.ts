/**
 * Reports: the offline HTML capacity report renders every chart in Debian's chromium; JUnit
 * has one case per threshold; merging instances sums counters and recomputes percentiles
 * from merged histograms; the emitted bundles are ES2017 and self-contained.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acorn from 'acorn';
import { renderReport, runScript, stubServer, type StubServer } from './test-helpers.js';
import { chartData } from './report/chart-data.js';
import { resultsOfRun, mergeResults } from './report/results.js';
import { writeReports } from './report/write.js';
import { TrendSink } from './metrics/sinks.js';
import { emit } from './emit.js';
import type { Results } from './report/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'load-report-'));
let srv: StubServer;
const parts: Results[] = [];

const SCRIPT = `
  import http from 'k6/http';
  import exec from 'k6/execution';
  http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));
  export const options = {
    scenarios: { ramp: { executor: 'ramping-arrival-rate', startRate: 20, timeUnit: '1s', preAllocatedVUs: 6, stages: [{ duration: '2s', target: 60 }, { duration: '1s', target: 60 }] } },
    thresholds: { 'http_reqs{key:base-1}': ['count>0'], 'http_req_duration': ['p(95)<2000'], 'checks{clause:RATE-3}': ['rate==1'] },
  };
  export default function () {
    const i = exec.scenario.iterationInTest;
    const key = 'base-' + (i % 2 + 1);
    const r = http.get(__ENV.URL + (i % 5 === 0 ? '/status/429' : i % 7 === 0 ? '/slow/20' : '/'), { tags: { key: key } });
    if (r.status === 429) { const ok = r.body === '' || r.body === null; require_check(ok); }
  }
  import { check } from 'k6';
  function require_check(ok) { check(ok, { 'RATE-3 empty 429 body': (v) => v === true }, { clause: 'RATE-3' }); }
`;

test.beforeAll(async () => {
  srv = await stubServer();
  for (let i = 0; i < 2; i++) {
    const out = await runScript(SCRIPT, { URL: srv.url });
    parts.push(
      resultsOfRun(out, {
        scenario: 'report-test',
        clauses: ['RATE-3'],
        target: { url: srv.url, edition: 'self-hosted', api_version: '6.2' },
        p95BudgetMs: 500,
      }),
    );
  }
});
test.afterAll(async () => {
  await srv.close();
});

test('the HTML report draws every chart that has data in chromium, offline, without console errors; the others are one line each', async () => {
  const w = writeReports(join(dir, 'one'), parts[0]!);
  const html = readFileSync(w.html, 'utf8');
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/); // self-contained: nothing fetched
  const cd = chartData(parts[0]!);
  const r = await renderReport(w.html, join(dir, 'report.png'));
  // A 3-s run: 100-ms buckets; three URLs, so a chart per endpoint; 429s by key; the generator's health.
  expect(parts[0]!.series.widthMs).toBe(100);
  expect(r.canvases.map((c) => c.id)).toEqual(cd.charts.map((c) => c.id));
  for (const id of ['rate', 'latency', 'endpoints', 'share429', 'generator'])
    expect(r.canvases.map((c) => c.id)).toContain(id);
  for (const c of r.canvases) expect(c.inked, `canvas ${c.id} is blank`).toBeGreaterThan(1000);
  expect(r.empty.length).toBe(cd.empty.length);
  expect(html).toMatch(/<th>p95 ms<\/th>/);
  expect(r.problems).toEqual([]);
});

test('a half-second burst: points every 100 ms, no empty chart frame — charts with nothing to show are one line saying why', async () => {
  const out = await runScript(
    `
    import http from 'k6/http';
    import { sleep } from 'k6';
    export const options = { scenarios: { burst: { executor: 'shared-iterations', vus: 10, iterations: 300, maxDuration: '10s' } } };
    // 30 iterations per VU of at least 15 ms each: about half a second however fast the stub answers.
    export default function () { http.get(__ENV.URL + '/', { tags: { name: 'ping' } }); sleep(0.015); }`,
    { URL: srv.url },
  );
  const res = resultsOfRun(out, {
    scenario: 'burst',
    clauses: [],
    target: { url: srv.url, edition: 'self-hosted', api_version: '6.2' },
    p95BudgetMs: 500,
  });
  const w = writeReports(join(dir, 'burst'), res);
  const cd = chartData(res);
  expect(cd.labels.length).toBeGreaterThan(1);
  expect(cd.labels[1]).toBe(0.1);
  const r = await renderReport(w.html, join(dir, 'burst.png'));
  for (const c of r.canvases) expect(c.inked, `canvas ${c.id} is blank`).toBeGreaterThan(1000);
  expect(r.canvases.map((c) => c.id)).not.toContain('errors');
  expect(r.empty).toEqual(
    expect.arrayContaining([
      'Errors: No request failed and none met a transport error.',
      '429 share per key: No request was answered 429.',
      'p95 latency per endpoint: One endpoint (ping): its latency is the chart above.',
    ]),
  );
  expect(r.problems).toEqual([]);
});

test('JUnit: one testcase per threshold, with the measured value and the clause', () => {
  const w = writeReports(join(dir, 'junit'), parts[0]!);
  const xml = readFileSync(w.junit, 'utf8');
  expect((xml.match(/<testcase /g) ?? []).length).toBe(parts[0]!.thresholds.length);
  expect(xml).toContain('<property name="clause" value="RATE-3"/>');
  expect(xml).toMatch(/<property name="measured" value="[\d.]+"\/>/);
});

test('merge: counters are summed, percentiles recomputed from merged histograms, thresholds re-judged', () => {
  const m = mergeResults(parts, 500);
  const sum = (r: Results, name: string) => {
    const s = r.metrics.find((x) => x.name === name)!.sink;
    return s.type === 'counter' ? s.sum : NaN;
  };
  expect(m.instances).toBe(2);
  expect(sum(m, 'http_reqs')).toBe(sum(parts[0]!, 'http_reqs') + sum(parts[1]!, 'http_reqs'));
  expect(m.series.buckets.reduce((a, b) => a + b.reqs, 0)).toBe(sum(m, 'http_reqs'));
  const t = m.thresholds.find((x) => x.selector === 'http_reqs{key:base-1}')!;
  const p0 = parts[0]!.thresholds.find((x) => x.selector === 'http_reqs{key:base-1}')!.measured;
  const p1 = parts[1]!.thresholds.find((x) => x.selector === 'http_reqs{key:base-1}')!.measured;
  expect(t.measured).toBe(p0 + p1);
  // Large trends live in HDR histograms: merged percentiles equal those of the union, within HDR precision.
  const a = new TrendSink(),
    b = new TrendSink(),
    all: number[] = [];
  for (let i = 0; i < 30_000; i++) {
    const v = (i % 997) * 1.7 + (i % 3);
    (i % 2 ? a : b).add(v);
    all.push(v);
  }
  a.merge(b);
  all.sort((x, y) => x - y);
  const exact = all[Math.floor(0.95 * (all.length - 1))]!;
  expect(Math.abs(a.p(95) - exact) / exact).toBeLessThan(0.002);
  expect(a.count).toBe(30_000);
});

test('emitted bundles are ES2017 (acorn), import only k6 modules, and come with a k6-operator TestRun', async () => {
  const files = await emit(join(dir, 'emit'));
  const js = files.filter((f) => f.endsWith('.js'));
  expect(js.length).toBe(5);
  for (const f of js) {
    const code = readFileSync(f, 'utf8');
    expect(() => acorn.parse(code, { ecmaVersion: 2017, sourceType: 'module' }), f).not.toThrow();
    const imports = [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(
      imports.every((s) => s === 'k6' || s!.startsWith('k6/')),
      `${f} imports ${imports.join(', ')}`,
    ).toBe(true);
    expect(code).not.toMatch(/\?\.|\?\?|\.\.\.[A-Za-z_$]/);
    // The facts they read are small; a schema library inlined by accident makes every VU's init slow.
    expect(code.length, `${f} is ${code.length} bytes`).toBeLessThan(40_000);
  }
  const yaml = readFileSync(
    files.find((f) => f.endsWith('.yaml'))!,
    'utf8',
  );
  expect(yaml).toContain('kind: TestRun');
  expect(yaml).toMatch(/parallelism: \d+/);
  // Sanity of the acorn check itself: ES2018 syntax is refused.
  expect(() => acorn.parse('const a = { ...b };', { ecmaVersion: 2017 })).toThrow();
  writeFileSync(join(dir, 'done'), '');
});

/**
 * Reports: the offline HTML capacity report renders every chart in Debian's chromium; JUnit
 * has one case per threshold; merging instances sums counters and recomputes percentiles
 * from merged histograms; the emitted bundles are ES2017 and self-contained.
 */
import { test, expect, chromium } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acorn from 'acorn';
import { runScript, stubServer, type StubServer } from './test-helpers.js';
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
    parts.push(resultsOfRun(out, { scenario: 'report-test', clauses: ['RATE-3'], target: { url: srv.url, edition: 'self-hosted', api_version: '6.2' }, p95BudgetMs: 500 }));
  }
});
test.afterAll(async () => { await srv.close(); });

test('the HTML report renders all five charts in chromium, offline, without console errors', async () => {
  const w = writeReports(join(dir, 'one'), parts[0]!);
  const html = readFileSync(w.html, 'utf8');
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/); // self-contained: nothing fetched
  if (!existsSync('/usr/bin/chromium')) throw new Error('/usr/bin/chromium is missing: apt-get install -y chromium');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push(`network request ${r.url()}`); });
    await page.goto(`file://${w.html}`);
    await page.waitForFunction(() => (globalThis as unknown as { __chartsRendered?: number }).__chartsRendered === 5);
    const inked = await page.$$eval('canvas', (cs) => cs.map((el) => {
      // No DOM typings in this project: the canvas's shape, as far as this check needs it.
      const c = el as unknown as { id: string; width: number; height: number; getContext(t: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
      return { id: c.id, inked: n };
    }));
    expect(inked.map((c) => c.id)).toEqual(['rate', 'latency', 'share429', 'errors', 'dropped']);
    for (const c of inked) expect(c.inked, `canvas ${c.id} is blank`).toBeGreaterThan(1000);
    const shot = await page.screenshot({ fullPage: true, path: join(dir, 'report.png') });
    expect(shot.length).toBeGreaterThan(20_000);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
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
  const sum = (r: Results, name: string) => { const s = r.metrics.find((x) => x.name === name)!.sink; return s.type === 'counter' ? s.sum : NaN; };
  expect(m.instances).toBe(2);
  expect(sum(m, 'http_reqs')).toBe(sum(parts[0]!, 'http_reqs') + sum(parts[1]!, 'http_reqs'));
  expect(m.series.buckets.reduce((a, b) => a + b.reqs, 0)).toBe(sum(m, 'http_reqs'));
  const t = m.thresholds.find((x) => x.selector === 'http_reqs{key:base-1}')!;
  const p0 = parts[0]!.thresholds.find((x) => x.selector === 'http_reqs{key:base-1}')!.measured;
  const p1 = parts[1]!.thresholds.find((x) => x.selector === 'http_reqs{key:base-1}')!.measured;
  expect(t.measured).toBe(p0 + p1);
  // Large trends live in HDR histograms: merged percentiles equal those of the union, within HDR precision.
  const a = new TrendSink(), b = new TrendSink(), all: number[] = [];
  for (let i = 0; i < 30_000; i++) { const v = (i % 997) * 1.7 + (i % 3); (i % 2 ? a : b).add(v); all.push(v); }
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
    expect(imports.every((s) => s === 'k6' || s!.startsWith('k6/')), `${f} imports ${imports.join(', ')}`).toBe(true);
    expect(code).not.toMatch(/\?\.|\?\?|\.\.\.[A-Za-z_$]/);
    // The facts they read are small; a schema library inlined by accident makes every VU's init slow.
    expect(code.length, `${f} is ${code.length} bytes`).toBeLessThan(40_000);
  }
  const yaml = readFileSync(files.find((f) => f.endsWith('.yaml'))!, 'utf8');
  expect(yaml).toContain('kind: TestRun');
  expect(yaml).toMatch(/parallelism: \d+/);
  // Sanity of the acorn check itself: ES2018 syntax is refused.
  expect(() => acorn.parse('const a = { ...b };', { ecmaVersion: 2017 })).toThrow();
  writeFileSync(join(dir, 'done'), '');
});

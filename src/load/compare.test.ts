/**
 * `conformance load compare`: two runs of one scenario, the second with one endpoint made
 * slower. The report (markdown, HTML, JSON) shows p95 per endpoint at each offered rate both
 * runs held; --max-regression turns a p95 that rose past the gate into exit 1, a run compared
 * with itself passes it. The HTML renders in chromium like the capacity report.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderReport, runScript, stubServer, type StubServer } from './test-helpers.js';
import { resultsOfRun } from './report/results.js';
import { writeReports } from './report/write.js';
import type { Comparison } from './compare/compare.js';
import { cliEntry } from '../../test/helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'load-compare-'));
let srv: StubServer;
const files: string[] = [];
test.describe.configure({ mode: 'serial' });

/** Plateaus of 20 and 40 it/s; half the iterations call `list`, half `sql` (slowed by SQL_MS in the second run). */
const SCRIPT = `
  import http from 'k6/http';
  import exec from 'k6/execution';
  export const options = { discardResponseBodies: true, scenarios: { mix: { executor: 'ramping-arrival-rate', startRate: 20, timeUnit: '1s', preAllocatedVUs: 20,
    stages: [{ duration: '2s', target: 20 }, { duration: '1s', target: 40 }, { duration: '2s', target: 40 }] } } };
  export default function () {
    if (exec.scenario.iterationInTest % 2) http.get(__ENV.URL + '/', { tags: { name: 'list' } });
    else http.get(__ENV.URL + (Number(__ENV.SQL_MS) ? '/slow/' + __ENV.SQL_MS : '/'), { tags: { name: 'sql' } });
  }`;

const cli = (args: string[]) =>
  spawnSync(process.execPath, [cliEntry(), 'load', 'compare', ...args], {
    encoding: 'utf8',
    env: process.env,
    timeout: 60_000,
  });

test.beforeAll(async () => {
  srv = await stubServer();
  for (const [i, sqlMs] of ['0', '40'].entries()) {
    const out = await runScript(SCRIPT, { URL: srv.url, SQL_MS: sqlMs });
    const r = resultsOfRun(out, {
      scenario: 'compare-test',
      clauses: [],
      target: { url: srv.url, edition: 'self-hosted', api_version: '6.2' },
      p95BudgetMs: 500,
    });
    files.push(writeReports(join(dir, `run-${i}`), r).results);
  }
});
test.afterAll(async () => {
  await srv.close();
});

test('a slower endpoint is a p95 regression at each rate both runs held; without a gate the report is written and the exit is 0', () => {
  const plain = cli([files[0]!, files[1]!, '--report-dir', join(dir, 'plain')]);
  expect(plain.status, plain.stderr).toBe(0);
  expect(plain.stdout).toMatch(/no gate/);
  const gated = cli([files[0]!, files[1]!, '--max-regression', '50', '--report-dir', join(dir, 'gated')]);
  expect(gated.status, gated.stderr).toBe(1);
  const c = JSON.parse(readFileSync(join(dir, 'gated', 'compare.json'), 'utf8')) as Comparison;
  const p95 = c.figures.filter((f) => f.what === 'p95');
  // Both plateaus (and the climb between them) compared, per endpoint.
  expect([...new Set(p95.map((f) => f.rate))]).toEqual(expect.arrayContaining([20, 40]));
  expect(c.regressions.length).toBeGreaterThan(0);
  // The slowed endpoint regressed at the top rate (the other may too on a busy machine: its VUs wait behind slow calls).
  expect(c.regressions.some((f) => f.endpoint === 'sql' && f.rate === 40)).toBe(true);
  expect(c.regressions.every((f) => f.what === 'p95')).toBe(true);
  expect(gated.stdout).toMatch(/✗ p95 sql at (20|40) it\/s: [\d.]+ → [\d.]+ \(\+\d/);
  const md = readFileSync(join(dir, 'gated', 'compare.md'), 'utf8');
  expect(md).toMatch(/\| p95 \| `sql` at 40 it\/s \| [\d.]+ \| [\d.]+ \| \+[\d.]+ % \| REGRESSION \|/);
  expect(md).toMatch(/\| capacity \|/);
  expect(md).toMatch(/\| error share \|/);
});

test('a run compared with itself passes any gate; different scenarios or a file that is not results.json are usage errors', () => {
  const same = cli([files[0]!, files[0]!, '--max-regression', '0', '--report-dir', join(dir, 'same')]);
  expect(same.status, same.stderr).toBe(0);
  expect(same.stdout).toMatch(/0 regressions/);
  const bad = cli([files[0]!, join(dir, 'nope.json'), '--report-dir', join(dir, 'bad')]);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/nope\.json/);
});

test('the comparison page renders in chromium, offline, without console errors', async () => {
  const r = await renderReport(join(dir, 'gated', 'compare.html'), join(dir, 'compare.png'));
  expect(r.canvases.map((c) => c.id)).toEqual(['p95']);
  expect(r.canvases[0]!.inked).toBeGreaterThan(1000);
  expect(r.problems).toEqual([]);
});

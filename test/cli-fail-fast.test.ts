/**
 * `--fail-fast-scopes` (the selftest's, src/harness/fail-fast.ts), black box over a test-only
 * suite: once a check of a scope fails, the later checks of that scope and clause are skipped
 * with the reason; other scopes, other clauses, checks in no scope and checks after an
 * undecided one still run; each clause ends as it would have. The scoped run keeps its worker
 * after a failed check (its shared world remade), not after an undecided one; so does a run
 * without scopes on the progress reporter (its HTML report still says failed), while one on
 * Playwright's own reporters restarts it. A bad scopes file is a usage problem of the run, never a silent full run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, ROOT, tempDir } from './helpers/cli.js';
import { htmlTests, readResults } from './helpers/reports.js';
import { KEPT_WORKER } from '../src/harness/keep-worker.js';
import { harnessEnvVars } from '../src/common/harness-env.js';

const SUITES = harnessEnvVars({ suitesDir: join(ROOT, 'test', 'suites', 'fail-fast') });
const CLAUSES = ['--clauses', 'ROUTE-4,ROUTE-5,ROUTE-6', '--workers', '1', '--no-html'];
const title = (clause: string, name: string) => `${clause} fail-fast: ${name}`;
const SCOPES = {
  [title('ROUTE-5', 'a1 fails')]: 'a',
  [title('ROUTE-5', 'a2 would fail')]: 'a',
  [title('ROUTE-5', 'a3 would pass')]: 'a',
  [title('ROUTE-5', 'b1 fails')]: 'b',
  [title('ROUTE-4', 'a4 passes')]: 'a',
  [title('ROUTE-5', 'w1 fails after changing its world')]: 'c',
  [title('ROUTE-6', 'a5 undecided')]: 'a',
  [title('ROUTE-6', 'a6 passes after an undecided one')]: 'a',
};

test.describe.configure({ mode: 'parallel' });

async function runWith(scopes: unknown, label: string) {
  const dir = tempDir(`fail-fast-${label}`);
  const file = join(dir, 'scopes.json');
  writeFileSync(file, typeof scopes === 'string' ? scopes : JSON.stringify(scopes));
  const r = await cli(['run', '--report-dir', join(dir, 'r'), ...CLAUSES, '--fail-fast-scopes', file], { env: SUITES });
  return { r, dir: join(dir, 'r') };
}

test("a scope's later checks of a failed clause are skipped; other scopes, clauses and unscoped checks run; clause outcomes unchanged", async () => {
  test.setTimeout(120_000);
  const plain = tempDir('fail-fast-plain');
  const dots = tempDir('fail-fast-dots');
  // Side by side: own reports, own embedded servers, no rate phase. The plain run keeps its HTML report.
  const [without, withDots, { r, dir }] = await Promise.all([
    cli(['run', '--report-dir', plain, ...CLAUSES.filter((a) => a !== '--no-html')], { env: SUITES }),
    cli(['run', '--report-dir', dots, '--reporter', 'dot', ...CLAUSES], { env: SUITES }),
    runWith(SCOPES, 'scoped'),
  ]);
  expect(r.code, r.output).toBe(1);
  const results = readResults(dir);
  const outcome = Object.fromEntries(results.tests.map((t) => [t.title.replace(/^\S+ fail-fast: /, ''), t.outcome]));
  expect(outcome).toEqual({
    'a1 fails': 'fail',
    'a2 would fail': 'skip',
    'a3 would pass': 'skip',
    'b1 fails': 'fail',
    'a4 passes': 'pass',
    'w1 fails after changing its world': 'fail',
    'w2 sees a fresh world': 'pass',
    'w3 runs in the worker of the failed check': 'pass',
    'a5 undecided': 'error',
    'a6 passes after an undecided one': 'pass',
    'w4 runs in a new worker after an undecided check': 'pass',
    'unscoped fails': 'fail',
  });
  const skipped = results.tests.find((t) => t.title.endsWith('a2 would fail'));
  expect(skipped?.message).toMatch(/ROUTE-5 already failed in this scope \(ROUTE-5 fail-fast: a1 fails\)/);
  // Without scopes every check runs; per clause the verdict is the same.
  expect(without.code, without.output).toBe(1);
  const all = readResults(plain);
  expect(all.tests.filter((t) => t.outcome === 'skip')).toEqual([]);
  const plainOutcome = (name: string) => all.tests.find((t) => t.title.endsWith(name))?.outcome;
  expect(plainOutcome('w2 sees a fresh world')).toBe('pass');
  // The progress reporter (the default) shows the harness's outcomes: the worker is kept there too.
  expect(plainOutcome('w3 runs in the worker of the failed check')).toBe('pass');
  // Playwright's own reporters show its statuses, where a kept worker's check would read as passed: restarted.
  expect(withDots.code, withDots.output).toBe(1);
  const dotted = readResults(dots);
  expect(dotted.tests.find((t) => t.title.endsWith('w3 runs in the worker of the failed check'))?.outcome).toBe('fail');
  expect(dotted.tests.find((t) => t.title.endsWith('w2 sees a fresh world'))?.outcome).toBe('pass');
  // A kept worker's failure is a plain failure in Playwright's HTML report, its mark gone.
  const html = await htmlTests(plain);
  const failed = all.tests.filter((t) => t.outcome === 'fail').map((t) => t.title);
  expect(failed.length).toBeGreaterThan(3);
  for (const title of failed) {
    const t = html.find((h) => h.title === title);
    expect(t?.outcome, title).toBe('unexpected');
    expect(t?.results[0]?.annotations?.map((a) => a.type) ?? [], title).not.toContain(KEPT_WORKER);
  }
  expect(results.clauses.map((c) => [c.id, c.outcome])).toEqual(all.clauses.map((c) => [c.id, c.outcome]));
});

test('a scopes file that is not an object of title → scope: the run stops with the file named, exit 2', async () => {
  test.setTimeout(120_000);
  const { r } = await runWith('["not", "an object"]', 'bad');
  expect(r.code, r.output).toBe(2);
  expect(r.output).toMatch(/--fail-fast-scopes \S+scopes\.json: \(root\): not an object of check title → scope/);
});

/**
 * The rate family beside the others (src/runner/rate-alongside.ts), black box over a test-only
 * suite: one Playwright process runs both projects, the rate one on a worker of its own. Its
 * workers load the rate family's state (its own bases, no fixture tables), the functional ones
 * theirs, and the rate side's `othersDone` returns only after every functional check ended.
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, ROOT, tempDir } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';
import { harnessEnvVars } from '../src/common/harness-env.js';

const SUITES = harnessEnvVars({ suitesDir: join(ROOT, 'test', 'suites', 'alongside') });

test('both phases in one Playwright process: each project its own state; the rate side waits for the functional checks', async () => {
  test.setTimeout(90_000);
  const dir = tempDir('alongside');
  const r = await cli(['run', '--report-dir', dir, '--no-html', '--clauses', 'ROUTE-4,RATE-1'], { env: SUITES });
  expect(r.code, r.output).toBe(0);
  expect(r.output).toContain('the rate family runs beside the others');
  expect(r.output).toMatch(/side by side, both phases took/);
  expect(r.output).toMatch(/functional∥rate: 5 checks on 2 workers/);
  expect(r.output).toMatch(/^functional: 3 passed, 0 failed, 0 errors, 0 skipped/m);
  expect(r.output).toMatch(/^rate: 2 passed, 0 failed, 0 errors, 0 skipped/m);
  const results = readResults(dir);
  expect(results.tests.map((t) => `${t.project} ${t.outcome}`).sort()).toEqual([
    'functional pass',
    'functional pass',
    'functional pass',
    'rate pass',
    'rate pass',
  ]);
});

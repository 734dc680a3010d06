/**
 * No silent pass, the right reason: a run that did not judge everything it was asked to
 * exits 2 and says why — in the terminal, results.json (`runErrors`), clauses.md and JUnit.
 * Black box, with test-only suites: a suite file that throws at load, a worker killed by a
 * signal mid-run, a selection whose checks are all filtered away.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, ROOT, tempDir } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';
import { harnessEnvVars } from '../src/common/harness-env.js';

const suites = (name: string) => harnessEnvVars({ suitesDir: join(ROOT, 'test', 'suites', name) });

/** Every output names the run error. */
function expectRunError(dir: string, stderr: string, reason: RegExp): void {
  const results = readResults(dir);
  expect(results.runErrors.map((e) => e.reason).join('\n')).toMatch(reason);
  expect(stderr).toMatch(new RegExp(`run error[^\\n]*${reason.source}`));
  expect(stderr).toMatch(/conformance: INCOMPLETE \(run errors\)/);
  expect(readFileSync(join(dir, 'clauses.md'), 'utf8')).toMatch(new RegExp(`## Run errors[^]*${reason.source}`));
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  expect(junit).toMatch(new RegExp(`<error type="run-error" message="[^<]*${reason.source}`));
}

// Independent tests (each run starts its own servers), and long ones: on workers of their own they do not end the project on one worker.
test.describe.configure({ mode: 'parallel' });

test('a suite file that throws at load: exit 2, the file named as the reason (not "no check matches")', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('broken');
  const r = await cli(['run', '--report-dir', dir, '--clauses', 'ROUTE-4'], { env: suites('broken') });
  expect(r.code, r.output).toBe(2);
  expectRunError(
    dir,
    r.stderr,
    /a suite file could not be loaded \(broken\.spec\.[jt]s\): Error: deliberate: this suite file fails to load/,
  );
  // Playwright runs nothing when a file does not load: the reason is the file, not the selection.
  expect(
    readResults(dir)
      .runErrors.map((e) => e.reason)
      .join('\n'),
  ).not.toMatch(/no check matches/);
  expect(readResults(dir).totals).toMatchObject({ fail: 0 });
});

test('a worker killed by a signal mid-run: its check is an error, never a failure, and the run exits 2', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('crash');
  const r = await cli(['run', '--report-dir', dir, '--clauses', 'SQL-2,ROUTE-4', '--workers', '1'], {
    env: suites('crash'),
  });
  expect(r.code, r.output).toBe(2);
  const results = readResults(dir);
  const killed = results.tests.find((t) => t.title.endsWith('worker killed'))!;
  expect(killed).toMatchObject({ outcome: 'error', cause: 'no-outcome' });
  expect(results.totals.fail).toBe(0);
  expectRunError(dir, r.stderr, /check "SQL-2 selftest: worker killed" ended without an outcome/);
});

test('a selection whose checks are all filtered away: exit 2, "nothing was judged" in every output', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('filtered');
  const r = await cli(['run', '--report-dir', dir, '--clauses', 'ROUTE-4', '--grep', 'no check has this title'], {
    env: suites('crash'),
  });
  expect(r.code, r.output).toBe(2);
  expectRunError(dir, r.stderr, /no check matches the selection/);
});

test('a selected clause that no check covers: exit 2, the clause named', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('uncovered');
  const r = await cli(['run', '--report-dir', dir, '--clauses', 'ROUTE-4,ROUTE-1'], { env: suites('crash') });
  expect(r.code, r.output).toBe(2);
  expectRunError(dir, r.stderr, /clause ROUTE-1 was selected but no check of it ran/);
});

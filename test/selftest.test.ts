/**
 * `conformance selftest` end to end (black box, the CLI in a child process): every mutant of
 * the catalog is caught by its clause (or, where its only effect is an inferred assertion,
 * reported as only warned) and fails no other clause (beyond its declared overlaps), the
 * clean runs pass, exit 0. The longest project test;
 * CI runs it through `npm test`. CONFHARNESS_SKIP_SELFTEST=1 leaves it out of a local run.
 */
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MUTANTS } from '../src/mutants/catalog.js';
import type { SelftestReport } from '../src/mutants/selftest.js';
import { HARNESS_ENV, harnessEnv } from '../src/common/harness-env.js';
import { cliEntry } from './helpers/cli.js';

const BUDGET_MS = 30 * 60_000;

test('conformance selftest kills every mutant and passes the clean runs', async () => {
  test.skip(harnessEnv('skipSelftest'), `${HARNESS_ENV.skipSelftest.name} is set`);
  test.setTimeout(BUDGET_MS + 60_000);
  const dir = join(mkdtempSync(join(tmpdir(), 'selftest-')), 'report');
  const { code, output, killed } = await new Promise<{ code: number | null; output: string; killed: boolean }>(
    (resolve) => {
      const child = spawn(process.execPath, [cliEntry(), 'selftest', '--report-dir', dir], {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: { ...process.env, FORCE_COLOR: '0' },
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      let stopped = false;
      const t = setTimeout(() => {
        stopped = true;
        try {
          process.kill(-child.pid!, 'SIGINT');
        } catch {
          /* gone */
        }
      }, BUDGET_MS);
      child.on('close', (c) => {
        clearTimeout(t);
        resolve({ code: c, output: out, killed: stopped });
      });
    },
  );
  const tail = output.slice(-4000);
  expect(killed, `selftest still running after ${BUDGET_MS / 60_000} min:\n${tail}`).toBe(false);
  expect(existsSync(join(dir, 'selftest.json')), tail).toBe(true);
  const report = JSON.parse(readFileSync(join(dir, 'selftest.json'), 'utf8')) as SelftestReport;
  expect(
    report.clean
      .filter((c) => !c.verdict.ok)
      .map((c) => `${c.label}: ${c.verdict.broken.map((b) => `${b.clause} ${b.outcome}`).join(', ')}`),
    'clean runs',
  ).toEqual([]);
  expect(report.survivors, `survivors:\n${tail}`).toEqual([]);
  const collateral = report.mutants
    .filter((m) => m.verdict.collateral.length)
    .map(
      (m) =>
        `${m.id} (${m.clause}) also broke ${m.verdict.collateral.map((c) => `${c.clause}: ${c.message ?? c.outcome}`).join('; ')}`,
    );
  expect(collateral, 'mutants that fail clauses beyond their own and their declared overlaps').toEqual([]);
  // A mutant whose only effect is an inferred assertion is reported as only warned, counted apart.
  const warned = report.mutants.filter((m) => m.verdict.status === 'warned').map((m) => m.id);
  expect(warned, 'mutants that only warned').toEqual(['wrong-types-accepted']);
  expect(report.score).toEqual({
    killed: MUTANTS.length - warned.length,
    warned: warned.length,
    total: MUTANTS.length,
  });
  expect(code, tail).toBe(0);
});

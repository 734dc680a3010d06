/**
 * Baselines, black box: a reference server started with a fault switch (`--fault
 * omit-null` breaks SHAPE-1) and runs of SHAPE-1 with a baseline that lists, or does not
 * list, that clause — known failures keep the run green (exit 0), new ones fail it (exit 1);
 * against a clean server the listed clause is reported fixed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, serve, tempDir, type Served } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';

const CLAUSE = 'SHAPE-1';
const FAULT = 'omit-null';
/**
 * A few of the clause's checks (text, long-text, number, auto-number): omit-null fails the first
 * three. Each failed check costs a Playwright worker restart (≈ 0.6 s); all 24 would cost 10 s a run.
 */
const SOME = 'text column|number column';

function baselineFile(dir: string, listed: Record<string, string>): string {
  const file = join(dir, 'baseline.json');
  writeFileSync(file, JSON.stringify({ implementation: 'reference server with a fault', expected_failures: listed }));
  return file;
}

async function runWith(server: Served, baseline: string, label: string) {
  const dir = tempDir(`baseline-${label}`);
  const r = await cli(['run', '--target-file', server.file, '--clauses', CLAUSE, '--grep', SOME, '--baseline', baseline, '--report-dir', dir]);
  return { r, results: readResults(dir), md: readFileSync(join(dir, 'clauses.md'), 'utf8') };
}

test.describe('against a server that breaks SHAPE-1', () => {
  let server: Served;
  test.beforeAll(async () => { server = await serve(['--fault', FAULT]); });
  test.afterAll(async () => { await server?.stop(); });

  test('a listed failure is known: exit 0', async () => {
    test.setTimeout(240_000);
    const { r, results, md } = await runWith(server, baselineFile(tempDir('bl'), { [CLAUSE]: 'our server omits unset values' }), 'known');
    expect(results.clauses.find((c) => c.id === CLAUSE)?.outcome, r.output).toBe('fail');
    expect(results.baseline).toMatchObject({ known: [CLAUSE], new: [], fixed: [] });
    expect(results.clauses.find((c) => c.id === CLAUSE)?.baseline).toBe('known failure');
    expect(md).toMatch(/\| SHAPE-1 \| ❌ fail \(known failure\) \|/);
    expect(r.stderr).toMatch(/baseline: 1 known \[SHAPE-1\], 0 new \[\], 0 fixed/);
    expect(r.code, r.output).toBe(0);
  });

  test('an unlisted failure is new: exit 1', async () => {
    test.setTimeout(240_000);
    const { r, results } = await runWith(server, baselineFile(tempDir('bl'), { 'SHAPE-2': 'something else' }), 'new');
    expect(results.baseline).toMatchObject({ known: [], new: [CLAUSE], fixed: [] });
    expect(results.clauses.find((c) => c.id === CLAUSE)?.baseline).toBe('new failure');
    expect(r.code, r.output).toBe(1);
  });
});

test('against a clean server, a listed clause that passes is reported fixed: exit 0', async () => {
  test.setTimeout(240_000);
  const server = await serve();
  try {
    const { r, results, md } = await runWith(server, baselineFile(tempDir('bl'), { [CLAUSE]: 'was broken' }), 'fixed');
    expect(results.baseline).toMatchObject({ known: [], new: [], fixed: [CLAUSE] });
    expect(md).toMatch(/Fixed \(remove from the baseline\): SHAPE-1\./);
    expect(r.stderr).toMatch(/1 fixed \[SHAPE-1\] — remove the fixed ones from the baseline/);
    expect(r.code, r.output).toBe(0);
  } finally {
    await server.stop();
  }
});

test.describe('upgrades do not surprise', () => {
  let server: Served;
  test.beforeAll(async () => { server = await serve(['--fault', FAULT]); });
  test.afterAll(async () => { await server?.stop(); });

  test('a baseline of an older harness still works, and names the clauses new since its version', async () => {
    test.setTimeout(240_000);
    // Written by 0.1.0 (no version recorded then): the extended clauses did not exist.
    const { r, results, md } = await runWith(server, baselineFile(tempDir('bl'), { [CLAUSE]: 'known since 0.1.0' }), 'old');
    expect(r.code, r.output).toBe(0);
    expect(results.baseline).toMatchObject({ known: [CLAUSE], harnessVersion: '0.1.0' });
    expect(results.baseline?.newSince?.clauses).toEqual(expect.arrayContaining(['ROUTE-8', 'SHAPE-8', 'BASE-1', 'CLIENT-1', 'ROBUST-1']));
    expect(results.baseline?.newSince?.clauses).not.toContain(CLAUSE);
    expect(md).toMatch(/written by harness 0\.1\.0[^]*New since harness 0\.1\.0: clauses ROUTE-8, SHAPE-8/);
    expect(r.stderr).toMatch(/new since the baseline's harness 0\.1\.0: clauses ROUTE-8/);
  });

  test('--write-baseline records the version and the checks; a later run with it lists the checks it did not know', async () => {
    test.setTimeout(240_000);
    const dir = tempDir('bl-write');
    const file = join(dir, 'written.json');
    const first = await cli(['run', '--target-file', server.file, '--clauses', CLAUSE, '--grep', 'text column', '--write-baseline', file, '--report-dir', join(dir, 'a')]);
    expect(first.code, first.output).toBe(1);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { harness_version: string; expected_failures: Record<string, string>; checks: string[] };
    expect(written.harness_version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(written.expected_failures)).toEqual([CLAUSE]);
    expect(written.checks.length).toBe(readResults(join(dir, 'a')).totals.tests);
    const { r, results } = await runWith(server, file, 'written');
    expect(r.code, r.output).toBe(0);
    expect(results.baseline?.newSince?.clauses).toEqual([]);
    const unknown = results.baseline?.newSince?.checks ?? [];
    expect(unknown.length).toBe(results.totals.tests - written.checks.length);
    expect(unknown.every((t) => !written.checks.includes(t))).toBe(true);
  });
});

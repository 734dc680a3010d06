/**
 * Holding a target to the right release and edition, black box: against a reference server
 * started as release 6.1 (or as the cloud edition), the run held to what it is passes, and
 * the run held to something else fails exactly the clauses that differ — for releases,
 * those `RELEASES[].clauses` name between the two; for editions, those whose expectations
 * come from the per-edition limits table. The matching runs are others' (the release matrix's
 * cells below, the selftest's clean cloud run): a server defect elsewhere fails both.
 */
import { expect, test } from '@playwright/test';
import { compareVersions, DEFAULT_EDITION, ENDPOINTS, NEWEST_VERSION, RELEASES } from '../src/spec/index.js';
import type { Results } from '../src/reports/results-schema.js';
import { cli, serve, tempDir } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';
import { cellClauses, cellRunArgs, ciCells, matrixEditions, matrixReleases, type Cell } from '../scripts/matrix.js';

// Independent tests (each run starts its own servers), and long ones: on workers of their own they do not end the project on one worker.
test.describe.configure({ mode: 'parallel' });

const after = (v: string | undefined, from: string, to: string) =>
  v !== undefined && compareVersions(v, from) > 0 && compareVersions(v, to) <= 0;

/**
 * Clauses whose expected behaviour changed in a release after `from`, up to and including `to`:
 * those the release history names, and for an operation that came or went in between, the
 * clauses its endpoint row names and ROUTE-8 (every documented operation the release offers exists).
 */
function clausesBetween(from: string, to: string): string[] {
  const rs = RELEASES.filter((r) => after(r.version, from, to));
  const ops = ENDPOINTS.filter((e) => after(e.since, from, to) || after(e.removed, from, to));
  return [
    ...new Set([
      ...rs.flatMap((r) => r.clauses),
      ...ops.flatMap((e) => [...(e.clauses ?? []), ...(e.openapi ? ['ROUTE-8'] : [])]),
    ]),
  ].sort();
}

/** RATE-5 reads its numbers from RATE_LIMITS[edition]; RATE-8 (cloud only) is skipped, not failed, when held to another edition. */
const EDITION_CLAUSES = ['RATE-5'];

const failing = (r: Results) =>
  r.clauses
    .filter((c) => c.outcome === 'fail')
    .map((c) => c.id)
    .sort();
const undecided = (r: Results) =>
  r.tests.filter((t) => t.outcome === 'error').map((t) => `${t.title}: ${t.message?.split('\n')[0]}`);
const covered = (r: Results, ids: string[]) =>
  ids.filter((id) => r.tests.some((t) => t.clause === id && t.outcome !== 'skip'));

async function runHeldTo(
  file: string,
  args: string[],
  label: string,
): Promise<{ code: number | null; results: Results; log: string }> {
  const dir = tempDir(label);
  const r = await cli(['run', '--target-file', file, '--report-dir', dir, ...args], { timeoutMs: 540_000 });
  return { code: r.code, results: readResults(dir), log: r.stderr.slice(-3000) };
}

// Held to 6.1, a 6.1 server passes: the release matrix's 6.1 cell below shows it for the clauses
// 6.1 and 6.2 changed (and a smoke set). Held to 6.2 it must then fail exactly those 6.2 changed
// and pass every other clause: a defect elsewhere fails this test too, as an extra clause.
test('a 6.1 server held to 6.2 fails exactly the clauses 6.2 changed, and passes every other', async () => {
  test.setTimeout(900_000);
  const server = await serve(['--api-version', '6.1']);
  try {
    // The rate family does not change between these releases; leaving it out saves a minute.
    const mismatched = await runHeldTo(server.file, ['--api-version', '6.2', '--clauses', '/^(?!RATE-)/'], 'v62');
    const differ = clausesBetween('6.1', '6.2');
    expect(differ).toEqual(['ACCT-1', 'BASE-7', 'ROUTE-8']);
    expect(
      covered(mismatched.results, differ),
      `clauses that differ but no executed check covers: ${differ.filter((id) => !covered(mismatched.results, [id]).length).join(', ')}`,
    ).toEqual(differ);
    expect(failing(mismatched.results), mismatched.log).toEqual(differ);
    expect(mismatched.code).toBe(1);
  } finally {
    await server.stop();
  }
});

// Held to cloud, a cloud server passes its rate family: the selftest's clean cloud run (every
// clause) shows it; a matching run here would repeat it. So every clause the mismatched run
// fails is the edition's doing, and it must fail exactly those.
test('a cloud server held to self-hosted fails exactly the edition-dependent clauses', async () => {
  test.setTimeout(900_000);
  const server = await serve(['--edition', 'cloud']);
  try {
    const mismatched = await runHeldTo(server.file, ['--edition', 'self-hosted', '--clauses', 'RATE-*'], 'self-hosted');
    expect(covered(mismatched.results, EDITION_CLAUSES)).toEqual(EDITION_CLAUSES);
    expect(failing(mismatched.results), mismatched.log).toEqual(EDITION_CLAUSES);
    expect(mismatched.code).toBe(1);
  } finally {
    await server.stop();
  }
});

// The release matrix (scripts/matrix.ts): each emulated release whose behaviour or an
// operation's form changed, with each edition whose limits differ, the embedded run held to
// it — here the clauses the release changed, those the next one changes, and a smoke set.
test('the release matrix covers the releases that changed something and the editions with limits of their own', () => {
  expect(matrixReleases()).toEqual(expect.arrayContaining(['4.4', '5.0', '5.3', '6.0', '6.1', '6.2']));
  expect(matrixEditions()).toEqual(['self-hosted', 'cloud']);
  // The changes of 6.0 (archive-view's form) are judged at 5.3 too, from the other side.
  expect(cellClauses('5.3')).toEqual(expect.arrayContaining(['ACCT-7', 'BASE-6', 'SHAPE-8', 'ROUTE-3']));
  // CI meets every release once and every edition, within its budget.
  expect(
    ciCells()
      .map((c) => c.version)
      .sort(),
  ).toEqual([...matrixReleases()].sort());
  expect(new Set(ciCells().map((c) => c.edition))).toEqual(new Set(matrixEditions()));
});

// The newest release at the default edition is the selftest's clean run, with every clause: not run twice.
const selftestCell = (c: Cell) => c.version === NEWEST_VERSION && c.edition === DEFAULT_EDITION;

for (const cell of ciCells().filter((c) => !selftestCell(c))) {
  test(`release matrix ${cell.version} ${cell.edition}: the embedded run held to it passes the clauses the release changed`, async () => {
    test.setTimeout(600_000);
    const dir = tempDir(`matrix-${cell.version}-${cell.edition}`);
    // Not the rate family: its bursts take the machine alone (the lock of test/helpers/cli.ts) and it has runs of its own above and in the selftest.
    const clauses = cellClauses(cell.version).filter((c) => !c.startsWith('RATE-'));
    const r = await cli(cellRunArgs(cell, dir, clauses), { timeoutMs: 540_000 });
    const results = readResults(dir);
    const log = r.stderr.slice(-3000);
    expect.soft(failing(results), log).toEqual([]);
    expect.soft(undecided(results), log).toEqual([]);
    expect(covered(results, clauses).length, `no check of ${clauses.join(', ')} ran`).toBeGreaterThan(0);
    expect(r.code, log).toBe(0);
  });
}

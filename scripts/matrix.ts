/**
 * The release matrix: the embedded run (the reference server held to the same release and
 * edition as the run) for each emulated release in which a behaviour or an operation's form
 * changed, with each edition whose limits differ. `npx tsx scripts/matrix.ts` runs every cell
 * whole and prints the table with times; `--changed-only` runs in each cell the clauses that
 * release changed plus a smoke set (test/cli-versions.test.ts does that in CI).
 * Options: --parallel N (cells side by side, default 2), --changed-only, --report-dir DIR.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  EDITIONS,
  EMULATED_VERSIONS,
  ENDPOINTS,
  RATE_LIMITS,
  RELEASES,
  VERSIONED_OPERATIONS,
  type Edition,
} from '../src/spec/index.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'conformance.js');
/** Checked in every cell of a --changed-only matrix: routes and base token, a base token's use, one column shape. */
export const SMOKE = ['ROUTE-3', 'AUTH-3', 'SHAPE-1'];

export interface Cell {
  version: string;
  edition: Edition;
}

/** Releases in which a behaviour switch flipped or an operation's form changed (a release that only adds operations is not one). */
export function matrixReleases(): string[] {
  return EMULATED_VERSIONS.filter((v) => {
    const r = RELEASES.find((x) => x.version === v)!;
    return (
      Object.keys(r.changes).length > 0 || r.clauses.length > 0 || VERSIONED_OPERATIONS.some((o) => o.changed === v)
    );
  });
}

/** One edition per distinct set of rate limits (dedicated's equal self-hosted's). */
export function matrixEditions(): Edition[] {
  const seen = new Map<string, Edition>();
  for (const e of ['self-hosted', ...EDITIONS.filter((x) => x !== 'self-hosted')] as Edition[]) {
    const key = JSON.stringify(RATE_LIMITS[e]);
    if (!seen.has(key)) seen.set(key, e);
  }
  return [...seen.values()];
}

export const matrixCells = (): Cell[] =>
  matrixReleases().flatMap((version) => matrixEditions().map((edition) => ({ version, edition })));

/**
 * The cells CI runs: every release of the matrix once, the editions taking turns (newest
 * release first, so it is judged as self-hosted), so each release and each edition is met
 * within the test budget; the whole matrix is `matrixCells()`.
 */
export function ciCells(): Cell[] {
  const editions = matrixEditions();
  return [...matrixReleases()].reverse().map((version, i) => ({ version, edition: editions[i % editions.length]! }));
}

/**
 * The clauses release `v` changed: those its history entry names, those whose checks use an
 * operation whose form it changed, and those of operations it added or removed (and ROUTE-8;
 * not at the oldest emulated release, where every operation is new).
 */
export function clausesChangedAt(v: string): string[] {
  const r = RELEASES.find((x) => x.version === v)!;
  const came = v === EMULATED_VERSIONS[0] ? [] : ENDPOINTS.filter((e) => e.since === v || e.removed === v);
  return [
    ...new Set([
      ...r.clauses,
      ...VERSIONED_OPERATIONS.filter((o) => o.changed === v).flatMap((o) => o.clauses),
      ...came.flatMap((e) => [...e.clauses, ...(e.openapi ? ['ROUTE-8'] : [])]),
    ]),
  ].sort();
}

/** What a --changed-only cell runs: the clauses its release changed and those the next matrix release changes (the change seen from both sides), and the smoke set. */
export function cellClauses(v: string): string[] {
  const releases = matrixReleases();
  const next = releases[releases.indexOf(v) + 1];
  return [...new Set([...clausesChangedAt(v), ...(next ? clausesChangedAt(next) : []), ...SMOKE])].sort();
}

export interface CellResult extends Cell {
  code: number | null;
  ms: number;
  summary: string;
  reportDir: string;
}

/** The `conformance run` arguments of a cell (the matrix and its CI cells in test/cli-versions.test.ts): held to its release and edition, no HTML, no transcripts. */
export function cellRunArgs(cell: Cell, reportDir: string, clauses?: readonly string[]): string[] {
  return [
    'run',
    '--api-version',
    cell.version,
    '--edition',
    cell.edition,
    '--no-html',
    '--transcripts',
    'none',
    '--report-dir',
    reportDir,
    ...(clauses ? ['--clauses', clauses.join(',')] : []),
  ];
}

/** One cell: the embedded run held to the cell's release and edition; `clauses` undefined runs all. */
export function runCell(cell: Cell, reportDir: string, clauses?: readonly string[]): Promise<CellResult> {
  const args = [BIN, ...cellRunArgs(cell, reportDir, clauses)];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('close', (code) => {
      resolve({ ...cell, code, ms: Date.now() - started, summary: summaryOf(reportDir, out), reportDir });
    });
  });
}

/** PASSED, FAILED or UNDECIDED with the totals and what failed or erred, from the cell's results.json. */
function summaryOf(reportDir: string, output: string): string {
  let r: { totals?: Record<string, number>; tests?: { title: string; outcome: string }[] };
  try {
    r = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as typeof r;
  } catch {
    return `NO RESULTS — ${output.slice(-300)}`;
  }
  const t = r.totals ?? {};
  const verdict = (t.fail ?? 0) > 0 ? 'FAILED' : (t.error ?? 0) > 0 ? 'UNDECIDED' : 'PASSED';
  const bad = (r.tests ?? [])
    .filter((x) => x.outcome === 'fail' || x.outcome === 'error')
    .map((x) => `${x.outcome} ${x.title.slice(0, 90)}`);
  return `${verdict} — ${t.pass ?? 0} passed, ${t.fail ?? 0} failed, ${t.error ?? 0} errors, ${t.skip ?? 0} skipped${bad.length ? `: ${bad.join('; ')}` : ''}`;
}

/** Run `cells`, `parallel` at a time. */
export async function runMatrix(
  cells: readonly Cell[],
  o: { parallel: number; reportDir: string; changedOnly: boolean },
): Promise<CellResult[]> {
  const results: CellResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cells.length) {
      const c = cells[next++]!;
      const clauses = o.changedOnly ? cellClauses(c.version) : undefined;
      results.push(await runCell(c, join(o.reportDir, `${c.version}-${c.edition}`), clauses));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.parallel) }, worker));
  return cells.map((c) => results.find((r) => r.version === c.version && r.edition === c.edition)!);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const reportDir = opt('--report-dir') ?? mkdtempSync(join(tmpdir(), 'conformance-matrix-'));
  const started = Date.now();
  const results = await runMatrix(matrixCells(), {
    parallel: Number(opt('--parallel') ?? 2),
    reportDir,
    changedOnly: argv.includes('--changed-only'),
  });
  const editions = matrixEditions();
  const cell = (v: string, e: Edition) => {
    const r = results.find((x) => x.version === v && x.edition === e)!;
    return `${r.summary.split(' — ')[0]} (${(r.ms / 1000).toFixed(0)} s)`;
  };
  console.log(`| Release | ${editions.join(' | ')} |\n|---|${editions.map(() => '---|').join('')}`);
  for (const v of matrixReleases()) console.log(`| ${v} | ${editions.map((e) => cell(v, e)).join(' | ')} |`);
  for (const r of results.filter((x) => x.code !== 0))
    console.log(`${r.version} ${r.edition}: ${r.summary} (${r.reportDir})`);
  console.log(
    `matrix: ${results.length} cells in ${((Date.now() - started) / 1000).toFixed(0)} s, reports in ${reportDir}`,
  );
  process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

/**
 * `npm run bench`: runs every benchmark module `bench/*.ts` (each exports `run()` answering
 * its figures), one after the other so they do not compete for the cores, prints one table
 * and writes `reports/bench.json`. `npm run bench -- server` runs the modules whose file
 * name contains `server` only, and keeps the other modules' figures from the last run. Last,
 * issue 13's speed targets with this run's figure beside each. The whole set takes about as
 * long as CI plus five minutes (`ci` clones and runs the CI job).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Figures = Record<string, number | string>;
interface Outcome {
  module: string;
  seconds: number;
  figures?: Figures;
  error?: string;
}

const DIR = import.meta.dirname;
const REPORT = join(DIR, '..', 'reports', 'bench.json');

function modules(filter: string[]): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'main.ts')
    .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
    .sort();
}

async function runOne(file: string): Promise<Outcome> {
  const module = file.replace(/\.ts$/, '');
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  try {
    const mod = (await import(pathToFileURL(join(DIR, file)).href)) as { run?: () => Promise<Figures> };
    if (typeof mod.run !== 'function') return { module, seconds: 0, error: 'exports no run()' };
    process.stderr.write(`bench: ${module}…\n`);
    return { module, figures: await mod.run(), seconds: seconds() };
  } catch (e) {
    return { module, seconds: seconds(), error: (e as Error).stack ?? String(e) };
  }
}

function print(outcomes: Outcome[]): void {
  const rows: [string, string, string][] = [];
  for (const o of outcomes) {
    if (o.error) rows.push([o.module, 'ERROR', o.error.split('\n')[0]!]);
    for (const [k, v] of Object.entries(o.figures ?? {})) rows.push([o.module, k, String(v)]);
  }
  const w = [0, 1].map((i) => Math.max(...rows.map((r) => r[i]!.length), 6));
  const line = (r: [string, string, string]) => `${r[0].padEnd(w[0]!)}  ${r[1].padEnd(w[1]!)}  ${r[2]}`;
  process.stdout.write(
    `${line(['module', 'figure', 'value'])}\n${'-'.repeat(w[0]! + w[1]! + 20)}\n${rows.map(line).join('\n')}\n`,
  );
}

/**
 * Issue 13's speed targets, each read from the figure of this run that measures it; a target
 * whose module did not run this time says so rather than showing an old figure.
 */
const TARGETS: { what: string; module: string; figure: string; target: string; met: (v: number) => boolean }[] = [
  {
    what: 'embedded run, wall (median of 3)',
    module: 'run',
    figure: 'full run, wall (s)',
    target: '≤ 15 s',
    met: (v) => v <= 15,
  },
  {
    what: 'selftest, every mutant',
    module: 'ci',
    figure: 'selftest: test time (min)',
    target: '≤ 5 min',
    met: (v) => v <= 5,
  },
  { what: 'fresh-clone .ci/run', module: 'ci', figure: 'CI wall (min)', target: '≤ 10 min', met: (v) => v <= 10 },
  {
    what: 'list 1,000 rows, every request new',
    module: 'server',
    figure: 'list_1000_rows_uncached_rps',
    target: '≥ 300/s',
    met: (v) => v >= 300,
  },
];

function printTargets(outcomes: Outcome[]): void {
  const lines = TARGETS.map((t) => {
    const v = outcomes.find((o) => o.module === t.module)?.figures?.[t.figure];
    const value = typeof v === 'number' ? `${v}` : 'not measured in this run';
    const verdict = typeof v === 'number' ? (t.met(v) ? 'met' : 'MISSED') : '';
    return `${t.what.padEnd(36)}  ${value.padEnd(24)}  target ${t.target.padEnd(9)}  ${verdict}`;
  });
  process.stdout.write(`\nspeed targets (issue 13), from this run:\n${lines.join('\n')}\n`);
}

/** Results of earlier runs, kept for the modules this run did not select. */
function previous(): Record<string, unknown> {
  try {
    return (JSON.parse(readFileSync(REPORT, 'utf8')) as { results?: Record<string, unknown> }).results ?? {};
  } catch {
    return {};
  }
}

async function main(): Promise<number> {
  const filter = process.argv.slice(2);
  const outcomes: Outcome[] = [];
  const results: Record<string, unknown> = filter.length ? previous() : {};
  for (const f of modules(filter)) {
    // Figures are only comparable on an otherwise idle machine: each module notes the load it met.
    const ranAt = new Date().toISOString();
    const load = Math.round(loadavg()[0]! * 100) / 100;
    const o = await runOne(f);
    outcomes.push(o);
    results[o.module] = {
      ran_at: ranAt,
      load_average_at_start: load,
      seconds: o.seconds,
      ...(o.error ? { error: o.error } : o.figures),
    };
  }
  print(outcomes);
  printTargets(outcomes);
  mkdirSync(join(DIR, '..', 'reports'), { recursive: true });
  const report = { written_at: new Date().toISOString(), node: process.version, cpus: cpus().length, results };
  writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nwrote ${REPORT}\n`);
  return outcomes.some((o) => o.error) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exitCode = 2;
  },
);

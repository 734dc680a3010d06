/** `conformance selftest`: prove the suites — clean targets pass, every mutant is caught by its clause. */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { MUTANTS, selectMutants } from '../../mutants/catalog.js';
import { killAllRuns } from '../../mutants/child-run.js';
import { catalogTable, summary, writeReports } from '../../mutants/report.js';
import { selftest } from '../../mutants/selftest.js';
import { EMBEDDED_RATE_WINDOW } from '../../runner/options.js';
import { defaultReportDir } from '../../runner/run.js';
import { CliError, EXIT, setOutcome } from '../exit.js';

interface Args {
  mutants?: string;
  list: boolean;
  parallel: number;
  workers: number;
  rateWindow: number;
  runTimeout: number;
  reportDir?: string;
  clean: boolean;
  full: boolean;
  batch: boolean;
}

export function builder(y: Argv): Argv<Args> {
  return (
    y
      .option('mutants', {
        type: 'string',
        describe:
          'Only mutants whose id or clause matches, e.g. "RATE-*,omit-null" or "/^SHAPE-/" (and only the clean runs they need)',
      })
      .option('list', { type: 'boolean', default: false, describe: 'List the mutant catalog and exit' })
      // A run waits on process start-up and rate windows a good part of its time: one run more than cores keeps them busy (2 cores: 3 runs, 436 s against 489 s with 2).
      .option('parallel', {
        type: 'number',
        default: availableParallelism() + 1,
        describe: 'Runs at once (each against its own servers)',
        defaultDescription: 'cores + 1',
      })
      .option('workers', { type: 'number', default: 1, describe: "Test workers of each run's functional phase" })
      .option('rate-window', {
        type: 'number',
        alias: 'window',
        default: EMBEDDED_RATE_WINDOW,
        describe: "Rate-limit window (seconds) of every run's reference servers (--window: a deprecated alias)",
      })
      .option('run-timeout', {
        type: 'number',
        default: 600,
        describe: 'Seconds one run may take before it is stopped',
      })
      .option('report-dir', {
        type: 'string',
        describe: 'Where the reports go (default: reports/selftest/<timestamp>/)',
      })
      .option('clean', {
        type: 'boolean',
        default: true,
        describe: 'Also run the clean targets (--no-clean: mutants only, every check)',
      })
      .option('full', {
        type: 'boolean',
        default: false,
        describe:
          'Run every check against every mutant (default: only the checks that reach its faults in the clean run)',
      })
      .option('batch', {
        type: 'boolean',
        default: true,
        describe:
          'Mutants whose checks are disjoint share a run; a member is run again alone unless that run killed it cleanly (--no-batch: a run each)',
      }) as unknown as Argv<Args>
  );
}

export async function handler(argv: ArgumentsCamelCase<Args>): Promise<void> {
  const list = selectMutants(argv.mutants, MUTANTS);
  if (argv.mutants && list.length === 0)
    throw new CliError(`--mutants ${argv.mutants} matches no mutant (see --list)`, EXIT.usage);
  if (argv.list) {
    process.stdout.write(catalogTable(list));
    return;
  }
  for (const [name, v, min] of [
    ['parallel', argv.parallel, 1],
    ['workers', argv.workers, 1],
    ['rate-window', argv.rateWindow, 1],
    ['run-timeout', argv.runTimeout, 10],
  ] as const) {
    if (!Number.isFinite(v) || v < min) throw new CliError(`--${name} must be a number ≥ ${min}`, EXIT.usage);
  }
  const dir = resolve(argv.reportDir ?? defaultReportDir().replace(/^reports[\\/]/, 'reports/selftest/'));
  mkdirSync(dir, { recursive: true });
  const log = (s: string) => process.stderr.write(`${s}\n`);
  log(
    `selftest: ${list.length} mutant(s)${argv.clean ? ' and the clean runs' : ''}, ${argv.parallel} at a time — reports in ${dir}`,
  );
  const stop = () => {
    log('selftest: interrupted — stopping the runs');
    killAllRuns('SIGINT');
  };
  process.once('SIGINT', stop);
  try {
    const report = await selftest({
      mutants: list,
      parallel: Math.floor(argv.parallel),
      workers: Math.floor(argv.workers),
      window: argv.rateWindow,
      runTimeoutMs: argv.runTimeout * 1000,
      reportDir: dir,
      clean: argv.clean,
      subset: !!argv.mutants,
      full: argv.full || !argv.clean,
      batch: argv.batch && !argv.full,
      log,
    });
    writeReports(dir, report);
    process.stdout.write(summary(report, dir));
    setOutcome(report.ok ? EXIT.ok : EXIT.failed);
  } finally {
    process.off('SIGINT', stop);
  }
}

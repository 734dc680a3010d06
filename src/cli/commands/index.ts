/**
 * Every command, listed once: its name and one-line description here, its builder and handler
 * in its own module, imported only when that command runs (or shows its --help). Importing
 * them all at start-up cost every start, `--version` included, the import of the whole harness.
 */
import type { Argv, CommandModule } from 'yargs';

/** What a command's module exports (yargs types each module's arguments its own way). */
interface CommandParts {
  builder(y: Argv): unknown;
  handler(argv: never): unknown;
}

/** A command whose module is imported when yargs first needs its builder or handler. */
const lazy = (command: string, describe: string, load: () => Promise<unknown>): CommandModule => {
  const parts = async () => (await load()) as CommandParts;
  return {
    command,
    describe,
    builder: async (y) => (await parts()).builder(y) as Argv,
    handler: async (argv) => {
      await (await parts()).handler(argv as never);
    },
  };
};

export const COMMANDS: CommandModule[] = [
  lazy(
    'run',
    'Run the conformance suites against a target (default: the embedded reference server)',
    () => import('./run.js'),
  ),
  lazy(
    'replay <report>',
    'Run again the checks that failed or errored in a report (its seed, release, edition and options): FIXED / STILL FAILING / NOW ERROR',
    () => import('./replay.js'),
  ),
  lazy(
    'explain <clause>',
    'Explain a clause: its text, source and evidence, its checks, what a failure means, how to run just it',
    () => import('./explain.js'),
  ),
  lazy('serve', 'Start the reference server on loopback', () => import('./serve.js')),
  lazy(
    'clean',
    'Remove the tables and bases earlier runs left behind (names cf_<timestamp>_<id>_…)',
    () => import('./clean.js'),
  ),
  lazy(
    'selftest',
    'Run the suites against the clean reference server and against every mutant (src/mutants/catalog.ts)',
    () => import('./selftest.js'),
  ),
  lazy(
    'load',
    'Run a load scenario (k6 or the built-in runner), emit k6 bundles, merge instances, or compare runs',
    () => import('./load.js'),
  ),
  lazy(
    'diff',
    'Compare two targets call by call (default: against the embedded reference server), live or against a recording',
    () => import('./diff.js'),
  ),
];

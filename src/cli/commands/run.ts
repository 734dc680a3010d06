/** `conformance run`: judge a target against the specification's clauses. */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { recordCoverage } from '../../mutants/coverage.js';
import { preflight, run } from '../../runner/run.js';
import type { RunningServer } from '../../server/index.js';
import { parseRunOptions, printableConfig, runBuilder, type RunOptions } from '../../runner/options.js';
import { CliError, EXIT, setOutcome } from '../exit.js';

export const builder = (y: Argv) => runBuilder(y);

export async function handler(argv: ArgumentsCamelCase<Record<string, unknown>>): Promise<void> {
  let opts: RunOptions;
  try {
    opts = parseRunOptions(argv);
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.usage);
  }
  const problem = preflight(opts);
  if (problem) throw new CliError(problem, EXIT.usage);
  if (opts.printConfig) {
    process.stdout.write(`${JSON.stringify(printableConfig(opts), null, 2)}\n`);
    return;
  }
  try {
    // `conformance selftest` runs this command with --embedded-coverage: it learns which check reaches which fault switch.
    const file = opts.embeddedCoverage;
    const hooks = file ? { onEmbeddedServers: (servers: RunningServer[]) => recordCoverage(servers, file) } : {};
    const outcome = await run(opts, hooks);
    setOutcome(outcome.exitCode);
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.harness);
  }
}

/** `conformance run`: judge a target against the specification's clauses. */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { run } from '../../runner/run.js';
import { parseRunOptions, runBuilder } from '../../runner/options.js';
import { CliError, EXIT, setOutcome } from '../exit.js';

export const command = 'run';
export const describe = 'Run the conformance suites against a target (default: the embedded reference server)';
export const builder = (y: Argv) => runBuilder(y);

export async function handler(argv: ArgumentsCamelCase<Record<string, unknown>>): Promise<void> {
  let opts;
  try {
    opts = parseRunOptions(argv);
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.usage);
  }
  try {
    const outcome = await run(opts);
    setOutcome(outcome.exitCode);
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.harness);
  }
}

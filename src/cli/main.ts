/**
 * `conformance`: the command-line entry. Commands live one per module in ./commands.
 * CONFORMANCE_* variables are read by `run` only (its builder): read here, a variable meant
 * for `run` would be an unknown argument of every other command. bin/conformance.js calls `main`.
 */
import yargs from 'yargs';
import { identityLine } from '../spec/identity.js';
import { COMMANDS } from './commands/index.js';
import { CliError, EXIT, takeOutcome } from './exit.js';

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const cli = yargs(argv)
    .scriptName('conformance')
    .version(identityLine())
    .command(COMMANDS)
    .demandCommand(1, 'Name a command (see --help).')
    .strict()
    .wrap(Math.min(120, process.stdout.columns || 100))
    .fail((msg, err) => {
      throw err ?? new CliError(msg);
    });
  try {
    await cli.parseAsync();
    code = takeOutcome();
  } catch (err) {
    const e = err as Error;
    // One line, whatever the source (yargs lists choices over several lines).
    process.stderr.write(`conformance: ${e.message.trim().replace(/\s*\n\s*/g, ' ')}\n`);
    code = err instanceof CliError ? err.exitCode : EXIT.harness;
  }
  return code;
}

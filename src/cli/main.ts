/** `conformance`: the command-line entry. Commands live one per module in ./commands. */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { COMMANDS } from './commands/index.js';
import { CliError, EXIT, takeOutcome } from './exit.js';

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const cli = yargs(argv)
    .scriptName('conformance')
    .command(COMMANDS)
    .demandCommand(1, 'Name a command (see --help).')
    .strict()
    .env('CONFORMANCE')
    .wrap(Math.min(120, process.stdout.columns || 100))
    .fail((msg, err) => {
      throw err ?? new CliError(msg);
    });
  try {
    await cli.parseAsync();
    code = takeOutcome();
  } catch (err) {
    const e = err as Error;
    process.stderr.write(`conformance: ${e.message}\n`);
    code = err instanceof CliError ? err.exitCode : EXIT.harness;
  }
  return code;
}

const isEntry = process.argv[1] && /cli[\\/]main\.[jt]s$|bin[\\/]conformance(\.js)?$/.test(process.argv[1]);
if (isEntry || process.env.CONFHARNESS_CLI_ENTRY === '1') {
  main(hideBin(process.argv)).then((code) => {
    process.exitCode = code;
  });
}

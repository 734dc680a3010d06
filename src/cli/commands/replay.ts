/** `conformance replay REPORT_DIR`: run the checks that failed or errored in a report again, the same way. */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { RUN_OPTIONS } from '../../runner/options.js';
import { replay } from '../../runner/replay.js';
import { CliError, EXIT, setOutcome } from '../exit.js';

export const builder = (y: Argv) =>
  y
    .positional('report', { type: 'string', describe: "The folder of an earlier run's reports (its results.json)" })
    .options({
      all: {
        type: 'boolean',
        default: false,
        describe: "Run the report's whole selection again, not only what failed",
      },
      target: RUN_OPTIONS.target,
      'target-file': RUN_OPTIONS['target-file'],
      'account-token': RUN_OPTIONS['account-token'],
      username: RUN_OPTIONS.username,
      password: RUN_OPTIONS.password,
      base: RUN_OPTIONS.base,
      'report-dir': { ...RUN_OPTIONS['report-dir'], describe: "Where the replay's own reports go" },
      html: RUN_OPTIONS.html,
    })
    .epilog(
      'Exit codes: 0 every check replayed is fixed; 1 one still fails; 2 one now errors, did not run, or the run could not start (usage, preflight).',
    );

interface Args {
  report: string;
  all: boolean;
  target?: string;
  targetFile?: string;
  accountToken?: string;
  username?: string;
  password?: string;
  base?: string[];
  reportDir?: string;
  html: boolean;
}

export async function handler(argv: ArgumentsCamelCase<Args>): Promise<void> {
  let outcome;
  try {
    outcome = await replay({
      report: argv.report,
      all: argv.all,
      reportDir: argv.reportDir,
      html: argv.html,
      target: {
        target: argv.target,
        targetFile: argv.targetFile,
        accountToken: argv.accountToken,
        username: argv.username,
        password: argv.password,
        base: argv.base,
      },
    });
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.usage);
  }
  process.stdout.write(`${outcome.lines.join('\n')}\n`);
  setOutcome(outcome.exitCode);
}

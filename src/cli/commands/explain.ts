/** `conformance explain CLAUSE`: a clause's text, source and evidence, its checks, and how to run just it. */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { explain } from '../../runner/explain.js';
import { CliError, EXIT } from '../exit.js';

export const builder = (y: Argv) => y.positional('clause', { type: 'string', describe: 'A clause ID, e.g. SHAPE-1' });

export function handler(argv: ArgumentsCamelCase<{ clause: string }>): void {
  let lines: string[];
  try {
    lines = explain(argv.clause);
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.usage);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

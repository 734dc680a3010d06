/** `conformance diff`: where a target answers differently from another (the real service, live or recorded, or the reference server). */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { diff, diffDone, SideUnusable, type DiffOptions } from '../../diff/diff.js';
import { SEQUENCES, type Sequence } from '../../diff/sequences.js';
import { RUN_OPTIONS } from '../../runner/options.js';
import { defaultReportDir } from '../../runner/run.js';
import { CliError, EXIT, setOutcome } from '../exit.js';

/** The flags as yargs gives them: the options diff() takes as they are, and those the handler turns into its form. */
type Args = Pick<
  DiffOptions,
  'targetFile' | 'againstFile' | 'againstRecording' | 'record' | 'recordName' | 'accept' | 'allowPlanChanges' | 'caFile'
> & {
  reportDir?: string;
  sequences?: string;
  operations?: string;
  requestTimeout: number;
  targetFault: string[];
  againstFault: string[];
  insecure: boolean;
};

export const builder = (y: Argv) =>
  y
    .option('target-file', {
      type: 'string',
      describe: 'Descriptor of the target to diff (spec/target-descriptor.md)',
      defaultDescription: 'the embedded reference server',
    })
    .option('against-file', {
      type: 'string',
      describe: 'Descriptor of the target to diff against (e.g. a test account on the real service)',
      defaultDescription: 'the embedded reference server',
    })
    .option('against-recording', {
      type: 'string',
      describe: 'Diff against a recording made with --record (no network access to the recorded side)',
    })
    .option('record', {
      type: 'string',
      describe: "Save the target's normalised exchanges as a recording in this folder",
    })
    .option('record-name', {
      type: 'string',
      describe: 'Name the recording is cited by (<name>#<ref>)',
      defaultDescription: "the folder's name",
    })
    .option('accept', {
      type: 'string',
      describe:
        'Known divergences (JSON {"accepted":[{"ref","kind"?,"reason"}]}): reported, not failing; stale entries are reported',
    })
    .option('report-dir', {
      type: 'string',
      describe: 'Where diff.html, diff.md, diff.json and diff.schema.json go',
      defaultDescription: 'reports/<timestamp>/',
    })
    .option('sequences', {
      type: 'string',
      describe: `Only these sequences, comma-separated (${SEQUENCES.join(', ')})`,
      defaultDescription: 'all',
    })
    .option('operations', {
      type: 'string',
      describe:
        'Only operations whose endpoint id matches this regular expression (the answers and probe sequences, made per operation)',
      defaultDescription: 'all',
    })
    .option('allow-plan-changes', {
      type: 'boolean',
      describe: 'Let calls add a user to the team (on a real cloud that costs money: use a test instance)',
      defaultDescription: 'on for the embedded server only',
    })
    .option('request-timeout', { type: 'number', default: 15, describe: 'Seconds to wait for response headers' })
    .option('ca-file', RUN_OPTIONS['ca-file'])
    .option('insecure', RUN_OPTIONS.insecure)
    .option('target-fault', {
      type: 'string',
      array: true,
      default: [],
      hidden: true,
      describe: 'Fault switch of the embedded target (mutant tests)',
    })
    .option('against-fault', {
      type: 'string',
      array: true,
      default: [],
      hidden: true,
      describe: 'Fault switch of the embedded side diffed against',
    })
    .conflicts('against-file', 'against-recording')
    .epilog('Exit codes: 0 no divergence (or all accepted), 1 divergences, 2 usage error or a side could not be run.');

function sequencesOf(s: string | undefined): Sequence[] | undefined {
  if (!s) return undefined;
  const list = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = list.filter((x) => !(SEQUENCES as readonly string[]).includes(x));
  if (bad.length)
    throw new CliError(`--sequences: unknown ${bad.join(', ')} (known: ${SEQUENCES.join(', ')})`, EXIT.usage);
  return list as Sequence[];
}

export async function handler(argv: ArgumentsCamelCase<Args>): Promise<void> {
  if (argv.targetFile && argv.targetFault.length)
    throw new CliError('--target-fault applies to the embedded reference server only', EXIT.usage);
  if ((argv.againstFile || argv.againstRecording) && argv.againstFault.length)
    throw new CliError('--against-fault applies to the embedded reference server only', EXIT.usage);
  let operations: RegExp | undefined;
  try {
    operations = argv.operations ? new RegExp(argv.operations) : undefined;
  } catch (e) {
    throw new CliError(`--operations: ${(e as Error).message}`, EXIT.usage);
  }
  const reportDir = argv.reportDir ?? defaultReportDir();
  try {
    const r = await diff({
      targetFile: argv.targetFile,
      againstFile: argv.againstFile,
      againstRecording: argv.againstRecording,
      record: argv.record,
      recordName: argv.recordName,
      accept: argv.accept,
      reportDir,
      sequences: sequencesOf(argv.sequences),
      operations,
      allowPlanChanges: argv.allowPlanChanges,
      requestTimeoutS: argv.requestTimeout,
      targetFaults: argv.targetFault,
      againstFaults: argv.againstFault,
      caFile: argv.caFile ?? process.env.CONFORMANCE_CA_FILE,
      insecure: argv.insecure,
    });
    const s = r.summary;
    process.stderr.write(
      `conformance diff: ${s.exchanges} exchanges, ${s.same} the same, ${s.diverged} diverged (${s.open} open, ${s.accepted} accepted), ${s.notCompared} not compared; ${r.target.calls + r.against.calls} calls in ${(r.durationMs / 1000).toFixed(1)} s\n`,
    );
    for (const e of r.stale)
      process.stderr.write(
        `conformance diff: stale --accept entry ${e.ref}${e.kind ? ` (${e.kind})` : ''}: it matches no divergence\n`,
      );
    for (const p of r.problems) process.stderr.write(`conformance diff: ${p}\n`);
    if (argv.record) process.stderr.write(`conformance diff: recording written to ${argv.record}\n`);
    process.stderr.write(`conformance diff: reports in ${reportDir} (diff.html, diff.md, diff.json)\n`);
    setOutcome(r.exitCode);
  } catch (e) {
    if (e instanceof CliError) throw e;
    const usage = /^(accept file|recording|CA file) /.test((e as Error).message);
    throw new CliError(
      `diff: ${(e as Error).message}`,
      usage || !(e instanceof SideUnusable) ? EXIT.usage : EXIT.harness,
    );
  } finally {
    await diffDone();
  }
}

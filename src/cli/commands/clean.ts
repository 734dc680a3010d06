/** `conformance clean`: remove tables that earlier runs left in the target's bases, and bases they left in its account. */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { closeAgents } from '../../client/http.js';
import { redactText } from '../../client/redact.js';
import { setTrust } from '../../client/tls.js';
import { RATE_LIMITS } from '../../spec/index.js';
import { RunState } from '../../harness/state.js';
import { Target } from '../../harness/target.js';
import { preflightTarget } from '../../harness/preflight.js';
import { sweepBases } from '../../runner/base-sweep.js';
import { olderThan, PREFIX_RE } from '../../runner/fixtures.js';
import { parseRunOptions, RUN_OPTIONS, runDefaults } from '../../runner/options.js';
import { resolveTarget, trustOf } from '../../runner/target.js';
import { CliError, EXIT } from '../exit.js';

export const builder = (y: Argv) =>
  y
    .options({
      target: RUN_OPTIONS.target,
      'target-file': RUN_OPTIONS['target-file'],
      base: RUN_OPTIONS.base,
      'account-token': RUN_OPTIONS['account-token'],
      'ca-file': RUN_OPTIONS['ca-file'],
      insecure: RUN_OPTIONS.insecure,
    })
    .option('older-than', {
      type: 'number',
      default: 60,
      describe: 'Only tables of runs started at least this many minutes ago (0 = all)',
    })
    .config('config');

export async function handler(argv: ArgumentsCamelCase<Record<string, unknown>>): Promise<void> {
  // yargs reads `--older-than abc` as NaN, which no age reaches: "nothing to remove" would hide the typo.
  const minutes = Number(argv.olderThan);
  if (!Number.isFinite(minutes) || minutes < 0)
    throw new CliError('--older-than: a number of minutes, 0 or more', EXIT.usage);
  if (!argv.target && !argv.targetFile) throw new CliError('clean needs --target or --target-file', EXIT.usage);
  const opts = parseRunOptions({ ...runDefaults(), caFile: process.env.CONFORMANCE_CA_FILE, ...argv });
  const resolved = await resolveTarget(opts);
  const tls = trustOf(opts, resolved.descriptor);
  try {
    setTrust(tls);
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.usage);
  }
  const pre = await preflightTarget(resolved.descriptor);
  if (!pre.ok) {
    await closeAgents();
    throw new CliError(`clean: preflight failed: ${pre.what}`, EXIT.harness);
  }
  const target = new Target(
    RunState.parse({
      runId: 'clean',
      tablePrefix: 'cf_',
      target: resolved.descriptor,
      edition: resolved.descriptor.edition,
      apiVersion: resolved.descriptor.api_version,
      http: { connectMs: 5000, headersMs: 15000, bodyMs: 30000, maxBodyBytes: 32 * 1024 * 1024 },
      tls,
      sourceIps: [],
      webhook: { listenHost: '127.0.0.1', listenPort: 0 },
      limits: { source: 'not used by clean', values: { ...RATE_LIMITS[resolved.descriptor.edition] } },
    }),
  );
  const { sweepTables } = await import('../../runner/fixtures.js');
  const ms = minutes * 60_000;
  const leftover = (name: string) => PREFIX_RE.test(name) && olderThan(name, ms);
  const { removed, problems } = await sweepTables(target, leftover);
  const bases = await sweepBases(target, leftover);
  problems.push(...bases.problems);
  await closeAgents();
  if (bases.removed.length)
    process.stdout.write(
      `removed ${bases.removed.length} base(s):\n${bases.removed.map((n) => `  ${n}`).join('\n')}\n`,
    );
  process.stdout.write(
    removed.length
      ? `removed ${removed.length} table(s):\n${removed.map((n) => `  ${n}`).join('\n')}\n`
      : problems.length || bases.removed.length
        ? ''
        : 'nothing to remove\n',
  );
  // Unable to list or delete is not "nothing to remove": the tables may still be there.
  if (problems.length)
    throw new CliError(
      `clean: ${problems.length} problem(s):\n${problems.map((p) => `  ${redactText(p)}`).join('\n')}`,
      EXIT.harness,
    );
}

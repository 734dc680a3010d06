/**
 * `conformance replay REPORT_DIR`: run again exactly the checks that failed or errored in an
 * earlier report — with that run's seed, release, edition and options, as its results.json
 * recorded them — and say of each whether it is FIXED, STILL FAILING or NOW ERROR. `--all`
 * runs the report's whole selection again. The target is the one the report judged (its
 * descriptor file, or the embedded server) unless another is given.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Results, type TestResultT } from '../reports/results-schema.js';
import { parseRunOptions, runDefaults, type RunOptions } from './options.js';
import { preflight, run } from './run.js';
import type { RunHooks } from './target.js';

/** What the user gives to replay: the report, and optionally another target and where the new report goes. */
export interface ReplayRequest {
  report: string;
  all: boolean;
  /** Target options given to replay (they replace the report's target): target, targetFile, credentials. */
  target: Partial<Pick<RunOptions, 'target' | 'targetFile' | 'accountToken' | 'username' | 'password' | 'base'>>;
  reportDir?: string;
  html: boolean;
}

type Now = 'FIXED' | 'STILL FAILING' | 'NOW ERROR' | 'NOW SKIPPED' | 'NOT RUN';
interface ReplayOutcome {
  exitCode: number;
  lines: string[];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function readReport(dir: string): Results {
  const file = join(dir, 'results.json');
  if (!existsSync(file)) throw new Error(`replay: ${file} not found — name the folder of a run's reports`);
  const r = Results.parse(JSON.parse(readFileSync(file, 'utf8')));
  if (!r.run.options)
    throw new Error(
      `replay: ${file} does not record its run's options (written by an older harness): run it again with \`conformance run\``,
    );
  return r;
}

/** The options of the replay run: the report's, its selection narrowed to the failed checks (unless --all), the target as given. */
export function replayRunOptions(r: Results, req: ReplayRequest, failed: readonly TestResultT[]): RunOptions {
  const recorded = { ...r.run.options } as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(req.target).filter(([, v]) => v !== undefined));
  if (given.target || given.targetFile) {
    delete recorded.target;
    delete recorded.targetFile;
  } else if (recorded.target && !recorded.targetFile)
    throw new Error(
      `replay: the report's run judged ${String(recorded.target)} with credentials given as flags, which reports never keep: give --target-file (or --target and the credentials) again`,
    );
  const selection: Record<string, unknown> = {};
  if (!req.all) {
    const clauses = [...new Set(failed.map((t) => t.clause))];
    selection.clauses = clauses.every((c) => c) ? clauses.join(',') : undefined;
    selection.grep = `(?:${failed.map((t) => escapeRe(t.title)).join('|')})$`;
  }
  return parseRunOptions({
    ...runDefaults(),
    ...recorded,
    ...given,
    ...selection,
    reportDir: req.reportDir,
    html: req.html,
  });
}

function nowOf(before: TestResultT, after: Results | undefined): Now {
  const t =
    after?.tests.find((x) => x.title === before.title && x.project === before.project) ??
    after?.tests.find((x) => x.title === before.title);
  if (!t) return 'NOT RUN';
  return t.outcome === 'pass'
    ? 'FIXED'
    : t.outcome === 'fail'
      ? 'STILL FAILING'
      : t.outcome === 'error'
        ? 'NOW ERROR'
        : 'NOW SKIPPED';
}

export async function replay(req: ReplayRequest, hooks: RunHooks = {}): Promise<ReplayOutcome> {
  const before = readReport(req.report);
  const failed = before.tests.filter((t) => t.outcome === 'fail' || t.outcome === 'error');
  if (!req.all && failed.length === 0)
    return {
      exitCode: 0,
      lines: [
        `replay: no check failed or errored in ${req.report}: nothing to run again (--all runs its whole selection)`,
      ],
    };
  const o = replayRunOptions(before, req, failed);
  const problem = preflight(o);
  if (problem) throw new Error(`replay: ${problem}`);
  process.stderr.write(
    `conformance: replay of ${req.report}: ${req.all ? 'its whole selection' : `${failed.length} check(s) that failed or errored`}, seed ${o.seed}, held to ${before.run.apiVersion ?? '?'} ${before.run.edition ?? '?'}\n`,
  );
  const outcome = await run(o, hooks);
  const after = outcome.results;
  const verdicts = failed.map((t) => ({ t, now: nowOf(t, after) }));
  const lines = verdicts.map(
    ({ t, now }) =>
      `${now.padEnd(13)} ${t.title}${now === 'NOW ERROR' || now === 'STILL FAILING' ? ` — ${nowMessage(t, after)}` : ''}`,
  );
  const fixed = verdicts.filter((v) => v.now === 'FIXED').length;
  lines.push(
    `replay: ${fixed} of ${verdicts.length} fixed${req.all ? `; the whole selection: exit ${outcome.exitCode}` : ''}`,
  );
  const allFixed = fixed === verdicts.length;
  const undecided =
    verdicts.some((v) => v.now === 'NOW ERROR' || v.now === 'NOT RUN') || (outcome.exitCode === 2 && !allFixed);
  const exitCode = allFixed ? (req.all ? outcome.exitCode : outcome.exitCode === 2 ? 2 : 0) : undecided ? 2 : 1;
  return { exitCode, lines };
}

function nowMessage(before: TestResultT, after: Results | undefined): string {
  const t = after?.tests.find((x) => x.title === before.title);
  return (t?.message ?? '').split('\n')[0]!.slice(0, 200);
}

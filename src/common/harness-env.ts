/**
 * The harness's own environment variables (`CONFHARNESS_*`), declared once: name, meaning and
 * how the value is read. Most carry what `conformance run` hands the Playwright processes it
 * starts (a phase, the merge of the reports); a few are developers' switches. This module is
 * the only reader of them and builds every environment that sets them (test/one-home.test.ts
 * fails on a `CONFHARNESS_` name written anywhere else); the README lists them ("Environment
 * variables of the harness"). The user's options, `CONFORMANCE_*`, are yargs's (src/runner/options.ts).
 */

/** Set and not empty. */
const text = (v: string | undefined): string | undefined => (v ? v : undefined);
/** `1` turns it on; anything else (unset, empty, `0`) leaves it off. */
const on = (v: string | undefined): boolean => v === '1';
const count = (fallback: number) => (v: string | undefined) => (v ? Number(v) : fallback);

interface Variable<T> {
  readonly name: `CONFHARNESS_${string}`;
  readonly meaning: string;
  readonly parse: (v: string | undefined) => T;
}
const v = <T>(name: `CONFHARNESS_${string}`, meaning: string, parse: (v: string | undefined) => T): Variable<T> => ({
  name,
  meaning,
  parse,
});

export const HARNESS_ENV = {
  stateFile: v('CONFHARNESS_STATE_FILE', "the run's state (target, options, fixtures) that the checks load", text),
  rateStateFile: v(
    'CONFHARNESS_RATE_STATE_FILE',
    "both phases in one Playwright process: the rate family's state (its own bases), which its workers load",
    text,
  ),
  secretsFile: v(
    'CONFHARNESS_SECRETS_FILE',
    'where a phase appends each secret it learns, for the runner to scrub',
    text,
  ),
  othersDoneFile: v(
    'CONFHARNESS_OTHERS_DONE_FILE',
    'the rate family run beside the others: a file that appears once they are done',
    text,
  ),
  phase: v(
    'CONFHARNESS_PHASE',
    'the phase a Playwright process runs: functional, rate, or both (the rate family beside the others)',
    text,
  ),
  workDir: v('CONFHARNESS_WORK_DIR', "the run's work folder (blob reports, rate bookkeeping)", text),
  workers: v('CONFHARNESS_WORKERS', "the phase's parallel workers (default 2)", count(2)),
  testTimeoutMs: v('CONFHARNESS_TEST_TIMEOUT_MS', 'milliseconds one check may take (default 120000)', count(120_000)),
  terminalReporter: v('CONFHARNESS_TERMINAL_REPORTER', "the phase's terminal reporter (default: ours, progress)", text),
  color: v('CONFHARNESS_COLOR', '1: the progress reporter colours its lines (unless NO_COLOR is set)', on),
  reportDir: v('CONFHARNESS_REPORT_DIR', 'where the merge of the phases writes the reports', text),
  runInfo: v('CONFHARNESS_RUN_INFO', 'JSON: what the reports say of the run (target, options, start)', (s) =>
    s ? (JSON.parse(s) as Record<string, unknown>) : {},
  ),
  mergeWork: v('CONFHARNESS_MERGE_WORK', 'the work folder the merge keeps exchanges and JUnit cases in', text),
  noHtml: v('CONFHARNESS_NO_HTML', '1: the merge writes no HTML report (--no-html)', on),
  suitesDir: v(
    'CONFHARNESS_SUITES_DIR',
    "the folder of suites to run instead of suites/ (the project's own tests)",
    text,
  ),
  tagCalls: v(
    'CONFHARNESS_TAG_CALLS',
    "1: every call names its check in a header (selftest's coverage; its own reference server only)",
    on,
  ),
  skipStatic: v('CONFHARNESS_SKIP_STATIC', '1: scripts/test.ts runs the tests without tsc, eslint, prettier, knip', on),
  compiledCli: v(
    'CONFHARNESS_COMPILED_CLI',
    "1: the project's tests start the compiled CLI (dist/, which npm test builds first), not the sources through tsx",
    on,
  ),
  skipSelftest: v('CONFHARNESS_SKIP_SELFTEST', '1: npm test leaves the selftest out (a local run)', on),
} as const satisfies Record<string, Variable<unknown>>;

type HarnessVar = keyof typeof HARNESS_ENV;
type ValueOf<K extends HarnessVar> = ReturnType<(typeof HARNESS_ENV)[K]['parse']>;

/** The prefix every harness variable's name starts with (a test's child leaves them all out). */
export const HARNESS_ENV_PREFIX = 'CONFHARNESS_';

/** One variable's value as `env` (default: this process's) sets it. */
export function harnessEnv<K extends HarnessVar>(key: K, env: NodeJS.ProcessEnv = process.env): ValueOf<K> {
  const d = HARNESS_ENV[key];
  return d.parse(env[d.name]) as ValueOf<K>;
}

/** How a Playwright process running both phases (`CONFHARNESS_PHASE=both`) names them: the runner's lines, its run errors. */
export const BOTH_PHASES = 'functional∥rate';

/**
 * A worker of the rate project when both phases run in one Playwright process: from here on
 * this process's state file is the rate family's (a worker runs one project only).
 */
export function adoptProjectState(project: string): void {
  const rate = harnessEnv('rateStateFile');
  if (project === 'rate' && rate) process.env[HARNESS_ENV.stateFile.name] = rate;
}

/** Variables for a child's environment, by key; `undefined` and `false` leave one out, `true` is `1`. */
export function harnessEnvVars(values: { [K in HarnessVar]?: string | number | boolean | undefined }): Record<
  string,
  string
> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(values)) {
    if (val === undefined || val === false) continue;
    out[HARNESS_ENV[k as HarnessVar].name] = val === true ? '1' : String(val);
  }
  return out;
}

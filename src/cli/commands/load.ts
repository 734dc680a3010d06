/**
 * `conformance load`: run a load scenario on stock k6 (when on PATH or given) or on the
 * built-in runner; `--emit DIR` writes the k6 bundles and a k6-operator example;
 * `conformance load merge FILE...` combines several instances into one report;
 * `conformance load compare BEFORE AFTER` says what changed between two runs.
 */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { CliError, EXIT, setOutcome } from '../exit.js';

interface Args {
  scenario?: string;
  target?: string;
  targetFile?: string;
  k6?: string;
  engine: 'auto' | 'k6' | 'builtin';
  reportDir?: string;
  p95Budget: number;
  sourceIps?: string;
  emit?: string;
  env: string[];
  rateWindow: number;
  list: boolean;
  yes: boolean;
  insecure: boolean;
  caFile?: string;
  executionSegment?: string;
  executionSegmentSequence?: string;
  out?: string;
  thresholds: boolean;
  preflight: boolean;
  findCapacity: boolean;
  maxErrorRate: number;
  maxRate: number;
  maxDuration: number;
  stepSeconds: number;
  startRate: number;
}

interface MergeArgs {
  files: string[];
  reportDir: string;
  p95Budget: number;
  scenario?: string;
  target?: string;
  targetFile?: string;
  env: string[];
  sourceIps?: string;
}

function parseEnv(list: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new CliError(`--env ${kv}: expected KEY=VALUE`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

/** k6's exit codes pass through for thresholds (99); any other failure is a harness error. */
function outcome(code: number): number {
  return code === 0 ? EXIT.ok : code === 99 ? EXIT.thresholds : EXIT.harness;
}

const merge = {
  command: 'merge <files..>',
  describe: 'Combine results.json (or k6 --out json files, with --scenario) of several instances into one report',
  builder: (y: Argv) =>
    y
      .positional('files', { type: 'string', array: true, describe: 'results.json or k6 JSON output files' })
      .option('report-dir', {
        type: 'string',
        default: 'reports/load/merged',
        describe: 'Where to write the merged reports',
      })
      .option('p95-budget', { type: 'number', default: 500, describe: 'p95 budget (ms) for the capacity summary' })
      .option('scenario', { type: 'string', describe: 'Scenario whose thresholds judge k6 JSON output files' })
      .option('target', { type: 'string', describe: 'The target URL the instances ran against (k6 JSON input)' })
      .option('target-file', {
        type: 'string',
        describe: 'The target descriptor the instances ran with; secrets may be left out (k6 JSON input)',
      })
      .option('env', {
        type: 'string',
        array: true,
        default: [],
        describe: 'KEY=VALUE the instances had in __ENV (repeatable)',
      })
      .option('source-ips', { type: 'string', describe: 'The --source-ips the instances had (per-IP keys)' }),
  handler: async (argv: ArgumentsCamelCase<MergeArgs>) => {
    const { mergeFiles } = await import('../../load/merge.js');
    const { writeReports } = await import('../../load/report/write.js');
    const r = await mergeFiles(argv.files, {
      p95BudgetMs: argv.p95Budget,
      env: { ...(argv.sourceIps ? { SOURCE_IPS: argv.sourceIps } : {}), ...parseEnv(argv.env) },
      ...(argv.scenario ? { scenario: argv.scenario } : {}),
      ...(argv.target ? { target: argv.target } : {}),
      ...(argv.targetFile ? { targetFile: argv.targetFile } : {}),
    }).catch((e: Error) => {
      throw new CliError(e.message);
    });
    const w = writeReports(argv.reportDir, r);
    const failed = r.thresholds.filter((t) => !t.ok);
    process.stdout.write(
      `merged ${r.instances} instance(s) of ${r.scenario}: ${r.thresholds.length - failed.length}/${r.thresholds.length} thresholds met\n${w.results}\n${w.junit}\n${w.html}\n`,
    );
    setOutcome(outcome(r.exitCode));
  },
};

interface CompareArgs {
  before: string;
  after: string;
  reportDir: string;
  maxRegression?: number;
}

const compareCmd = {
  command: 'compare <before> <after>',
  describe:
    'What changed between two runs (results.json): capacity, p50/p95/p99 per endpoint at equal offered rate, error and 429 shares',
  builder: (y: Argv) =>
    y
      .positional('before', { type: 'string', describe: 'results.json of the earlier run' })
      .positional('after', { type: 'string', describe: 'results.json of the later run' })
      .option('report-dir', {
        type: 'string',
        default: 'reports/load/compare',
        describe: 'Where to write compare.md, compare.html, compare.json',
      })
      .option('max-regression', {
        type: 'number',
        describe:
          'Exit 1 when capacity falls or a p95 rises by more than PCT %, or the error share rises by more than PCT points',
      }),
  handler: async (argv: ArgumentsCamelCase<CompareArgs>) => {
    const { readFileSync, appendFileSync } = await import('node:fs');
    const { parseResults } = await import('../../load/report/schema.js');
    const { compare } = await import('../../load/compare/compare.js');
    const { headline, markdown, writeComparison } = await import('../../load/compare/render.js');
    if (argv.maxRegression !== undefined && !(argv.maxRegression >= 0))
      throw new CliError('--max-regression: a percentage, 0 or more');
    const read = (f: string) => {
      try {
        return parseResults(JSON.parse(readFileSync(f, 'utf8')), f);
      } catch (e) {
        throw new CliError((e as Error).message);
      }
    };
    let c;
    try {
      c = compare(read(argv.before), read(argv.after), [argv.before, argv.after], argv.maxRegression ?? null);
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    const w = writeComparison(argv.reportDir, c);
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown(c));
    const lines = c.regressions.map(
      (f) =>
        `  ✗ ${f.what}${f.endpoint ? ` ${f.endpoint}` : ''}${f.rate !== null ? ` at ${f.rate} it/s` : ''}: ${f.before} → ${f.after} (${f.change! > 0 ? '+' : ''}${f.change})`,
    );
    process.stdout.write(
      [`load compare ${headline(c)}`, ...lines, `  ${w.markdown}`, `  ${w.html}`, `  ${w.json}`, ''].join('\n'),
    );
    setOutcome(c.regressions.length ? EXIT.failed : EXIT.ok);
  },
};

export function builder(y: Argv): Argv<Args> {
  return (
    y
      // `--env A=1 --env B=2 FILE…`: one value per flag, so files after an --env stay files.
      .parserConfiguration({ 'greedy-arrays': false })
      .command(merge as never)
      .command(compareCmd as never)
      .option('scenario', { type: 'string', describe: 'Scenario to run (see --list)' })
      .option('target', { type: 'string', describe: 'Base URL of the target: any http(s) host' })
      .option('target-file', { type: 'string', describe: 'Target descriptor (JSON)' })
      .option('k6', { type: 'string', describe: 'Path of a k6 binary (default: k6 on PATH)' })
      .option('engine', {
        choices: ['auto', 'k6', 'builtin'] as const,
        default: 'auto' as const,
        describe: 'auto: k6 when found, else the built-in runner',
      })
      .option('report-dir', {
        type: 'string',
        describe: 'Where to write results.json, junit.xml, report.html (default reports/load/SCENARIO)',
      })
      .option('p95-budget', { type: 'number', default: 500, describe: 'p95 budget (ms) for the capacity summary' })
      .option('source-ips', {
        type: 'string',
        describe: 'Loopback source addresses for VUs, e.g. 127.0.0.2-127.0.0.9 (k6 --local-ips)',
      })
      .option('emit', {
        type: 'string',
        describe: 'Write the k6 bundles and a k6-operator TestRun example to DIR, and run nothing',
      })
      .option('env', {
        type: 'string',
        array: true,
        default: [],
        describe: "KEY=VALUE for the script's __ENV (repeatable)",
      })
      .option('rate-window', {
        type: 'number',
        alias: 'server-window',
        default: 5,
        describe:
          'Rate-limit window (seconds) of the reference server started when no target is given (--server-window: a deprecated alias)',
      })
      .option('list', { type: 'boolean', default: false, describe: 'List the scenarios and the clauses they serve' })
      .option('yes', {
        type: 'boolean',
        default: false,
        describe: 'Run a rate-limit scenario against a host that is not loopback (also CONFORMANCE_YES=1)',
      })
      .option('insecure', {
        type: 'boolean',
        default: false,
        describe: 'Do not verify TLS certificates (self-signed test hosts; k6 insecureSkipTLSVerify)',
      })
      .option('ca-file', {
        type: 'string',
        describe:
          "PEM file of a CA to trust besides the system roots, on both engines (also CONFORMANCE_CA_FILE; default: the descriptor's ca_file)",
      })
      .option('execution-segment', {
        type: 'string',
        describe: "This instance's part of a split run, e.g. 0:1/2 (k6 --execution-segment)",
      })
      .option('execution-segment-sequence', {
        type: 'string',
        describe: "All instances' segments, e.g. 0,1/2,1 (k6 --execution-segment-sequence)",
      })
      .option('out', { type: 'string', describe: "json=FILE: every sample in k6's JSON format, for `load merge`" })
      .option('preflight', {
        type: 'boolean',
        default: true,
        describe:
          'Before the scenario, check that a given target is reachable, speaks this API and takes its credentials (--no-preflight: a stand-in target, e.g. a stub)',
      })
      .option('thresholds', {
        type: 'boolean',
        default: true,
        describe: 'Judge thresholds; --no-thresholds for an instance of a split run (judged by `load merge`)',
      })
      .option('find-capacity', {
        type: 'boolean',
        default: false,
        describe:
          'capacity: search the highest arrival rate held within the SLO (--p95-budget, --max-error-rate), stepping up then bisecting',
      })
      .option('max-error-rate', {
        type: 'number',
        default: 1,
        describe: "The search's SLO: at most PCT % of requests failed (429s counted apart, against the same share)",
      })
      .option('max-rate', {
        type: 'number',
        default: 1000,
        describe: 'The search never offers more than this many iterations/s',
      })
      .option('max-duration', {
        type: 'number',
        default: 300,
        describe: 'The search starts no step that could end past this many seconds',
      })
      .option('step-seconds', {
        type: 'number',
        default: 5,
        describe: 'How long the search holds each rate (whole seconds)',
      })
      .option('start-rate', {
        type: 'number',
        default: 10,
        describe: "The search's first rate (iterations/s)",
      }) as unknown as Argv<Args>
  );
}

/** --ca-file, else CONFORMANCE_CA_FILE. */
const caFileOf = (argv: Args): string | undefined => argv.caFile ?? (process.env.CONFORMANCE_CA_FILE || undefined);

/** The preflight of a given load target: what its descriptor (or bare URL) names — a bare URL has no credentials to check. */
async function loadPreflight(argv: Args): Promise<void> {
  const { readDescriptorFile } = await import('../../common/descriptor-file.js');
  const { preflightTarget } = await import('../../harness/preflight.js');
  const { closeAgents } = await import('../../client/http.js');
  const { setTrust } = await import('../../client/tls.js');
  let d: Parameters<typeof preflightTarget>[0] & { ca_file?: string };
  try {
    d = argv.targetFile
      ? readDescriptorFile(argv.targetFile, argv.target ? { url: argv.target } : {})
      : { url: argv.target!.replace(/\/+$/, '') };
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  // The preflight trusts what the run will (--ca-file, --insecure).
  const caFile = caFileOf(argv) ?? d.ca_file;
  try {
    setTrust({ insecure: argv.insecure, ...(caFile ? { caFile } : {}) });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const pre = await preflightTarget(d);
  await closeAgents();
  if (!pre.ok) throw new CliError(`load: preflight failed: ${pre.what}`, EXIT.harness);
}

export async function handler(argv: ArgumentsCamelCase<Args>): Promise<void> {
  const { SCENARIOS } = await import('../../load/scenarios.js');
  if (argv.list) {
    for (const s of SCENARIOS)
      process.stdout.write(`${s.name.padEnd(14)} ${s.clauses.join(',').padEnd(36)} ${s.describe}\n`);
    return;
  }
  if (argv.emit) {
    const { emit } = await import('../../load/emit.js');
    for (const f of await emit(argv.emit)) process.stdout.write(`${f}\n`);
    return;
  }
  if (!argv.scenario)
    throw new CliError(`name a --scenario (${SCENARIOS.map((s) => s.name).join(', ')}), or --emit DIR, or --list`);
  const out = argv.out === undefined ? undefined : /^json=(.+)$/.exec(argv.out)?.[1];
  if (argv.out !== undefined && !out) throw new CliError(`--out ${argv.out}: only json=FILE is supported`);
  const { runLoad, ConfirmationNeeded, ScriptRefused, SPLIT_SEARCH } = await import('../../load/run.js');
  // The search's options are checked before anything is sent, the preflight included.
  const find = argv.findCapacity ? await searchOptions(argv, SPLIT_SEARCH) : undefined;
  if (argv.preflight && (argv.target || argv.targetFile)) await loadPreflight(argv);
  const { healthLine } = await import('../../load/report/chart-data.js');
  const r = await runLoad({
    yes: argv.yes || process.env.CONFORMANCE_YES === '1',
    insecure: argv.insecure,
    noThresholds: !argv.thresholds,
    ...(caFileOf(argv) ? { caFile: caFileOf(argv)! } : {}),
    ...(out ? { outJson: out } : {}),
    ...(argv.executionSegment ? { segment: argv.executionSegment } : {}),
    ...(argv.executionSegmentSequence ? { segmentSequence: argv.executionSegmentSequence } : {}),
    scenario: argv.scenario,
    engine: argv.engine,
    reportDir: argv.reportDir ?? `reports/load/${argv.scenario}`,
    p95BudgetMs: argv.p95Budget,
    env: parseEnv(argv.env),
    rateWindowSeconds: argv.rateWindow,
    ...(argv.target ? { target: argv.target } : {}),
    ...(argv.targetFile ? { targetFile: argv.targetFile } : {}),
    ...(argv.k6 ? { k6: argv.k6 } : {}),
    ...(argv.sourceIps ? { sourceIps: argv.sourceIps } : {}),
    ...(find ? { find } : {}),
  }).catch((e: Error) => {
    const usage = e instanceof ConfirmationNeeded || e instanceof ScriptRefused;
    throw new CliError(e.message, usage ? EXIT.usage : EXIT.harness);
  });
  const failed = r.results.thresholds.filter((t) => !t.ok);
  const lines = r.results.thresholds.map(
    (t) => `  ${t.ok ? '✓' : '✗'} ${t.selector} ${t.source} (measured ${t.measured})`,
  );
  const cap = r.results.capacity;
  process.stdout.write(
    [
      `load ${argv.scenario} on the ${r.engine === 'k6' ? 'k6' : 'built-in'} engine: ${r.results.thresholds.length - failed.length}/${r.results.thresholds.length} thresholds met, exit ${r.exitCode}`,
      ...lines,
      ...(r.results.search
        ? [
            `  capacity found: ${r.results.search.why} (${r.results.search.steps.length} steps, ${Math.round(r.results.search.durationMs / 100) / 10} s)`,
          ]
        : cap
          ? [
              `  capacity: ${cap.sustainedRate} it/s sustained (p95 ≤ ${cap.p95BudgetMs} ms, no errors, no drops); ${cap.limitedBy}`,
            ]
          : []),
      `  ${healthLine(r.results)}`,
      `  ${r.written.results}`,
      `  ${r.written.junit}`,
      `  ${r.written.html}`,
      '',
    ].join('\n'),
  );
  setOutcome(outcome(r.exitCode));
}

/** `--find-capacity`'s SLO and bounds, checked before anything starts. */
async function searchOptions(argv: Args, splitWhy: string) {
  const { DEFAULT_BOUNDS } = await import('../../load/capacity/search.js');
  if (argv.executionSegment) throw new CliError(splitWhy, EXIT.usage);
  if (argv.scenario !== 'capacity')
    throw new CliError(
      `--find-capacity searches the capacity scenario's arrival rate; ${argv.scenario} has none`,
      EXIT.usage,
    );
  const positive = (v: number, flag: string, whole = false) => {
    if (!(v > 0) || !Number.isFinite(v) || (whole && !Number.isInteger(v)))
      throw new CliError(`${flag} ${v}: expected a ${whole ? 'whole number' : 'number'} above 0`, EXIT.usage);
    return v;
  };
  if (!(argv.maxErrorRate >= 0 && argv.maxErrorRate <= 100))
    throw new CliError(`--max-error-rate ${argv.maxErrorRate}: a percentage from 0 to 100`, EXIT.usage);
  const bounds = {
    ...DEFAULT_BOUNDS,
    startRate: positive(argv.startRate, '--start-rate', true),
    maxRate: positive(argv.maxRate, '--max-rate', true),
    maxDurationMs: positive(argv.maxDuration, '--max-duration') * 1000,
    stepSeconds: positive(argv.stepSeconds, '--step-seconds', true),
  };
  return { slo: { p95Ms: positive(argv.p95Budget, '--p95-budget'), errorPct: argv.maxErrorRate }, bounds };
}

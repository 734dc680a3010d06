/**
 * `conformance run` options. yargs gives the precedence — flags, then CONFORMANCE_*
 * environment variables, then the --config file, then defaults — and zod parses the result
 * once into one frozen configuration. Every option states its default in `--help`, in
 * groups a reader can scan.
 */
import type { Argv } from 'yargs';
import { z } from 'zod';
import { parseSourceAddresses } from '../common/net.js';
import { DEFAULT_SEED, TRANSCRIPTS } from '../harness/state.js';
import { EDITIONS, KNOWN_VERSIONS, NEWEST_VERSION } from '../spec/index.js';

const G = {
  target: 'Target (default: the embedded reference server):',
  creds: 'Credentials (override the descriptor):',
  held: 'What the target is held to:',
  select: 'Which checks:',
  out: 'Reports:',
  exec: 'Execution and limits:',
} as const;

/** The embedded reference server's rate window, seconds: short, so that the rate family's waits are short. */
export const EMBEDDED_RATE_WINDOW = 3;

export const RUN_OPTIONS = {
  target: {
    group: G.target,
    type: 'string',
    describe: 'Base URL of the implementation under test',
    defaultDescription: 'the embedded reference server',
  },
  'target-file': {
    group: G.target,
    type: 'string',
    describe: 'Target descriptor JSON (spec/target-descriptor.md); not with --target',
    defaultDescription: 'none',
  },
  'ca-file': {
    group: G.target,
    type: 'string',
    describe: "PEM file of a CA to trust besides the system roots (a private CA of the target's certificate)",
    defaultDescription: "descriptor's ca_file, else none",
  },
  insecure: {
    group: G.target,
    type: 'boolean',
    default: false,
    describe: "Do not verify the target's TLS certificate (said in the header and the reports)",
  },
  'rate-window': {
    group: G.target,
    type: 'number',
    alias: 'embedded-window',
    describe: 'Rate-limit window (s) of the target or the embedded server',
    defaultDescription: `descriptor, else 60; embedded: ${EMBEDDED_RATE_WINDOW}`,
  },
  'embedded-fault': {
    type: 'string',
    array: true,
    hidden: true,
    describe: 'Fault switch of the embedded reference server (mutation tests)',
  },
  'embedded-coverage': {
    type: 'string',
    hidden: true,
    describe: 'File to write which check reached which fault switch of the embedded servers (selftest)',
  },
  'fail-fast-scopes': {
    type: 'string',
    hidden: true,
    describe:
      'JSON file {check title: scope}: once a check of a scope fails, the later checks of that scope and clause are skipped (selftest: a scope per mutant)',
  },
  username: {
    group: G.creds,
    type: 'string',
    describe: 'Account e-mail for /api2/auth-token/',
    defaultDescription: 'descriptor',
  },
  password: { group: G.creds, type: 'string', describe: 'Account password', defaultDescription: 'descriptor' },
  'account-token': {
    group: G.creds,
    type: 'string',
    describe: 'Account token (instead of username/password)',
    defaultDescription: 'descriptor',
  },
  base: {
    group: G.creds,
    type: 'string',
    array: true,
    describe: 'A base the run may write to: UUID:API_TOKEN[:NAME] (repeat for a second base)',
    defaultDescription: 'descriptor',
  },
  admin: {
    group: G.creds,
    type: 'boolean',
    describe: 'The account is a system and team admin (admin clauses apply)',
    defaultDescription: 'descriptor, else false',
  },
  'org-id': {
    group: G.creds,
    type: 'number',
    describe: 'Team (org) id of the account',
    defaultDescription: 'descriptor',
  },
  'workspace-id': {
    group: G.creds,
    type: 'number',
    describe: 'Workspace holding the bases',
    defaultDescription: 'descriptor',
  },
  edition: {
    group: G.held,
    choices: EDITIONS,
    describe: 'Edition whose limits apply',
    defaultDescription: 'descriptor, else self-hosted',
  },
  'api-version': {
    group: G.held,
    type: 'string',
    describe: `Release whose behaviour applies (${KNOWN_VERSIONS[0]} … ${NEWEST_VERSION})`,
    defaultDescription: `descriptor, else ${NEWEST_VERSION}`,
  },
  clauses: {
    group: G.select,
    type: 'string',
    describe: 'Only these clauses: "RATE-*,SHAPE-1" or "/^SIZE-[1-3]$/"',
    defaultDescription: 'all',
  },
  grep: {
    group: G.select,
    type: 'string',
    describe: 'Only checks whose title matches this regular expression',
    defaultDescription: 'all',
  },
  strict: {
    group: G.held,
    type: 'boolean',
    default: false,
    describe:
      'Assertion warnings fail: a check also fails for a violated assertion whose evidence is only inferred (our reasoning, not the specification, the documentation, a recorded answer or an official client)',
  },
  seed: {
    group: G.select,
    type: 'number',
    default: DEFAULT_SEED,
    describe: 'Seed of the sampled checks (ROBUST): the same seed sends the same malformed requests',
  },
  'report-dir': {
    group: G.out,
    type: 'string',
    describe: 'Where reports go',
    defaultDescription: 'reports/<timestamp>/',
  },
  baseline: {
    group: G.out,
    type: 'string',
    describe:
      'Known failures, per check or per clause (JSON); only new failures fail the run, and so does an entry that now passes (stale)',
    defaultDescription: 'none',
  },
  'allow-stale-baseline': {
    group: G.out,
    type: 'boolean',
    default: false,
    describe: 'A baseline entry that now passes is reported, not a failure of the run',
  },
  'write-baseline': {
    group: G.out,
    type: 'string',
    describe:
      "Write this run's failing checks as a baseline (with the harness version and the checks it ran); over an existing file it only removes entries that now pass",
    defaultDescription: 'none',
  },
  'update-baseline': {
    group: G.out,
    type: 'boolean',
    default: false,
    describe: "With --write-baseline over an existing file: also add this run's new failures",
  },
  reporter: {
    group: G.out,
    choices: ['progress', 'list', 'line', 'dot'],
    default: 'progress',
    describe:
      "Terminal progress: ours (outcomes as in the reports; a failed check keeps its worker) or Playwright's (which shows its own statuses, so each failed check restarts its worker)",
  },
  transcripts: {
    group: G.out,
    choices: TRANSCRIPTS,
    default: 'all',
    describe:
      'Checks whose requests, responses and curl reproducer the reports carry: all, those that did not pass, or none',
  },
  html: {
    group: G.out,
    type: 'boolean',
    default: true,
    describe: 'Write the HTML report (html/); --no-html: results.json, junit.xml and clauses.md only',
  },
  'print-config': {
    group: G.out,
    type: 'boolean',
    default: false,
    describe: 'Print the resolved configuration (secrets masked) and exit',
  },
  workers: {
    group: G.exec,
    type: 'number',
    default: 2,
    describe: 'Parallel workers for the functional families (rate has one)',
  },
  'rate-alongside': {
    group: G.exec,
    type: 'boolean',
    default: true,
    describe:
      'Run the rate family beside the others when the target has 4 or more bases: it gets the bases after the first two, which no other check touches (--no-rate-alongside: last and alone)',
  },
  'source-ips': {
    group: G.exec,
    type: 'string',
    describe: 'Loopback source addresses for per-IP checks ("127.0.0.2-127.0.0.9" or "none")',
    defaultDescription: '127.0.0.2-127.0.0.9 for a loopback target, else none',
  },
  'webhook-url': {
    group: G.exec,
    type: 'string',
    describe: "URL at which the target reaches the run's webhook receiver",
    defaultDescription: "the receiver's own address",
  },
  'webhook-listen': {
    group: G.exec,
    type: 'string',
    default: '127.0.0.1:0',
    describe: 'host:port the webhook receiver listens on',
  },
  'webhook-wait': {
    group: G.exec,
    type: 'number',
    default: 20,
    describe: 'Seconds a webhook delivery may take to arrive (the real service gives up after 30)',
  },
  'limits-config': {
    group: G.exec,
    type: 'string',
    describe: 'RATE-7: the limits file the limits target was started with',
    defaultDescription: 'none: RATE-7 skipped (embedded: generated)',
  },
  'limits-target-file': {
    group: G.exec,
    type: 'string',
    describe: 'RATE-7: descriptor of the target started with --limits-config',
    defaultDescription: 'the main target',
  },
  'allow-plan-changes': {
    group: G.exec,
    type: 'boolean',
    describe:
      'RATE-8: let checks add a user to the team and change its plan (on a real cloud that costs money: use a test instance)',
    defaultDescription: 'on for the embedded server only',
  },
  'request-timeout': {
    group: G.exec,
    type: 'number',
    default: 15,
    describe: 'Seconds to wait for response headers (connect: 5 s; body: twice this)',
  },
  'max-body-mb': { group: G.exec, type: 'number', default: 32, describe: 'Largest response body accepted, in MiB' },
  'test-timeout': {
    group: G.exec,
    type: 'number',
    default: 120,
    describe: 'Seconds one check may take before it ends as error',
  },
} as const;

export function runBuilder(y: Argv) {
  return y
    .options(RUN_OPTIONS)
    .env('CONFORMANCE')
    .config('config', 'JSON file of options, keys as the flags (flags and variables win)')
    .group(['config', 'help', 'version'], 'Other:')
    .epilog(
      [
        'Every option can also be set as CONFORMANCE_<NAME>, e.g. CONFORMANCE_REPORT_DIR=out.',
        'Precedence: flags, then CONFORMANCE_* variables, then --config, then defaults.',
        'Exit codes: 0 nothing failed (skips allowed), 1 a check failed,',
        '2 usage error, or the run did not judge all it was asked to (run errors), left the account',
        'changed, or has checks the harness could not decide.',
        "The clauses: spec/clauses.md (the specification's) and spec/clauses-extended.md (the real",
        "service's documented API) in the harness's folder; target descriptors: spec/target-descriptor.md.",
      ].join('\n'),
    );
}

const seconds = z.number().positive('must be a positive number of seconds');

/** The parsed options; each default is stated once, in RUN_OPTIONS (yargs applies it, `runDefaults` for other commands). */

export const RunOptions = z
  .object({
    target: z.url({ protocol: /^https?$/, message: 'an http(s) URL' }).optional(),
    targetFile: z.string().min(1).optional(),
    caFile: z.string().min(1).optional(),
    insecure: z.boolean(),
    embeddedFault: z.array(z.string()).default([]),
    embeddedCoverage: z.string().min(1).optional(),
    failFastScopes: z.string().min(1).optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    accountToken: z.string().optional(),
    base: z.array(z.string().regex(/^[^:]+:[^:]+(:.+)?$/, 'UUID:API_TOKEN[:NAME]')).optional(),
    admin: z.boolean().optional(),
    orgId: z.number().int().optional(),
    workspaceId: z.number().int().optional(),
    rateWindow: seconds.optional(),
    edition: z.enum(EDITIONS).optional(),
    apiVersion: z
      .string()
      .refine((v) => KNOWN_VERSIONS.includes(v), `a release of §9: ${KNOWN_VERSIONS.join(', ')}`)
      .optional(),
    clauses: z.string().optional(),
    grep: z.string().optional(),
    seed: z.number().int('a whole number').nonnegative(),
    strict: z.boolean(),
    reportDir: z.string().min(1).optional(),
    baseline: z.string().min(1).optional(),
    writeBaseline: z.string().min(1).optional(),
    allowStaleBaseline: z.boolean(),
    updateBaseline: z.boolean(),
    reporter: z.enum(['progress', 'list', 'line', 'dot']),
    printConfig: z.boolean(),
    html: z.boolean(),
    transcripts: z.enum(TRANSCRIPTS),
    workers: z.number().int('a whole number').min(1).max(16),
    rateAlongside: z.boolean(),
    sourceIps: z.string().optional(),
    webhookUrl: z.url({ message: 'a URL' }).optional(),
    webhookListen: z.string().regex(/^[^:]+:\d+$/, 'host:port'),
    webhookWait: seconds,
    limitsConfig: z.string().optional(),
    allowPlanChanges: z.boolean().optional(),
    limitsTargetFile: z.string().optional(),
    requestTimeout: seconds,
    maxBodyMb: z.number().positive(),
    testTimeout: seconds,
  })
  .refine((o) => !(o.target && o.targetFile), {
    message: 'give --target or --target-file, not both',
    path: ['targetFile'],
  });
export type RunOptions = Readonly<z.output<typeof RunOptions>>;

const flag = (key: PropertyKey | undefined) => `--${String(key ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Every run option's default, keyed as parsed (camelCase): for commands that resolve a target the way `run` does without offering all of its flags. */
export function runDefaults(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(RUN_OPTIONS)
      .filter(([, d]) => 'default' in d)
      .map(([k, d]) => [
        k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
        (d as { default: unknown }).default,
      ]),
  );
}

/** Parse once; a problem comes back as one line naming the flag(s). */
export function parseRunOptions(argv: Record<string, unknown>): RunOptions {
  const r = RunOptions.safeParse(argv);
  if (!r.success) throw new Error(r.error.issues.map((i) => `${flag(i.path[0])}: ${i.message}`).join('; '));
  if (r.data.sourceIps) {
    try {
      parseSourceAddresses(r.data.sourceIps);
    } catch (e) {
      throw new Error(`--source-ips: ${(e as Error).message}`);
    }
  }
  return Object.freeze(r.data);
}

/** The configuration as `--print-config` shows it: credentials masked. */
export function printableConfig(o: RunOptions): Record<string, unknown> {
  const mask = (v: unknown) => (v === undefined ? undefined : '«redacted»');
  return {
    ...o,
    password: mask(o.password),
    accountToken: mask(o.accountToken),
    base: o.base?.map((b) => b.replace(/^([^:]+):[^:]+/, '$1:«redacted»')),
  };
}

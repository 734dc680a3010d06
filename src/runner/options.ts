/**
 * `conformance run` options. yargs gives the precedence — flags, then CONFORMANCE_*
 * environment variables, then the --config file, then defaults — and zod parses the result
 * once into one frozen configuration.
 */
import type { Argv } from 'yargs';
import { z } from 'zod';
import { EDITIONS, KNOWN_VERSIONS } from '../spec/index.js';

export const RUN_OPTIONS = {
  target: { type: 'string', describe: 'Base URL of the implementation under test (default: the embedded reference server)' },
  'target-file': { type: 'string', describe: 'Target descriptor JSON (shared/spec/target-descriptor.md)' },
  username: { type: 'string', describe: 'Account e-mail for /api2/auth-token/' },
  password: { type: 'string', describe: 'Account password' },
  'account-token': { type: 'string', describe: 'Account token (instead of username/password)' },
  base: { type: 'string', array: true, describe: 'A base the run may write to: UUID:API_TOKEN[:NAME] (repeat for a second base)' },
  admin: { type: 'boolean', describe: 'The account is a system and team admin (admin clauses apply)' },
  'org-id': { type: 'number', describe: 'Team (org) id of the account' },
  'workspace-id': { type: 'number', describe: 'Workspace holding the bases' },
  'rate-window': { type: 'number', describe: 'Rate-limit window of the target in seconds (default: descriptor, else 60)' },
  edition: { choices: EDITIONS, describe: 'Edition to hold the target to (default: the descriptor\'s claim)' },
  'api-version': { choices: KNOWN_VERSIONS, describe: 'Release to hold the target to (default: the descriptor\'s claim, else 6.2)' },
  clauses: { type: 'string', describe: 'Only these clauses: e.g. "RATE-*,SHAPE-1" or "/^SIZE-[1-3]$/"' },
  grep: { type: 'string', describe: 'Only tests whose title matches this regular expression' },
  workers: { type: 'number', default: 2, describe: 'Parallel test workers for the functional families' },
  'report-dir': { type: 'string', describe: 'Where reports go (default: reports/<timestamp>/)' },
  baseline: { type: 'string', describe: 'Expected failures per clause (JSON); only new failures fail the run' },
  'source-ips': { type: 'string', describe: 'Loopback source addresses for per-IP checks, e.g. 127.0.0.2-127.0.0.9; "none" to skip (default: that range when the target is loopback)' },
  'webhook-url': { type: 'string', describe: 'URL at which the target reaches the run\'s webhook receiver (remote targets)' },
  'webhook-listen': { type: 'string', default: '127.0.0.1:0', describe: 'host:port the webhook receiver listens on' },
  'limits-config': { type: 'string', describe: 'RATE-7: the limits configuration file the --limits-target was started with' },
  'limits-target-file': { type: 'string', describe: 'RATE-7: descriptor of a target started with --limits-config (default: the main target)' },
  'request-timeout': { type: 'number', default: 15, describe: 'Seconds to wait for response headers (connect: 5 s; body: twice this)' },
  'max-body-mb': { type: 'number', default: 32, describe: 'Largest response body accepted, in MiB' },
  'test-timeout': { type: 'number', default: 120, describe: 'Seconds one check may take' },
  'embedded-window': { type: 'number', default: 3, describe: 'Rate window (seconds) of the embedded reference server' },
  reporter: { type: 'string', describe: 'Terminal reporter: list, line or dot (default: list; line on CI)' },
} as const;

export function runBuilder(y: Argv) {
  return y.options(RUN_OPTIONS).config('config', 'JSON file with any of these options (flags and CONFORMANCE_* variables win)');
}

const ip = z.string().regex(/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/, 'a loopback address 127.x.y.z');

export const RunOptions = z.object({
  target: z.url().optional(),
  targetFile: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  accountToken: z.string().optional(),
  base: z.array(z.string().regex(/^[^:]+:[^:]+(:.+)?$/, 'UUID:API_TOKEN[:NAME]')).optional(),
  admin: z.boolean().optional(),
  orgId: z.number().int().optional(),
  workspaceId: z.number().int().optional(),
  rateWindow: z.number().positive().optional(),
  edition: z.enum(EDITIONS).optional(),
  apiVersion: z.string().optional(),
  clauses: z.string().optional(),
  grep: z.string().optional(),
  workers: z.number().int().min(1).max(16),
  reportDir: z.string().optional(),
  baseline: z.string().optional(),
  sourceIps: z.string().optional(),
  webhookUrl: z.url().optional(),
  webhookListen: z.string().regex(/^[^:]+:\d+$/, 'host:port'),
  limitsConfig: z.string().optional(),
  limitsTargetFile: z.string().optional(),
  requestTimeout: z.number().positive(),
  maxBodyMb: z.number().positive(),
  testTimeout: z.number().positive(),
  embeddedWindow: z.number().positive(),
  reporter: z.enum(['list', 'line', 'dot']).optional(),
}).refine((o) => !(o.target && o.targetFile), { message: '--target and --target-file exclude each other' });
export type RunOptions = Readonly<z.output<typeof RunOptions>>;

/** "127.0.0.2-127.0.0.9" or "a,b,c" → addresses; "none" → []. */
export function parseSourceIps(spec: string): string[] {
  if (spec === 'none' || spec === '') return [];
  const out: string[] = [];
  for (const part of spec.split(',').map((s) => s.trim())) {
    const [from, to] = part.split('-');
    ip.parse(from);
    if (!to) { out.push(from!); continue; }
    ip.parse(to);
    const a = from!.split('.').map(Number);
    const b = to.split('.').map(Number);
    if (a.slice(0, 3).join('.') !== b.slice(0, 3).join('.') || a[3]! > b[3]!) throw new Error(`source address range ${part}: same /24 and ascending`);
    for (let i = a[3]!; i <= b[3]!; i++) out.push(`${a.slice(0, 3).join('.')}.${i}`);
  }
  return out;
}

export function parseRunOptions(argv: Record<string, unknown>): RunOptions {
  const r = RunOptions.safeParse(argv);
  if (!r.success) throw new Error(r.error.issues.map((i) => `--${String(i.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`).join('; '));
  return Object.freeze(r.data);
}

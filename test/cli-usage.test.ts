/**
 * `conformance run` as a user types it, without running any check: `--help` shows every
 * option with its default, in groups; the precedence flags > CONFORMANCE_* > --config >
 * defaults holds (seen through --print-config); every usage error exits 2 with one line
 * and leaves nothing behind. The checkout's bin runs the sources (npm test's other tests start
 * the compiled CLI) and lists every command while it loads only the one it runs.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { COMMANDS } from '../src/cli/commands/index.js';
import { RUN_OPTIONS } from '../src/runner/options.js';
import { cli, tempDir } from './helpers/cli.js';

/** `--help` cut into one block per option: its line and the wrapped lines under it. */
function helpBlocks(help: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let current: string | undefined;
  for (const line of help.split('\n')) {
    const m = /^ {2}--([a-z-]+)[,\s]/.exec(line);
    if (m) {
      current = m[1]!;
      blocks.set(current, line);
    } else if (current && /^ {10,}\S/.test(line)) blocks.set(current, `${blocks.get(current)} ${line.trim()}`);
    else current = undefined;
  }
  return blocks;
}

test("the checkout's bin runs the sources through tsx: --help lists every command, explain loads and runs its own", async () => {
  const help = await cli(['--help'], { source: true });
  expect(help.code, help.output).toBe(0);
  for (const c of COMMANDS) expect(help.stdout).toContain(`conformance ${String(c.command)} `);
  const r = await cli(['explain', 'ROUTE-1'], { source: true });
  expect(r.code, r.output).toBe(0);
  expect(r.stdout).toMatch(/^ROUTE-1 \(ROUTE\)\n/);
});

test('run --help lists every option with its default, in groups', async () => {
  const r = await cli(['run', '--help'], { exclusive: false });
  expect(r.code).toBe(0);
  const blocks = helpBlocks(r.stdout);
  for (const [name, def] of Object.entries(RUN_OPTIONS)) {
    if ('hidden' in def && def.hidden) {
      expect(blocks.has(name), `--${name} is hidden`).toBe(false);
      continue;
    }
    expect(blocks.get(name), `--${name} is listed`).toBeTruthy();
    expect(blocks.get(name), `--${name} states its default`).toMatch(/\[default: [^\]]+\]/);
  }
  expect(
    r.stdout.split('\n').every((l) => l.length <= 100),
    'fits 100 columns',
  ).toBe(true);
  for (const group of [
    'Target',
    'Credentials',
    'What the target is held to',
    'Which checks',
    'Reports',
    'Execution and limits',
  ])
    expect(r.stdout).toContain(group);
  expect(r.stdout).toContain('CONFORMANCE_');
});

test('precedence: flags, then CONFORMANCE_* variables, then the --config file, then defaults', async () => {
  const dir = tempDir('precedence');
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ workers: 3, 'request-timeout': 7, 'test-timeout': 50, reporter: 'dot' }));
  const r = await cli(['run', '--config', config, '--workers', '5', '--print-config'], {
    env: { CONFORMANCE_WORKERS: '4', CONFORMANCE_REQUEST_TIMEOUT: '8' },
    exclusive: false,
  });
  expect(r.code, r.stderr).toBe(0);
  const c = JSON.parse(r.stdout) as Record<string, unknown>;
  expect(c.workers, 'flag beats environment and file').toBe(5);
  expect(c.requestTimeout, 'environment beats file').toBe(8);
  expect(c.testTimeout, 'file beats default').toBe(50);
  expect(c.reporter, 'file beats default').toBe('dot');
  expect(c.maxBodyMb, 'default').toBe(32);
});

test('--print-config masks credentials', async () => {
  const r = await cli(
    [
      'run',
      '--target',
      'http://127.0.0.1:9',
      '--password',
      'hunter2-secret',
      '--base',
      'uuid-1:tok-secret-1',
      '--print-config',
    ],
    { exclusive: false },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).not.toContain('hunter2-secret');
  expect(r.stdout).not.toContain('tok-secret-1');
  expect(r.stdout).toContain('uuid-1:«redacted»');
});

const USAGE: [string, string[], RegExp, Record<string, string>?][] = [
  ['an unknown flag', ['--wrokers', '2'], /Unknown argument: wrokers/],
  ['an unknown CONFORMANCE_ variable', [], /Unknown argument/, { CONFORMANCE_WROKERS: '2' }],
  ['a value of the wrong type', ['--workers', 'many'], /--workers/],
  ['a value out of range', ['--workers', '0'], /--workers/],
  ['an unknown edition', ['--edition', 'enterprise'], /edition/],
  ['an unknown release', ['--api-version', '9.9'], /--api-version: a release of §9/],
  [
    'both --target and --target-file',
    ['--target', 'http://127.0.0.1:9', '--target-file', 'x.json'],
    /--target-file: give --target or --target-file, not both/,
  ],
  ['a clause pattern matching nothing', ['--clauses', 'NOPE-*'], /--clauses NOPE-\*: matches no clause/],
  ['an invalid --grep', ['--grep', '(unclosed'], /--grep: /],
  ['credentials without a target', ['--base', 'u:t'], /--base needs --target or --target-file/],
  ['a release the embedded server does not emulate', ['--api-version', '4.0'], /embedded reference server emulates/],
];

for (const [what, args, message, env] of USAGE) {
  test(`usage error, exit 2: ${what}`, async () => {
    const dir = join(tempDir('usage'), 'reports');
    const r = await cli(['run', '--report-dir', dir, ...args], { env, exclusive: false });
    expect(r.code, r.output).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n'), `one message: ${r.stderr}`).toHaveLength(1);
    expect(existsSync(dir), 'nothing written before the run could start').toBe(false);
  });
}

test('usage error, exit 2: a descriptor with an unknown field, a bad baseline, a bad config file', async () => {
  const dir = tempDir('usage-files');
  const descriptor = join(dir, 'target.json');
  writeFileSync(
    descriptor,
    JSON.stringify({ url: 'http://127.0.0.1:9', bases: [{ name: 'A', uuid: 'u', api_token: 't' }], api_tokn: 'typo' }),
  );
  const baseline = join(dir, 'baseline.json');
  writeFileSync(baseline, JSON.stringify({ expected_failures: { 'NOPE-1': 'no such clause' } }));
  const config = join(dir, 'config.json');
  writeFileSync(config, '{ "workers": ');
  const cases: [string[], RegExp][] = [
    [['--target-file', descriptor], /target descriptor .*target\.json: \(root\): Unrecognized key: "api_tokn"/],
    [['--target-file', join(dir, 'missing.json')], /target descriptor .*missing\.json: ENOENT/],
    [['--baseline', baseline], /baseline .*baseline\.json: expected_failures\.NOPE-1/],
    [['--baseline', join(dir, 'missing.json')], /baseline .*missing\.json: ENOENT/],
    [['--config', config], /config/i],
  ];
  for (const [args, message] of cases) {
    const r = await cli(['run', '--report-dir', join(dir, 'reports'), ...args], { exclusive: false });
    expect(r.code, r.output).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }
  expect(existsSync(join(dir, 'reports'))).toBe(false);
});

test("CONFORMANCE_* variables are run's: they do not break the other commands", async () => {
  const r = await cli(['clean'], { env: { CONFORMANCE_WORKERS: '3', CONFORMANCE_REPORT_DIR: 'x' } });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/clean needs --target or --target-file/);
  expect(r.stderr).not.toMatch(/Unknown argument/);
});

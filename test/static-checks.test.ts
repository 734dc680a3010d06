/**
 * Types, lint and unused exports are part of `npm test`: the script runs the type check and
 * typescript-eslint (on one program, scripts/typecheck-lint.ts), Prettier and knip beside the
 * tests and fails on any finding; the lint's rule set catches a promise nobody awaits (a check
 * that ends before its call does), and knip an export nobody imports.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { expect, test } from '@playwright/test';
import { ROOT } from './helpers/cli.js';
import { HARNESS_ENV } from '../src/common/harness-env.js';

test("the lint catches a floating promise and an any, in the project's own configuration", async () => {
  // A file that is in no tsconfig: the project service opens it from the text given (allowDefaultProject).
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: { languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['planted.ts'] } } } },
  });
  const [r] = await eslint.lintText(
    'export async function f(): Promise<void> { await Promise.resolve(); }\nexport function g(x: any): void { f(); void x; }\n',
    { filePath: join(ROOT, 'planted.ts') },
  );
  expect(r!.messages.map((m) => m.ruleId).sort()).toEqual([
    '@typescript-eslint/no-explicit-any',
    '@typescript-eslint/no-floating-promises',
  ]);
});

test('the type check and lint of npm test (one program) report a type error and a floating promise, and fail', () => {
  test.setTimeout(60_000);
  // A small project with the project's lint configuration: its tsconfig, one file with a type error, one with a floating promise.
  const dir = mkdtempSync(join(tmpdir(), 'typecheck-lint-'));
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    cpSync(join(ROOT, 'eslint.config.js'), join(dir, 'eslint.config.js'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: ['*.ts'] }));
    writeFileSync(join(dir, 'typed.ts'), "export const n: number = 'one';\n");
    writeFileSync(
      join(dir, 'floating.ts'),
      'export async function f(): Promise<void> {}\nexport function g(): void {\n  f();\n}\n',
    );
    const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'typecheck-lint.ts')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 50_000,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/typed\.ts\(1,14\): error TS2322/);
    expect(r.stdout).toMatch(/floating\.ts[^]*3:3 +error +Promises must be awaited[^]*no-floating-promises/);
    expect(r.stdout).toContain('type check: 1 error(s); lint: 1 finding(s)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("knip finds an export nobody imports, in the project's own configuration, and nothing else", () => {
  test.setTimeout(90_000);
  // A copy of the tree (its dependencies linked) with one unused export and one unused exported type planted.
  const dir = mkdtempSync(join(tmpdir(), 'knip-plant-'));
  try {
    for (const part of [
      'src',
      'suites',
      'test',
      'load',
      'bench',
      'scripts',
      'bin',
      'package.json',
      'tsconfig.json',
      'knip.jsonc',
      'playwright.config.ts',
      'eslint.config.js',
      '.gitignore',
    ]) {
      cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    appendFileSync(
      join(dir, 'src', 'spec', 'limits.ts'),
      '\nexport const zzPlanted = 1;\nexport interface ZzPlanted { n: number }\n',
    );
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js'),
        '--include',
        'exports,types',
        '--reporter',
        'json',
        '--no-progress',
      ],
      { cwd: dir, encoding: 'utf8', timeout: 80_000 },
    );
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const found = (
      JSON.parse(r.stdout) as { issues: { file: string; exports: { name: string }[]; types: { name: string }[] }[] }
    ).issues.flatMap((i) => [
      ...i.exports.map((e) => `${i.file} ${e.name}`),
      ...i.types.map((t) => `${i.file} ${t.name}`),
    ]);
    expect(found.sort()).toEqual(['src/spec/limits.ts ZzPlanted', 'src/spec/limits.ts zzPlanted']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * `npm test` (scripts/test.ts) with an `npx` of our own first on PATH: it logs each call (and
 * each static check's priority) and answers for tsc, eslint, prettier and knip (the real ones
 * run in CI's own `npm test`, on the whole tree: running them again here would only repeat
 * that) and for the build (`tsx scripts/build.ts`: a real one would rewrite the dist/ that the
 * tests beside this one run), and hands `playwright` to the real one — or, `slowTests`, to a
 * stand-in that waits half a minute unless it is stopped (and logs that it was).
 */
type Step = 'typecheck-lint' | 'prettier' | 'knip' | 'build';

function npmTestWithStubs(
  failing?: Step,
  slowTests = false,
): {
  code: number | null;
  out: string;
  calls: string[];
  priorities: string[];
  ms: number;
} {
  const dir = mkdtempSync(join(tmpdir(), 'npx-stub-'));
  try {
    const log = join(dir, 'calls.log');
    writeFileSync(log, '');
    writeFileSync(`${log}.nice`, '');
    const t0 = Date.now();
    writeFileSync(
      join(dir, 'npx'),
      [
        '#!/usr/bin/env bash',
        'echo "$*" >> "$STUB_LOG"',
        // The step's name: the tool, or the script tsx runs.
        'step="$1"; [ "$1" = tsx ] && step="$(basename "$2" .ts)"',
        'case "$step" in',
        '  typecheck-lint|prettier|knip) echo "$step $(nice)" >> "$STUB_LOG.nice" ;;',
        'esac',
        'case "$step" in',
        '  typecheck-lint|prettier|knip|build) sleep 0.2; [ -n "$STUB_SLOW" ] && [ "$step" != build ] && sleep 2; [ "$step" = "$STUB_FAIL" ] && exit 3; exit 0 ;;',
        '  playwright) if [ -n "$STUB_SLOW" ]; then trap \'echo stopped >> "$STUB_LOG"; kill %1; exit 130\' INT; sleep 30 & wait; exit 0; fi',
        `    shift; exec ${JSON.stringify(join(ROOT, 'node_modules', '.bin', 'playwright'))} "$@" ;;`,
        'esac',
        'exit 9',
      ].join('\n'),
      { mode: 0o755 },
    );
    const r = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['scripts/test.ts', '--list', 'test/static-checks.test.ts', '--project=tests-long'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: {
          ...process.env,
          PATH: `${dir}:${process.env.PATH ?? ''}`,
          STUB_LOG: log,
          STUB_FAIL: failing ?? '',
          STUB_SLOW: slowTests ? '1' : '',
          [HARNESS_ENV.skipStatic.name]: '',
        },
      },
    );
    return {
      code: r.status,
      out: r.stdout + r.stderr,
      calls: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean),
      priorities: readFileSync(`${log}.nice`, 'utf8').trim().split('\n').filter(Boolean).sort(),
      ms: Date.now() - t0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const STATIC = [
  'tsx scripts/typecheck-lint.ts',
  'prettier --check --log-level warn .',
  'knip --include exports,types --no-progress',
];
const BUILD = 'tsx scripts/build.ts --test-suites';
const staticCalls = (calls: readonly string[]) => calls.filter((c) => c !== BUILD && !c.startsWith('playwright '));

test("npm test type-checks, lints, checks the format and the exports of the whole tree beside the tests, at the lowest priority, and ends with this run's count", () => {
  const r = npmTestWithStubs();
  expect(r.code, r.out).toBe(0);
  // Every static check, each at the lowest priority (the tests come first for the cores).
  expect(staticCalls(r.calls).sort()).toEqual([...STATIC].sort());
  expect(r.priorities).toEqual(['knip 19', 'prettier 19', 'typecheck-lint 19']);
  // Two lanes: the type check and lint beside the others in turn.
  expect(r.calls.indexOf('prettier --check --log-level warn .')).toBeLessThan(
    r.calls.indexOf('knip --include exports,types --no-progress'),
  );
  // The build of the compiled CLI the tests start, then the tests, without waiting for the checks.
  const build = r.calls.indexOf(BUILD);
  expect(build).toBeGreaterThanOrEqual(0);
  expect(
    r.calls.indexOf(
      'playwright test --config playwright.config.ts --list test/static-checks.test.ts --project=tests-long',
    ),
  ).toBeGreaterThan(build);
  for (const what of ['type check and lint', 'format', 'unused exports']) expect(r.out).toContain(`${what}: clean`);
  expect(r.out).toMatch(/static-checks\.test\.ts/);
  expect(r.out.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/);
});

test('npm test stops at a static check that finds something: no later check in its lane, the tests stopped, exit code kept, "0 passed, 1 failed"', () => {
  // The lint fails while the tests run: they are stopped (not waited for), and the run fails whatever they said.
  const lint = npmTestWithStubs('typecheck-lint', true);
  expect(lint.code, lint.out).toBe(3);
  expect(lint.calls).toContain('tsx scripts/typecheck-lint.ts');
  expect(lint.calls).toContain('stopped');
  expect(lint.ms).toBeLessThan(25_000);
  expect(lint.out).toContain('type check and lint: FAILED (exit 3)');
  expect(lint.out.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
  // The format check fails: the exports check after it in its lane is not started.
  const format = npmTestWithStubs('prettier');
  expect(format.code, format.out).toBe(3);
  expect(staticCalls(format.calls).sort()).toEqual([
    'prettier --check --log-level warn .',
    'tsx scripts/typecheck-lint.ts',
  ]);
  expect(format.out).toContain('format: FAILED (exit 3)');
  expect(format.out.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
  // The build fails: no test runs.
  const build = npmTestWithStubs('build');
  expect(build.code, build.out).toBe(3);
  expect(build.calls.filter((c) => c.startsWith('playwright'))).toEqual([]);
  expect(build.out).toContain('build: FAILED (exit 3)');
  expect(build.out.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
});

/**
 * Types, lint and unused exports are part of `npm test`: the script runs `tsc --noEmit`,
 * typescript-eslint and knip before the tests and stops on any finding; the lint's rule set
 * catches a promise nobody awaits (a check that ends before its call does), and knip an
 * export nobody imports.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { expect, test } from '@playwright/test';
import { ROOT } from './helpers/cli.js';

test('the lint catches a floating promise and an any, in the project\'s own configuration', async () => {
  // A file that is in no tsconfig: the project service opens it from the text given (allowDefaultProject).
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: { languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['planted.ts'] } } } } });
  const [r] = await eslint.lintText('export async function f(): Promise<void> { await Promise.resolve(); }\nexport function g(x: any): void { f(); void x; }\n', { filePath: join(ROOT, 'planted.ts') });
  expect(r!.messages.map((m) => m.ruleId).sort()).toEqual(['@typescript-eslint/no-explicit-any', '@typescript-eslint/no-floating-promises']);
});

test('knip finds an export nobody imports, in the project\'s own configuration, and nothing else', () => {
  test.setTimeout(90_000);
  // A copy of the tree (its dependencies linked) with one unused export and one unused exported type planted.
  const dir = mkdtempSync(join(tmpdir(), 'knip-plant-'));
  try {
    for (const part of ['src', 'suites', 'test', 'load', 'bench', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'knip.jsonc', 'playwright.config.ts', 'eslint.config.js', '.gitignore']) {
      cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    appendFileSync(join(dir, 'src', 'spec', 'limits.ts'), '\nexport const zzPlanted = 1;\nexport interface ZzPlanted { n: number }\n');
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js'), '--include', 'exports,types', '--reporter', 'json', '--no-progress'], { cwd: dir, encoding: 'utf8', timeout: 80_000 });
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const found = (JSON.parse(r.stdout) as { issues: { file: string; exports: { name: string }[]; types: { name: string }[] }[] }).issues
      .flatMap((i) => [...i.exports.map((e) => `${i.file} ${e.name}`), ...i.types.map((t) => `${i.file} ${t.name}`)]);
    expect(found.sort()).toEqual(['src/spec/limits.ts ZzPlanted', 'src/spec/limits.ts zzPlanted']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm test type-checks, lints and checks exports of the whole tree before any test, and ends with this run\'s count', () => {
  test.setTimeout(240_000);
  const r = spawnSync('npx', ['tsx', 'scripts/test.ts', '--list', 'test/static-checks.test.ts', '--project=tests'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CONFHARNESS_SKIP_STATIC: '' } });
  const out = r.stdout;
  expect(r.status, out + r.stderr).toBe(0);
  const typeCheck = out.indexOf('type check: clean');
  const lint = out.indexOf('lint: clean');
  const exports = out.indexOf('unused exports: clean');
  const listing = out.indexOf('static-checks.test.ts');
  expect(typeCheck, out).toBeGreaterThanOrEqual(0);
  expect(lint, out).toBeGreaterThan(typeCheck);
  expect(exports, out).toBeGreaterThan(lint);
  expect(listing, out).toBeGreaterThan(exports);
  expect(out.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/);
});

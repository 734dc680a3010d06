/**
 * Types and lint are part of `npm test`: the script runs `tsc --noEmit` and typescript-eslint
 * before the tests and stops on any finding; the lint's rule set catches a promise nobody
 * awaits (a check that ends before its call does).
 */
import { spawnSync } from 'node:child_process';
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

test('npm test type-checks and lints the whole tree before any test, and ends with this run\'s count', () => {
  test.setTimeout(240_000);
  const r = spawnSync('npx', ['tsx', 'scripts/test.ts', '--list', 'test/static-checks.test.ts', '--project=tests'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CONFHARNESS_SKIP_STATIC: '' } });
  const out = r.stdout;
  expect(r.status, out + r.stderr).toBe(0);
  const typeCheck = out.indexOf('type check: clean');
  const lint = out.indexOf('lint: clean');
  const listing = out.indexOf('static-checks.test.ts');
  expect(typeCheck, out).toBeGreaterThanOrEqual(0);
  expect(lint, out).toBeGreaterThan(typeCheck);
  expect(listing, out).toBeGreaterThan(lint);
  expect(out.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/);
});

/**
 * `npm test`: the type check (`tsc --noEmit`), the lint (typescript-eslint), the format check
 * (Prettier, .prettierrc.json) and the unused exports check (knip, configured in knip.jsonc) first — any finding fails the run — then
 * the project's tests with Playwright, ending with one line `N passed, N failed, N skipped`
 * for CI. The count is read from this run's own report (the previous one is removed first),
 * so a run that broke before reporting never prints an old count. Exit code: the first
 * step's that failed, else Playwright's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { harnessEnv } from '../src/common/harness-env.js';

const REPORT = 'reports/project-tests.json';
mkdirSync('reports', { recursive: true });
rmSync(REPORT, { force: true });

const step = (what: string, cmd: string, args: string[]): number => {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  process.stdout.write(
    `${what}: ${r.status === 0 ? 'clean' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
  );
  return r.status ?? 1;
};

const extra = process.argv.slice(2);
// Arguments select tests (one file, a project): the checks of the whole tree still run first unless CONFHARNESS_SKIP_STATIC=1.
const skipStatic = harnessEnv('skipStatic');
for (const [what, args] of skipStatic
  ? []
  : ([
      ['type check', ['tsc', '--noEmit', '-p', '.']],
      ['lint', ['eslint', '--max-warnings', '0', '.']],
      ['format', ['prettier', '--check', '--log-level', 'warn', '.']],
      ['unused exports', ['knip', '--include', 'exports,types', '--no-progress']],
    ] as const)) {
  const code = step(what, 'npx', [...args]);
  if (code !== 0) {
    process.stdout.write(`\n0 passed, 1 failed\n`);
    process.exit(code);
  }
}

const run = spawnSync('npx', ['playwright', 'test', '--config', 'playwright.config.ts', ...extra], {
  stdio: 'inherit',
  env: process.env,
});
let line = '0 passed, 1 failed';
try {
  const report = JSON.parse(readFileSync(REPORT, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    errors?: unknown[];
  };
  const s = report.stats;
  // A file that fails to load is no test but an error of the run: counted as a failure, so the line never says "0 failed" for a broken run.
  const failed =
    s.unexpected +
    (report.errors?.length ?? 0) +
    (run.status !== 0 && s.unexpected === 0 && !report.errors?.length ? 1 : 0);
  line = `${s.expected + s.flaky} passed, ${failed} failed, ${s.skipped} skipped`;
} catch {
  // No report of this run: Playwright could not start; count that as one failure.
}
process.stdout.write(`\n${line}\n`);
process.exit(run.status ?? 1);

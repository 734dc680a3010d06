/**
 * `npm test`: the type check (`tsc --noEmit`), the lint (typescript-eslint), the format check
 * (Prettier, .prettierrc.json) and the unused exports check (knip, configured in knip.jsonc) first — any finding fails the run — then
 * the project's tests with Playwright, ending with one line `N passed, N failed, N skipped`
 * for CI. The count is read from this run's own report (the previous one is removed first),
 * so a run that broke before reporting never prints an old count. Exit code: the first
 * step's that failed, else Playwright's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { harnessEnv, harnessEnvVars } from '../src/common/harness-env.js';

const REPORT = 'reports/project-tests.json';
mkdirSync('reports', { recursive: true });
rmSync(REPORT, { force: true });

/** A static check to its end, its output kept and printed in one piece (two run at once), then its verdict line. */
const step = (what: string, args: readonly string[]): Promise<number> =>
  new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn('npx', [...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code, signal) => {
      process.stdout.write(Buffer.concat(out));
      process.stdout.write(
        `${what}: ${code === 0 ? 'clean' : `FAILED (exit ${code ?? signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
      );
      resolve(code ?? 1);
    });
  });

const extra = process.argv.slice(2);
// Arguments select tests (one file, a project): the checks of the whole tree still run first unless CONFHARNESS_SKIP_STATIC=1.
if (!harnessEnv('skipStatic')) {
  // Each check is one single-threaded process: two lanes keep both cores of CI busy — the
  // lint (the longest) beside the other three in turn — and halve the time they took one by one.
  // Once a check has failed, a lane starts no further one (the run fails whatever they say).
  let failed = false;
  const lane = async (steps: readonly (readonly [string, readonly string[]])[]) => {
    const codes: number[] = [];
    for (const [what, args] of steps) {
      if (failed) break;
      const code = await step(what, args);
      failed ||= code !== 0;
      codes.push(code);
    }
    return codes;
  };
  const [lint, others] = await Promise.all([
    lane([['lint', ['eslint', '--max-warnings', '0', '.']]]),
    lane([
      ['type check', ['tsc', '--noEmit', '-p', '.']],
      ['format', ['prettier', '--check', '--log-level', 'warn', '.']],
      ['unused exports', ['knip', '--include', 'exports,types', '--no-progress']],
    ]),
  ]);
  // The first that failed in the usual order: type check, lint, format, unused exports.
  const code = [others[0], lint[0], others[1], others[2]].find((c) => c !== undefined && c !== 0);
  if (code !== undefined) {
    process.stdout.write(`\n0 passed, 1 failed\n`);
    process.exit(code);
  }
}

// The compiled CLI (dist/, the package's build: a second) for the tests' children: every
// start of the CLI then skips tsx's compile, and the runs' Playwright processes load
// JavaScript (dist/suites) and transform nothing. A test file run alone runs the sources.
const build = spawnSync('npx', ['tsx', 'scripts/build.ts', '--test-suites'], { stdio: 'inherit' });
if (build.status !== 0) {
  process.stdout.write(`\nbuild: FAILED (exit ${build.status ?? build.signal})\n0 passed, 1 failed\n`);
  process.exit(build.status ?? 1);
}
const run = spawnSync('npx', ['playwright', 'test', '--config', 'playwright.config.ts', ...extra], {
  stdio: 'inherit',
  env: { ...process.env, ...harnessEnvVars({ compiledCli: true }) },
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

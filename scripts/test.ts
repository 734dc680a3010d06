/**
 * `npm test`: the type check and the lint (tsc and typescript-eslint on one program,
 * scripts/typecheck-lint.ts), the format check (Prettier, .prettierrc.json) and the unused
 * exports check (knip, configured in knip.jsonc) — any finding fails the run — beside the
 * project's tests with Playwright, ending with one line `N passed, N failed, N skipped` for CI. The count is read from this run's own report (the
 * previous one is removed first), so a run that broke before reporting never prints an old
 * count. Exit code: the first static check's that failed, else the build's, else Playwright's.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { harnessEnv, harnessEnvVars } from '../src/common/harness-env.js';

const REPORT = 'reports/project-tests.json';
mkdirSync('reports', { recursive: true });
rmSync(REPORT, { force: true });

/** Children of ours in sessions of their own (the static checks), stopped with us. */
const groups = new Set<number>();
const stopGroups = () => {
  for (const pid of groups)
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* gone already */
    }
};

/**
 * The static checks run beside the tests, in the CPU time the tests leave: the tests wait on
 * windows, timers and child processes and leave a tenth of two cores idle, about as much as
 * the checks need. Each check runs in a session of its own (Linux gives each session a
 * scheduling group, so the tests' own children, in sessions of their own, would otherwise
 * share the cores with it equally), at the lowest priority, for the session and its children.
 */
function lowPriority(child: ChildProcess): void {
  if (child.pid === undefined) return;
  groups.add(child.pid);
  try {
    writeFileSync(`/proc/${child.pid}/autogroup`, '19');
  } catch {
    /* no scheduling groups here: nice alone does it */
  }
}

/** A static check to its end, its output kept and printed in one piece (two run at once), then its verdict line. */
const step = (what: string, args: readonly string[]): Promise<number> =>
  new Promise((resolve) => {
    const t0 = Date.now();
    // POSIX nice: the lowest priority from the first instruction on, for every process the check starts.
    const child = spawn('nice', ['-n', '19', 'npx', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
    });
    lowPriority(child);
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code, signal) => {
      if (child.pid !== undefined) groups.delete(child.pid);
      process.stdout.write(Buffer.concat(out));
      process.stdout.write(
        `${what}: ${code === 0 ? 'clean' : `FAILED (exit ${code ?? signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
      );
      resolve(code ?? 1);
    });
  });

const extra = process.argv.slice(2);
const finish = (line: string, code: number): never => {
  stopGroups();
  process.stdout.write(`\n${line}\n`);
  process.exit(code);
};
/** The project's tests (Playwright), once started. */
let tests: ChildProcess | undefined;
/** Stop the tests as Ctrl-C does: SIGINT to their whole process group (npx alone would wait for its child). */
const stopTests = (): void => {
  if (tests?.pid === undefined || tests.exitCode !== null) return;
  try {
    process.kill(-tests.pid, 'SIGINT');
  } catch {
    /* gone already */
  }
};
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopGroups();
    stopTests();
    process.exit(130);
  });

/** The first static check that failed, in the usual order (type check and lint, format, unused exports), when one did. */
let staticChecks: Promise<number | undefined> = Promise.resolve(undefined);
// Arguments select tests (one file, a project): the checks of the whole tree still run unless CONFHARNESS_SKIP_STATIC=1.
if (!harnessEnv('skipStatic')) {
  // Two lanes, each one single-threaded process at a time: the type check and the lint (the
  // longest; one program for both, scripts/typecheck-lint.ts) beside the format and the exports
  // checks in turn. Once a check has failed, a lane starts no further one, and the tests are
  // stopped: the run fails whatever they say.
  let failed = false;
  const lane = async (steps: readonly (readonly [string, readonly string[]])[]) => {
    const codes: number[] = [];
    for (const [what, args] of steps) {
      if (failed) break;
      const code = await step(what, args);
      if (code !== 0 && !failed) {
        failed = true;
        stopTests();
      }
      codes.push(code);
    }
    return codes;
  };
  staticChecks = Promise.all([
    lane([['type check and lint', ['tsx', 'scripts/typecheck-lint.ts']]]),
    lane([
      ['format', ['prettier', '--check', '--log-level', 'warn', '.']],
      ['unused exports', ['knip', '--include', 'exports,types', '--no-progress']],
    ]),
  ]).then(([types, others]) => [types[0], others[0], others[1]].find((c) => c !== undefined && c !== 0));
}

// The compiled CLI (dist/, the package's build: a second) for the tests' children: every
// start of the CLI then skips tsx's compile, and the runs' Playwright processes load
// JavaScript (dist/suites) and transform nothing. A test file run alone runs the sources.
const build = spawnSync('npx', ['tsx', 'scripts/build.ts', '--test-suites'], { stdio: 'inherit' });
if (build.status !== 0) {
  process.stdout.write(`\nbuild: FAILED (exit ${build.status ?? build.signal})\n`);
  finish('0 passed, 1 failed', build.status ?? 1);
}
// A process group of their own, which stopTests stops whole.
tests = spawn('npx', ['playwright', 'test', '--config', 'playwright.config.ts', ...extra], {
  stdio: 'inherit',
  detached: true,
  env: { ...process.env, ...harnessEnvVars({ compiledCli: true }) },
});
const status = await new Promise<number>((resolve) => {
  tests!.on('error', () => resolve(1));
  tests!.on('close', (code) => resolve(code ?? 1));
});
const staticCode = await staticChecks;
if (staticCode !== undefined) finish('0 passed, 1 failed', staticCode);
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
    (status !== 0 && s.unexpected === 0 && !report.errors?.length ? 1 : 0);
  line = `${s.expected + s.flaky} passed, ${failed} failed, ${s.skipped} skipped`;
} catch {
  // No report of this run: Playwright could not start; count that as one failure.
}
finish(line, status);

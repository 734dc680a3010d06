/**
 * The project's own tests (`npm test`): unit and black-box tests beside the source
 * (`src/**\/*.test.ts`) and in `test/`. The conformance suites have their own config
 * (src/runner/playwright.config.ts) and are run by `conformance run`.
 */
import { defineConfig } from '@playwright/test';

/**
 * The longest tests (black-box runs of tens of seconds each), in a project of their own that
 * Playwright dispatches first (a phase's projects go in order): started last, they ended the
 * tests project with one worker busy and the others idle.
 */
const LONG = [
  'test/cli-reference.test.ts',
  'test/cli-versions.test.ts',
  'src/load/split-run.test.ts',
  'test/package.test.ts',
  'test/cli-variations.test.ts',
  'test/cli-outcomes.test.ts',
  // Not long, but a file whose tests run one after the other: dispatched last it was the tail.
  'test/static-checks.test.ts',
];

/** Timing-sensitive tests run alone, after the others (the `quiet` project). */
const QUIET = ['src/load/capacity/find.test.ts'];

export default defineConfig({
  testDir: '.',
  testMatch: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  testIgnore: ['**/node_modules/**', 'suites/**'],
  timeout: 120_000,
  // Three: many tests wait on windows, timers and child processes more than they compute (the selftest runs alone, after).
  workers: process.env.CI ? 3 : undefined,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'reports/project-tests.json' }]]
    : [['list'], ['json', { outputFile: 'reports/project-tests.json' }]],
  use: {},
  projects: [
    { name: 'tests-long', testMatch: LONG },
    { name: 'tests', testIgnore: ['**/node_modules/**', 'suites/**', 'test/selftest.test.ts', ...LONG, ...QUIET] },
    // Tests that measure the machine's own speed (a capacity search converging on a stub of
    // known capacity) run with no other test beside them: under 3 workers on 2 cores the
    // generator, not the stub, was the bottleneck and the figure came out a third low.
    { name: 'quiet', testMatch: QUIET, dependencies: ['tests-long', 'tests'] },
    // The selftest runs every mutant through the conformance suites, timing-sensitive rate
    // checks included: it runs last and alone, after every other project test.
    { name: 'selftest', testMatch: 'test/selftest.test.ts', dependencies: ['quiet'] },
  ],
});

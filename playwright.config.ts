/**
 * The project's own tests (`npm test`): unit and black-box tests beside the source
 * (`src/**\/*.test.ts`) and in `test/`. The conformance suites have their own config
 * (src/runner/playwright.config.ts) and are run by `conformance run`.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  testIgnore: ['**/node_modules/**', 'suites/**'],
  timeout: 120_000,
  // Three: many tests wait on windows, timers and child processes more than they compute (the selftest runs alone, after).
  workers: process.env.CI ? 3 : undefined,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/project-tests.json' }]] : [['list'], ['json', { outputFile: 'reports/project-tests.json' }]],
  use: {},
  projects: [
    { name: 'tests', testIgnore: ['**/node_modules/**', 'suites/**', 'test/selftest.test.ts'] },
    // The selftest runs every mutant through the conformance suites, timing-sensitive rate
    // checks included: it runs last and alone, after every other project test.
    { name: 'selftest', testMatch: 'test/selftest.test.ts', dependencies: ['tests'] },
  ],
});

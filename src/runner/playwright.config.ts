/**
 * Playwright configuration of the conformance suites, used by `conformance run` in two
 * phases: `functional` (every family but rate, in parallel) and then `rate` (last, so its
 * bursts never starve functional checks). Each phase writes a blob report in a folder of its own (a blob reporter empties its folder
 * first); the runner collects and merges them into the HTML, JUnit and results reports.
 */
import { defineConfig } from '@playwright/test';
import { join } from 'node:path';

const env = process.env;
const phase = env.CONFHARNESS_PHASE ?? 'functional';
const work = env.CONFHARNESS_WORK_DIR ?? join(process.cwd(), '.tmp');

export default defineConfig({
  testDir: join(import.meta.dirname, '..', '..', 'suites'),
  testMatch: '*.spec.ts',
  outputDir: join(work, 'test-results', phase),
  timeout: Number(env.CONFHARNESS_TEST_TIMEOUT_MS ?? 120_000),
  fullyParallel: true,
  forbidOnly: !!env.CI,
  retries: 0,
  workers: Number(env.CONFHARNESS_WORKERS ?? 2),
  reporter: [[env.CONFHARNESS_TERMINAL_REPORTER ?? (env.CI ? 'line' : 'list')], ['blob', { outputDir: join(work, 'blobs', phase), fileName: `${phase}.zip` }]],
  projects: [
    { name: 'functional', testIgnore: 'rate.spec.ts' },
    { name: 'rate', testMatch: 'rate.spec.ts' },
  ],
});

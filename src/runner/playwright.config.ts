/**
 * Playwright configuration of the conformance suites, used by `conformance run` in two
 * phases: `functional` (every family but rate, in parallel) and then `rate` (last, so its
 * bursts never starve functional checks). Each phase writes a blob report in a folder of
 * its own (a blob reporter empties its folder first); the runner scrubs and merges them
 * into the HTML, JUnit and results reports. `CONFHARNESS_SUITES_DIR` points the runner at
 * another suite folder (the project's own tests use small test-only suites).
 */
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { join } from 'node:path';
import { CODE_ROOT, codeFile, SUITE_SUFFIX } from '../spec/layout.js';

const env = process.env;
const phase = env.CONFHARNESS_PHASE ?? 'functional';
const work = env.CONFHARNESS_WORK_DIR ?? join(process.cwd(), '.tmp');
const terminal = env.CONFHARNESS_TERMINAL_REPORTER ?? 'progress';
const progress: ReporterDescription = [codeFile('src', 'reports', 'progress-reporter'), { phase }];

export default defineConfig({
  testDir: env.CONFHARNESS_SUITES_DIR ?? join(CODE_ROOT, 'suites'),
  testMatch: `*${SUITE_SUFFIX}`,
  outputDir: join(work, 'test-results', phase),
  timeout: Number(env.CONFHARNESS_TEST_TIMEOUT_MS ?? 120_000),
  fullyParallel: true,
  forbidOnly: !!env.CI,
  retries: 0,
  workers: Number(env.CONFHARNESS_WORKERS ?? 2),
  reporter: [
    terminal === 'progress' ? progress : [terminal],
    ['blob', { outputDir: join(work, 'blobs', phase), fileName: `${phase}.zip` }],
  ],
  projects: [
    { name: 'functional', testIgnore: `rate${SUITE_SUFFIX}` },
    { name: 'rate', testMatch: `rate${SUITE_SUFFIX}` },
  ],
});

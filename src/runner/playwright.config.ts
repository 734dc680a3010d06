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
import { harnessEnv } from '../common/harness-env.js';

const phase = harnessEnv('phase') ?? 'functional';
const work = harnessEnv('workDir') ?? join(process.cwd(), '.tmp');
const terminal = harnessEnv('terminalReporter') ?? 'progress';
const progress: ReporterDescription = [codeFile('src', 'reports', 'progress-reporter'), { phase }];

export default defineConfig({
  testDir: harnessEnv('suitesDir') ?? join(CODE_ROOT, 'suites'),
  testMatch: `*${SUITE_SUFFIX}`,
  outputDir: join(work, 'test-results', phase),
  timeout: harnessEnv('testTimeoutMs'),
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: harnessEnv('workers'),
  reporter: [
    terminal === 'progress' ? progress : [terminal],
    ['blob', { outputDir: join(work, 'blobs', phase), fileName: `${phase}.zip` }],
  ],
  projects: [
    { name: 'functional', testIgnore: `rate${SUITE_SUFFIX}` },
    { name: 'rate', testMatch: `rate${SUITE_SUFFIX}` },
  ],
});

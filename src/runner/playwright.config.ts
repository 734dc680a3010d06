/**
 * Playwright configuration of the conformance suites, used by `conformance run`: the project
 * `functional` (every family but rate, in parallel) and the project `rate`. A run whose target
 * has bases to spare runs both in one Playwright process (phase `both`: the rate family on one
 * worker of its own beside the others' workers, src/runner/rate-alongside.ts); otherwise each
 * is a phase of its own, rate last, so its bursts never starve functional checks. Each phase
 * writes a blob report in a folder of its own (a blob reporter empties its folder first); the
 * runner scrubs and merges them into the HTML, JUnit and results reports.
 * `CONFHARNESS_SUITES_DIR` points the runner at another suite folder (the project's own tests
 * use small test-only suites).
 */
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { join } from 'node:path';
import { CODE_ROOT, codeFile, SUITE_SUFFIX } from '../spec/layout.js';
import { BOTH_PHASES, harnessEnv } from '../common/harness-env.js';

const phase = harnessEnv('phase') ?? 'functional';
const both = phase === 'both';
const work = harnessEnv('workDir') ?? join(process.cwd(), '.tmp');
const terminal = harnessEnv('terminalReporter') ?? 'progress';
const workers = harnessEnv('workers');
const progress: ReporterDescription = [
  codeFile('src', 'reports', 'progress-reporter'),
  { phase: both ? BOTH_PHASES : phase },
];
// Both phases at once: the rate family's checks wait for the others' end (othersDone), which this reporter announces.
const othersDone: ReporterDescription[] = both
  ? [[codeFile('src', 'reports', 'others-done-reporter'), { file: harnessEnv('othersDoneFile') }]]
  : [];

export default defineConfig({
  testDir: harnessEnv('suitesDir') ?? join(CODE_ROOT, 'suites'),
  testMatch: `*${SUITE_SUFFIX}`,
  outputDir: join(work, 'test-results', phase),
  timeout: harnessEnv('testTimeoutMs'),
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: both ? workers + 1 : workers,
  reporter: [
    terminal === 'progress' ? progress : [terminal],
    ['blob', { outputDir: join(work, 'blobs', phase), fileName: `${phase}.zip` }],
    ...othersDone,
  ],
  projects: [
    { name: 'functional', testIgnore: `rate${SUITE_SUFFIX}`, ...(both ? { workers } : {}) },
    { name: 'rate', testMatch: `rate${SUITE_SUFFIX}`, ...(both ? { workers: 1 } : {}) },
  ],
});

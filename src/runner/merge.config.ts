/** Reporters for the merged report of both phases: HTML, JUnit, and our results + clause table. */
import { defineConfig } from '@playwright/test';
import { join } from 'node:path';

const dir = process.env.CONFHARNESS_REPORT_DIR ?? 'reports/latest';

export default defineConfig({
  testDir: join(import.meta.dirname, '..', '..', 'suites'),
  reporter: [
    ['html', { outputFolder: join(dir, 'html'), open: 'never' }],
    ['junit', { outputFile: join(dir, 'junit.xml'), includeProjectInTestName: false }],
    [join(import.meta.dirname, '..', 'reports', 'results-reporter.ts'), { outputDir: dir }],
  ],
});

/**
 * Reporters for the merged report of both phases. Ours come first: the results reporter
 * settles each check's outcome (vacuous-pass guard included) and marks it on the test's
 * annotations before the HTML reporter, which builds its report in `onEnd`, reads them.
 * Playwright's HTML report goes to html/playwright/; `finish` writes the front page html/index.html.
 */
import { defineConfig } from '@playwright/test';
import { join } from 'node:path';
import { CODE_ROOT, codeFile } from '../spec/layout.js';
import { harnessEnv } from '../common/harness-env.js';

const dir = harnessEnv('reportDir') ?? 'reports/latest';

export default defineConfig({
  testDir: harnessEnv('suitesDir') ?? join(CODE_ROOT, 'suites'),
  reporter: [
    [codeFile('src', 'reports', 'results-reporter'), { outputDir: dir }],
    [codeFile('src', 'reports', 'junit-reporter'), { outputFile: join(dir, 'junit.xml') }],
    // `--no-html` (the selftest's many runs need results.json only): no HTML report to build.
    ...(harnessEnv('noHtml')
      ? []
      : [
          [
            'html',
            {
              outputFolder: join(dir, 'html', 'playwright'),
              open: 'never',
              title: 'Conformance report',
              noCopyPrompt: true,
            },
          ] as const,
        ]),
  ],
});

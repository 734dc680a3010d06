/**
 * `npm test`: runs the project's tests with Playwright and ends with one line
 * `N passed, N failed, N skipped` for CI. Exit code is Playwright's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync } from 'node:fs';

mkdirSync('reports', { recursive: true });
const args = ['playwright', 'test', '--config', 'playwright.config.ts', ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit', env: process.env });
let line = '0 passed, 1 failed';
try {
  const report = JSON.parse(readFileSync('reports/project-tests.json', 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  const s = report.stats;
  line = `${s.expected + s.flaky} passed, ${s.unexpected} failed, ${s.skipped} skipped`;
} catch {
  // No report: Playwright could not start; count that as one failure.
}
process.stdout.write(`\n${line}\n`);
process.exit(run.status ?? 1);

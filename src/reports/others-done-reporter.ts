/**
 * Both phases in one Playwright process (src/runner/playwright.config.ts, phase `both`): the
 * rate family waits for the other families to be done before its exact counts and plan changes
 * (src/harness/rate-checks.ts `othersDone`). With a process per phase, the end of the
 * functional one said so; here the runner's reporter does: the file appears once every check
 * of the functional project has ended, or when the run ends, whichever comes first.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, Suite, TestCase } from '@playwright/test/reporter';

export default class OthersDoneReporter implements Reporter {
  private readonly left = new Set<string>();
  private written = false;

  constructor(private readonly options: { file?: string } = {}) {}

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: unknown, suite: Suite): void {
    for (const test of suite.allTests()) if (test.parent.project()?.name !== 'rate') this.left.add(test.id);
    this.check();
  }

  onTestEnd(test: TestCase): void {
    this.left.delete(test.id);
    this.check();
  }

  onEnd(): void {
    this.announce();
  }

  private check(): void {
    if (this.left.size === 0) this.announce();
  }

  private announce(): void {
    if (this.written || !this.options.file) return;
    this.written = true;
    writeFileSync(this.options.file, '');
  }
}

/**
 * A Playwright reporter writing `results.json` (+ its JSON Schema) and `clauses.md` into
 * the report directory. It runs in the merge of the run's phases, so it sees every check.
 * It is listed before the HTML reporter: a check the vacuous-pass guard turns into an
 * error gets an `outcome` annotation here, which the HTML report then shows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { clausesMarkdown } from './clauses-md.js';
import { collect } from './collect.js';
import { applyVacuousGuard, clauseTable } from './outcomes.js';
import { RESULTS_SCHEMA_VERSION, resultsJsonSchema, type Results, type TestResultT } from './results-schema.js';

export const RUN_INFO_ENV = 'CONFHARNESS_RUN_INFO';
export const TOOL = { name: 'base-data-conformance', version: '0.1.0' } as const;

/** Mark an outcome that differs from Playwright's status on the result the HTML report shows. */
export function markOutcome(result: TestResult, t: TestResultT): void {
  if (t.outcome !== 'error' || result.annotations.some((a) => a.type === 'outcome')) return;
  result.annotations.push({ type: 'outcome', description: `error — ${t.message ?? 'the harness could not decide'}` });
}

export default class ResultsReporter implements Reporter {
  private readonly seen: { t: TestResultT; result: TestResult }[] = [];
  private readonly started = new Date();

  constructor(private readonly options: { outputDir?: string } = {}) {}

  printsToStdio() {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.seen.push({ t: collect(test, result), result });
  }

  onEnd(_result: FullResult): void {
    const tests = this.seen.map((s) => s.t);
    applyVacuousGuard(tests);
    for (const s of this.seen) markOutcome(s.result, s.t);
    const info = JSON.parse(process.env[RUN_INFO_ENV] ?? '{}') as Partial<Results['run']>;
    const totals = { pass: 0, fail: 0, skip: 0, error: 0, tests: tests.length };
    for (const t of tests) totals[t.outcome]++;
    const startedAt = info.startedAt ?? this.started.toISOString();
    const results: Results = {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      tool: TOOL,
      run: { ...info, startedAt, durationMs: Date.now() - Date.parse(startedAt) },
      totals,
      clauses: clauseTable(tests),
      tests,
    };
    const dir = this.options.outputDir ?? '.';
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'results.json'), JSON.stringify(results, null, 2));
    writeFileSync(join(dir, 'results.schema.json'), JSON.stringify(resultsJsonSchema(), null, 2));
    writeFileSync(join(dir, 'clauses.md'), clausesMarkdown(results));
  }
}

/**
 * A Playwright reporter writing `results.json` (+ its JSON Schema) and `clauses.md` into
 * the report directory. It runs in the merge of the run's phases, so it sees every check.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { redactText } from '../client/redact.js';
import { isClauseId } from '../spec/index.js';
import { clausesMarkdown } from './clauses-md.js';
import { applyVacuousGuard, clauseTable, outcomeOf } from './outcomes.js';
import { RESULTS_SCHEMA_VERSION, resultsJsonSchema, type Results, type TestResultT } from './results-schema.js';

export const RUN_INFO_ENV = 'CONFHARNESS_RUN_INFO';

function annotation(test: TestCase, type: string): string | undefined {
  return test.annotations.find((a) => a.type === type)?.description;
}

function callsOf(result: TestResult): { calls?: number; refused?: number } {
  const a = result.attachments.find((x) => x.name === 'calls.json');
  try {
    const text = a?.body ? a.body.toString('utf8') : a?.path ? readFileSync(a.path, 'utf8') : undefined;
    return text ? (JSON.parse(text) as { calls: number; refused: number }) : {};
  } catch {
    return {};
  }
}

export default class ResultsReporter implements Reporter {
  private readonly tests: TestResultT[] = [];
  private readonly started = new Date();

  constructor(private readonly options: { outputDir?: string } = {}) {}

  printsToStdio() {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const clause = annotation(test, 'clause') ?? /^([A-Z]+-\d+)\b/.exec(test.title)?.[1] ?? null;
    const message = result.errors.map((e) => e.message ?? e.value ?? '').join('\n') || (result.status === 'timedOut' ? `timed out after ${result.duration} ms` : undefined);
    const skipReason = test.annotations.filter((a) => a.type === 'skip').map((a) => a.description).filter(Boolean).join('; ');
    const outcome = outcomeOf(result.status, message);
    this.tests.push({
      title: test.title,
      clause: clause && isClauseId(clause) ? clause : null,
      basis: (annotation(test, 'basis') as 'spec' | 'compat' | undefined) ?? null,
      family: clause ? clause.split('-')[0]! : null,
      project: test.parent.project()?.name ?? '',
      file: test.location.file.split(/[\\/]suites[\\/]/).pop() ?? test.location.file,
      outcome,
      durationMs: result.duration,
      message: outcome === 'skip' ? skipReason || undefined : message ? redactText(stripAnsi(message)) : undefined,
      ...callsOf(result),
    });
  }

  onEnd(_result: FullResult): void {
    applyVacuousGuard(this.tests);
    const info = JSON.parse(process.env[RUN_INFO_ENV] ?? '{}') as Partial<Results['run']>;
    const totals = { pass: 0, fail: 0, skip: 0, error: 0, tests: this.tests.length };
    for (const t of this.tests) totals[t.outcome]++;
    const results: Results = {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      tool: { name: 'base-data-conformance', version: '0.1.0' },
      run: { ...info, startedAt: info.startedAt ?? this.started.toISOString(), durationMs: info.startedAt ? Date.now() - Date.parse(info.startedAt) : Date.now() - this.started.getTime() },
      totals,
      clauses: clauseTable(this.tests),
      tests: this.tests,
    };
    const dir = this.options.outputDir ?? '.';
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'results.json'), JSON.stringify(results, null, 2));
    writeFileSync(join(dir, 'results.schema.json'), JSON.stringify(resultsJsonSchema(), null, 2));
    writeFileSync(join(dir, 'clauses.md'), clausesMarkdown(results));
  }
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

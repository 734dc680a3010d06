/**
 * A Playwright reporter writing `results.json` (+ its JSON Schema) into the report
 * directory, and the redacted exchanges of every check that did not pass into the run's
 * work folder (for the HTML front page). It runs in the merge of the run's phases, so it
 * sees every check and every error reported outside a check (a suite file that did not
 * load, a worker that died); `finish` then adds what only the runner knows and writes
 * clauses.md and the front page. It is listed before Playwright's HTML reporter: a check
 * the vacuous-pass guard turns into an error gets an `outcome` annotation here, which the
 * HTML report then shows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { redactText } from '../client/redact.js';
import { attachmentText, collect, settledProblems, stripAnsi } from './collect.js';
import { applyVacuousGuard, assertionWarningCount, clauseTable } from './outcomes.js';
import { RESULTS_SCHEMA_VERSION, resultsJsonSchema, type Results, type RunError, type TestResultT } from './results-schema.js';
import type { StateWarning } from '../harness/outcome.js';
import { HAR_ATTACHMENT } from '../harness/recorder.js';
import { identity } from '../spec/identity.js';
import { harnessEnv } from '../common/harness-env.js';

/** In the work folder: the exchanges of every check that did not pass (test id → redacted transcript). */
export const EXCHANGES_FILE = 'exchanges.json';
/** The report folder's folder of HAR files. */
const HAR_DIR = 'har';
const EXCHANGES_MAX = 24_000;

/** Mark an outcome that differs from Playwright's status on the result the HTML report shows. */
export function markOutcome(result: TestResult, t: TestResultT): void {
  if (t.outcome !== 'error' || result.annotations.some((a) => a.type === 'outcome')) return;
  result.annotations.push({ type: 'outcome', description: `error — ${t.message ?? 'the harness could not decide'}` });
}

/** An error reported outside any check, in words a user can act on. */
export function runErrorOf(e: TestError): RunError {
  const text = redactText(stripAnsi(e.message ?? e.value ?? 'unknown error')).split('\n')[0]!;
  const file = e.location?.file;
  if (file && /\.spec\.[cm]?[jt]s$/.test(file)) return { reason: `a suite file could not be loaded (${file.split(/[\\/]/).pop()}): ${text}` };
  return { reason: `error outside any check: ${text}` };
}

/** A file name for a check's HAR: its title, readable and short, and its id (unique). */
const harName = (t: TestResultT) => `${t.title.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)}-${(t.id ?? '').slice(-8)}.har`;

/** Each failed or errored check's exchanges as a HAR file under har/, named in its `har` field. */
function writeHarFiles(dir: string, seen: readonly { t: TestResultT; result: TestResult }[]): void {
  for (const { t, result } of seen) {
    if (t.outcome !== 'fail' && t.outcome !== 'error') continue;
    const text = attachmentText(result, HAR_ATTACHMENT);
    if (!text) continue;
    mkdirSync(join(dir, HAR_DIR), { recursive: true });
    t.har = `${HAR_DIR}/${harName(t)}`;
    writeFileSync(join(dir, t.har), redactText(text));
  }
}

export default class ResultsReporter implements Reporter {
  private readonly seen: { t: TestResultT; result: TestResult }[] = [];
  private readonly runErrors: RunError[] = [];
  private readonly warnings: StateWarning[] = [];
  private readonly started = new Date();

  constructor(private readonly options: { outputDir?: string } = {}) {}

  printsToStdio() {
    return false;
  }

  onError(error: TestError): void {
    this.runErrors.push(runErrorOf(error));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const t = { ...collect(test, result), id: test.id };
    this.seen.push({ t, result });
    const p = settledProblems(result, test.title);
    if (p.runError) this.runErrors.push({ reason: p.runError, phase: t.project });
    this.warnings.push(...p.warnings);
  }

  onEnd(_result: FullResult): void {
    const tests = this.seen.map((s) => s.t);
    applyVacuousGuard(tests);
    for (const s of this.seen) markOutcome(s.result, s.t);
    const info = harnessEnv('runInfo') as Partial<Results['run']>;
    const totals = { pass: 0, fail: 0, skip: 0, error: 0, tests: tests.length, assertionWarnings: assertionWarningCount(tests) };
    for (const t of tests) totals[t.outcome]++;
    const startedAt = info.startedAt ?? this.started.toISOString();
    const results: Results = {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      tool: identity(),
      run: { ...info, startedAt, durationMs: Date.now() - Date.parse(startedAt) },
      totals,
      runErrors: this.runErrors,
      warnings: this.warnings,
      clauses: clauseTable(tests),
      tests,
    };
    const dir = this.options.outputDir ?? '.';
    mkdirSync(dir, { recursive: true });
    writeHarFiles(dir, this.seen);
    writeFileSync(join(dir, 'results.json'), JSON.stringify(results, null, 2));
    writeFileSync(join(dir, 'results.schema.json'), JSON.stringify(resultsJsonSchema(), null, 2));
    const work = harnessEnv('mergeWork');
    if (work) {
      const exchanges: Record<string, string> = {};
      for (const { t, result } of this.seen) {
        const text = attachmentText(result, 'requests and responses');
        if (text && (t.outcome !== 'pass' || t.assertionWarnings?.length) && t.id) exchanges[t.id] = redactText(text).slice(0, EXCHANGES_MAX);
      }
      writeFileSync(join(work, EXCHANGES_FILE), JSON.stringify(exchanges), { mode: 0o600 });
    }
  }
}

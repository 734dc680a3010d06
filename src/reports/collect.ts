/**
 * One finished Playwright test as the harness sees it — clause, basis, outcome and why —
 * shared by every reporter so that results.json, JUnit, clauses.md, the HTML front page and
 * the terminal say the same thing about the same check. The outcome comes from the
 * `outcome.json` the worker attached (src/harness/outcome.ts); a check that failed without
 * one (its worker died, a worker fixture broke) is an error, never a failure.
 */
import { readFileSync } from 'node:fs';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { redactText } from '../client/redact.js';
import { CheckOutcome, OUTCOME_ATTACHMENT } from '../harness/outcome.js';
import { evidenceOfCheck } from '../harness/evidence-annotation.js';
import { isClauseId } from '../spec/index.js';
import type { TestResultT } from './results-schema.js';

export const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

function annotation(test: TestCase, result: TestResult | undefined, type: string): string | undefined {
  return [...test.annotations, ...(result?.annotations ?? [])].find((a) => a.type === type)?.description;
}

/** An attachment's text, inline or from its file. */
export function attachmentText(result: TestResult, name: string): string | undefined {
  const a = result.attachments.find((x) => x.name === name);
  try {
    return a?.body ? a.body.toString('utf8') : a?.path ? readFileSync(a.path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function jsonAttachment(result: TestResult, name: string): unknown {
  const text = attachmentText(result, name);
  if (text === undefined) return undefined;
  try { return JSON.parse(text); } catch { return undefined; }
}

function callsOf(result: TestResult): { calls?: number; refused?: number } {
  const c = jsonAttachment(result, 'calls.json') as { calls?: number; refused?: number } | undefined;
  return c ? { calls: c.calls, refused: c.refused } : {};
}

/** Playwright's error text of a result, redacted, without colour codes (for checks that never settled). */
function errorText(result: TestResult): string | undefined {
  const text = result.errors.map((e) => e.message ?? e.value ?? '').join('\n');
  return text ? redactText(stripAnsi(text)) : undefined;
}

/** The outcome the worker recorded; without one, what Playwright's status allows us to say. */
function outcomeOf(result: TestResult): CheckOutcome & { settled: boolean } {
  const parsed = CheckOutcome.safeParse(jsonAttachment(result, OUTCOME_ATTACHMENT));
  if (parsed.success) return { ...parsed.data, settled: true };
  const bare = { violations: [], warnings: [], assertionWarnings: [], settled: false };
  if (result.status === 'passed') return { ...bare, outcome: 'pass', errors: [] };
  if (result.status === 'skipped') return { ...bare, outcome: 'skip', errors: [] };
  const why = (errorText(result) ?? `status ${result.status}`).split('\n')[0]!;
  return { ...bare, outcome: 'error', errors: [{ cause: 'no-outcome', message: `the check ended without settling its outcome (${why})` }] };
}

const first = (s: string) => s.split('\n')[0]!.slice(0, 500);

/** The readable reason of an outcome: violations for a failure (and errors after them), causes for an error, then assertion warnings. */
function messageOf(o: Pick<CheckOutcome, 'violations' | 'errors' | 'assertionWarnings'>): string | undefined {
  const lines = [
    ...o.violations.map((v) => `${first(v.message)}${v.exchange ? ` [${v.exchange}]` : ''}`),
    ...o.errors.map((e) => `harness could not decide (${e.cause}): ${first(e.message)}`),
    ...o.assertionWarnings.map((w) => `warning (inferred: ${w.evidence?.cite ?? '?'}): ${first(w.message)}${w.exchange ? ` [${w.exchange}]` : ''}`),
  ];
  return lines.length ? lines.join('\n') : undefined;
}

export function collect(test: TestCase, result: TestResult): TestResultT {
  const clause = annotation(test, result, 'clause') ?? /^([A-Z]+-\d+)\b/.exec(test.title)?.[1] ?? null;
  const o = outcomeOf(result);
  const skipReason = [...new Set([...test.annotations, ...result.annotations].filter((a) => a.type === 'skip').map((a) => a.description).filter(Boolean))].join('; ');
  const titlePath = test.titlePath();
  const evidence = evidenceOfCheck({ annotations: [...test.annotations, ...result.annotations] }) ?? null;
  return {
    title: test.title,
    clause: clause && isClauseId(clause) ? clause : null,
    basis: evidence ? (evidence.class === 'spec' ? 'spec' : 'compat') : null,
    evidence: evidence && { class: evidence.class, cite: evidence.cite },
    family: clause ? clause.split('-')[0]! : null,
    project: test.parent.project()?.name ?? '',
    // The suite file from the title path (the location may point at a shared helper).
    file: (titlePath[2] ?? test.location.file).split(/[\\/]/).pop()!,
    outcome: o.outcome,
    durationMs: result.duration,
    message: o.outcome === 'skip' ? redactText(skipReason) || undefined : messageOf(o),
    ...(o.outcome === 'error' ? { cause: o.errors[0]?.cause } : {}),
    ...(o.violations.length ? { violations: o.violations } : {}),
    ...(o.errors.length ? { errors: o.errors } : {}),
    ...(o.assertionWarnings.length ? { assertionWarnings: o.assertionWarnings } : {}),
    ...callsOf(result),
  };
}

/** The run-level problems and warnings a set of results carries: unsettled checks, failed restores. */
export function settledProblems(result: TestResult, title: string): { runError?: string; warnings: CheckOutcome['warnings'] } {
  const o = outcomeOf(result);
  return {
    runError: !o.settled && o.outcome === 'error' ? `check "${title}" ended without an outcome: ${o.errors[0]!.message}` : undefined,
    warnings: o.warnings,
  };
}

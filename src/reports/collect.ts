/**
 * One finished Playwright test as the harness sees it — clause, basis, outcome, the reason
 * — shared by every reporter so that results.json, JUnit, clauses.md and the terminal say
 * the same thing about the same check.
 */
import { readFileSync } from 'node:fs';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { redactText } from '../client/redact.js';
import { undecidedKind, UNDECIDED_MARK } from '../harness/outcome.js';
import { isClauseId } from '../spec/index.js';
import { outcomeOf } from './outcomes.js';
import type { TestResultT } from './results-schema.js';

// eslint-disable-next-line no-control-regex
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

function callsOf(result: TestResult): { calls?: number; refused?: number } {
  try {
    const text = attachmentText(result, 'calls.json');
    return text ? (JSON.parse(text) as { calls: number; refused: number }) : {};
  } catch {
    return {};
  }
}

/** The error text of a result, redacted, without colour codes. */
export function errorText(result: TestResult): string | undefined {
  const text = result.errors.map((e) => e.message ?? e.value ?? '').join('\n');
  if (text) return redactText(stripAnsi(text));
  return result.status === 'timedOut' ? `timed out after ${result.duration} ms` : undefined;
}

/** "Undecided: HARNESS-ERROR[timeout-headers] GET …" → "harness could not decide (timeout-headers): GET …". */
export function readableError(message: string): string {
  if (!undecidedKind(message)) return message;
  const mark = new RegExp(`(?:^(?:\\w*Error|Undecided): )?${UNDECIDED_MARK}\\[([\\w-]+)\\] ?`, 'gm');
  return message.replace(mark, 'harness could not decide ($1): ');
}

export function collect(test: TestCase, result: TestResult): TestResultT {
  const clause = annotation(test, result, 'clause') ?? /^([A-Z]+-\d+)\b/.exec(test.title)?.[1] ?? null;
  const message = errorText(result);
  const skipReason = [...new Set([...test.annotations, ...result.annotations].filter((a) => a.type === 'skip').map((a) => a.description).filter(Boolean))].join('; ');
  const outcome = outcomeOf(result.status, message);
  const stopped = result.status === 'timedOut' || result.status === 'interrupted' ? `harness could not decide (${result.status === 'timedOut' ? 'timeout' : 'interrupted'}): ` : '';
  return {
    title: test.title,
    clause: clause && isClauseId(clause) ? clause : null,
    basis: (annotation(test, result, 'basis') as 'spec' | 'compat' | undefined) ?? null,
    family: clause ? clause.split('-')[0]! : null,
    project: test.parent.project()?.name ?? '',
    file: test.location.file.split(/[\\/]/).pop() ?? test.location.file,
    outcome,
    durationMs: result.duration,
    message: outcome === 'skip' ? redactText(skipReason) || undefined : message ? stopped + readableError(message) : undefined,
    ...callsOf(result),
  };
}

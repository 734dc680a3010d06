/**
 * What every check's fixture does around the check, whatever the check did: begin its
 * verdict record, and afterwards settle its outcome (src/harness/verdict.ts), attach it as
 * data (`outcome.json`, read by every reporter), say it in an `outcome` annotation where
 * Playwright cannot (it would call an undecided check "failed"), and redact known secrets
 * from its error messages and its printed output before they leave the worker.
 */
import type { TestInfo } from '@playwright/test';
import { redactText } from '../client/redact.js';
import { OUTCOME_ATTACHMENT } from './outcome.js';
import { settle } from './verdict.js';

function describeOutcome(o: ReturnType<typeof settle>): string | undefined {
  if (o.outcome === 'fail')
    return `fail — the target does not meet the clause: ${o.violations[0]!.message.split('\n')[0]}${o.violations.length > 1 ? ` (and ${o.violations.length - 1} more)` : ''}`;
  if (o.outcome === 'error')
    return `error — the harness could not decide (${o.errors[0]!.cause}); this is not a failure of the target`;
  if (o.assertionWarnings.length)
    return `${o.outcome} with ${o.assertionWarnings.length} assertion warning(s) (evidence only inferred; --strict fails them): ${o.assertionWarnings[0]!.message.split('\n')[0]}`;
  return undefined;
}

/**
 * An attachment pushed as data: `testInfo.attach` would make a report step of it (a stack
 * capture, a worker→runner message, a blob line) and create the check's output folder on
 * disk, ≈ 1 ms per attachment; a check attaches up to four.
 */
export function attachData(testInfo: TestInfo, name: string, body: string, contentType: string): void {
  testInfo.attachments.push({ name, contentType, body: Buffer.from(body) });
}

/** After the check: settle and attach its outcome, redact its errors; the outcome is returned. */
export async function settleCheck(testInfo: TestInfo): Promise<ReturnType<typeof settle>['outcome']> {
  const o = settle(testInfo);
  for (const e of testInfo.errors) {
    if (e.message) e.message = redactText(e.message);
    if (e.stack) e.stack = redactText(e.stack);
    if (e.value) e.value = redactText(e.value);
  }
  for (const a of testInfo.annotations) if (a.description) a.description = redactText(a.description);
  const said = describeOutcome(o);
  if (said) testInfo.annotations.push({ type: 'outcome', description: said });
  if (o.outcome !== 'pass' || o.warnings.length || o.assertionWarnings.length)
    attachData(testInfo, OUTCOME_ATTACHMENT, JSON.stringify(o), 'application/json');
  // A violation the check caught itself still fails it: Playwright must not report a pass.
  if (o.outcome === 'fail' && testInfo.status === 'passed')
    throw new Error(
      `the check recorded ${o.violations.length} violation(s) but did not fail: ${o.violations[0]!.message}`,
    );
  return o.outcome;
}

type Write = typeof process.stdout.write;

/** Redact what the worker prints (console.log in a check goes to the reports and the terminal). */
export function redactStdio(): () => void {
  const wrap = (stream: NodeJS.WriteStream): Write => {
    const original = stream.write.bind(stream) as Write;
    const redacting = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return (original as (c: string, ...r: unknown[]) => boolean)(redactText(text), ...rest);
    }) as Write;
    stream.write = redacting;
    return original;
  };
  const out = wrap(process.stdout);
  const err = wrap(process.stderr);
  return () => {
    process.stdout.write = out;
    process.stderr.write = err;
  };
}

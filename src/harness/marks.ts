/**
 * What every check's fixture does after the check, whatever the check did: say its outcome
 * where Playwright cannot (an `outcome: error` annotation when the harness could not
 * decide — Playwright would only say "failed"), and redact known secrets from its error
 * messages and its printed output before they leave the worker.
 */
import type { TestInfo } from '@playwright/test';
import { redactText } from '../client/redact.js';
import { undecidedKind } from './outcome.js';

/** After the check: redact its errors and, if the harness could not decide, annotate that. */
export function settleCheck(testInfo: TestInfo): void {
  for (const e of testInfo.errors) {
    if (e.message) e.message = redactText(e.message);
    if (e.stack) e.stack = redactText(e.stack);
    if (e.value) e.value = redactText(e.value);
  }
  for (const a of testInfo.annotations) if (a.description) a.description = redactText(a.description);
  if (testInfo.annotations.some((a) => a.type === 'outcome')) return;
  const kind = testInfo.status === 'timedOut' ? 'timeout' : testInfo.errors.map((e) => undecidedKind(e.message ?? e.value)).find(Boolean);
  if (testInfo.status === 'timedOut' || testInfo.status === 'interrupted' || kind) {
    testInfo.annotations.push({ type: 'outcome', description: `error — the harness could not decide (${kind ?? testInfo.status}); this is not a failure of the target` });
  } else if (testInfo.status === 'failed') {
    testInfo.annotations.push({ type: 'outcome', description: 'fail — the target does not meet the clause' });
  }
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

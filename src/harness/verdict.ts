/**
 * The check's verdict, kept as data while it runs. The suites' `expect` records every
 * assertion that does not hold as a `Violation` (hard ones are thrown, soft ones reported
 * to Playwright as its own soft failures, which carry the very same text), so `settle` can
 * tell a failure of the target from anything else that was thrown: a check fails only
 * through a violation.
 */
import { expect as pwExpect, type TestInfo } from '@playwright/test';
import { redactText } from '../client/redact.js';
import { undecidedKindOf, type CheckError, type CheckOutcome, type StateWarning, type Violation } from './outcome.js';
import type { Recorder } from './recorder.js';

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
const clip = (s: string, n = 400) => (s.length > n ? `${s.slice(0, n)}…` : s);
const show = (v: unknown) => {
  if (v === undefined) return undefined;
  try { return clip(redactText(typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v))); } catch { return clip(String(v)); }
};

interface Running {
  clause: string | null;
  recorder?: Recorder;
  violations: Violation[];
  /** Serialised texts (`Name: message`) of the violations' errors, to tell them among Playwright's errors. */
  violationTexts: Set<string>;
  warnings: StateWarning[];
  title: string;
}

/** The check running in this worker (Playwright runs one test at a time per worker). */
let running: Running | undefined;

/** The clause a check names in its `clause` annotation (src/harness/test.ts `clause()`), or null. */
export const clauseOfCheck = (testInfo: TestInfo): string | null => testInfo.annotations.find((a) => a.type === 'clause')?.description ?? null;

export function beginCheck(testInfo: TestInfo, recorder: Recorder | undefined): void {
  running = { clause: clauseOfCheck(testInfo), recorder, violations: [], violationTexts: new Set(), warnings: [], title: testInfo.title };
}

function lastExchange(): string | undefined {
  const r = running?.recorder;
  const x = r?.exchanges.at(-1);
  return x ? `#${r!.exchanges.length} ${x.method} ${x.url} → ${x.error ?? x.status}` : undefined;
}

function recordViolation(e: unknown, message: string | undefined): void {
  if (!running) return;
  const err = e as Error & { matcherResult?: { expected?: unknown; actual?: unknown } };
  const text = stripAnsi(String(err?.message ?? e));
  running.violationTexts.add(`${err?.name ?? 'Error'}: ${err?.message ?? String(e)}`);
  running.violations.push({
    clause: running.clause,
    message: redactText(message ?? text.split('\n')[0]!),
    expected: show(err?.matcherResult?.expected),
    seen: show(err?.matcherResult?.actual),
    exchange: lastExchange(),
  });
}

type Path = (string | symbol)[];

/** Matchers whose failures become violations; `soft` ones are then reported through Playwright's own soft expect. */
function wrapMatchers(matchers: object, actual: unknown, message: string | undefined, soft: boolean, path: Path = []): object {
  return new Proxy(matchers, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'not' || prop === 'resolves' || prop === 'rejects') return wrapMatchers(value as object, actual, message, soft, [...path, prop]);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const failed = (e: unknown) => {
          recordViolation(e, message);
          if (!soft) throw e;
          // Playwright shows the soft failure as its own (diff and location); the check goes on.
          let m = pwExpect.soft(actual, message) as unknown as Record<string | symbol, unknown>;
          for (const p of path) m = m[p] as Record<string | symbol, unknown>;
          try { return (m[prop] as (...a: unknown[]) => unknown)(...args); } catch { return undefined; }
        };
        try {
          const r = (value as (...a: unknown[]) => unknown).apply(target, args);
          return r instanceof Promise ? r.catch(failed) : r;
        } catch (e) {
          return failed(e);
        }
      };
    },
  });
}

type Expect = typeof pwExpect;
const hard = ((actual: unknown, message?: string) => wrapMatchers(pwExpect(actual, message), actual, message, false)) as unknown as Expect;
const soft = ((actual: unknown, message?: string) => wrapMatchers(pwExpect(actual, message), actual, message, true)) as unknown as Expect['soft'];

/** Playwright's `expect` and `expect.soft`, whose failures are violations of the running check's clause. */
export const expect: Expect = Object.assign(hard, { soft }) as Expect;

/** Record that a check could not put something back; `accountChanged` when the target is left different from before. */
/** Where warnings go when no check is running (`conformance diff` runs recipes outside Playwright). */
let outside: ((w: StateWarning) => void) | undefined;
export function warningsOutsideChecks(sink: ((w: StateWarning) => void) | undefined): void {
  outside = sink;
}

export function warnState(what: string, accountChanged = true): void {
  if (running) running.warnings.push({ check: running.title, what: redactText(what), accountChanged });
  else outside?.({ check: 'conformance diff', what: redactText(what), accountChanged });
}

const HARNESS_BUG = /^(TypeError|ReferenceError|RangeError|SyntaxError): /;

/** The outcome of the running check, from its records and Playwright's status and errors. */
export function settle(testInfo: TestInfo): CheckOutcome {
  const r = running ?? { clause: null, violations: [], violationTexts: new Set<string>(), warnings: [], title: testInfo.title };
  running = undefined;
  const errors: CheckError[] = [];
  for (const e of testInfo.errors) {
    const text = e.message ?? e.value ?? '';
    if (r.violationTexts.has(text)) continue;
    const message = redactText(stripAnsi(text));
    const kind = undecidedKindOf(text);
    if (kind) errors.push({ cause: kind, message: message.replace(/^Undecided: /, '') });
    else if (/^(\w*Error: )?Test timeout of \d+ms exceeded/.test(message)) errors.push({ cause: 'timeout', message }); // Playwright's own words: the status stays 'failed' after a soft violation
    else errors.push({ cause: HARNESS_BUG.test(text) ? 'harness-bug' : 'harness', message });
  }
  if (testInfo.status === 'timedOut' && !errors.some((e) => e.cause === 'timeout')) errors.push({ cause: 'timeout', message: `the check ran out of time (${testInfo.timeout} ms)` });
  if (testInfo.status === 'interrupted') errors.push({ cause: 'interrupted', message: 'the run was interrupted' });
  const outcome = r.violations.length ? 'fail'
    : errors.length || testInfo.status === 'failed' ? 'error'
      : testInfo.status === 'skipped' ? 'skip' : 'pass';
  if (outcome === 'error' && errors.length === 0) errors.push({ cause: 'harness', message: 'the check failed without an error the harness could read' });
  return { outcome, violations: r.violations, errors, warnings: r.warnings };
}

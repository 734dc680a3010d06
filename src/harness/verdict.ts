/**
 * The check's verdict, kept as data while it runs. The suites' `expect` records every
 * assertion that does not hold as a `Violation` (hard ones are thrown, soft ones reported
 * to Playwright as its own soft failures, which carry the very same text), so `settle` can
 * tell a failure of the target from anything else that was thrown: a check fails only
 * through a violation.
 *
 * Every assertion stands on evidence (src/spec/evidence.ts): the check's default (its
 * `clause()` annotation) or its own (`expect.because(ev.inferred('…'))`). One whose evidence
 * is only `inferred` is an assertion warning, not a violation, unless the run is `--strict`:
 * a soft one is recorded and the check goes on; a hard one stops the check (what follows
 * depends on it) without failing it. A violation cites the exchange that shows it: the
 * `Reply` (or sent probe) the assertion names with `expect.about(reply)` or asserts on, else
 * the check's last call.
 */
import { expect as pwExpect, type TestInfo } from '@playwright/test';
import { redactText } from '../client/redact.js';
import { failsTarget, type Evidence } from '../spec/index.js';
import { evidenceOfCheck } from './evidence-annotation.js';
import {
  undecidedKindOf,
  type AssertionWarning,
  type CheckError,
  type CheckOutcome,
  type StateWarning,
  type Violation,
} from './outcome.js';
import type { Cited, ExchangeRef, Recorder } from './recorder.js';

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
const clip = (s: string, n = 400) => (s.length > n ? `${s.slice(0, n)}…` : s);
const show = (v: unknown) => {
  if (v === undefined) return undefined;
  try {
    return clip(redactText(typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v))));
  } catch {
    return clip(String(v));
  }
};

interface Running {
  clause: string | null;
  recorder?: Recorder;
  /** The check's default evidence (its `evidence` annotation). */
  evidence?: Evidence;
  /** `--strict`: an assertion warning is a violation. */
  strict: boolean;
  violations: Violation[];
  assertionWarnings: AssertionWarning[];
  /** Serialised texts (`Name: message`) of the violations' and warnings' errors, to tell them among Playwright's errors. */
  violationTexts: Set<string>;
  /** Serialised texts of hard assertion warnings (they stop the check, they do not fail it). */
  warningTexts: Set<string>;
  warnings: StateWarning[];
  title: string;
}

/** The check running in this worker (Playwright runs one test at a time per worker). */
let running: Running | undefined;

/** The clause a check names in its `clause` annotation (src/harness/test.ts `clause()`), or null. */
export const clauseOfCheck = (testInfo: TestInfo): string | null =>
  testInfo.annotations.find((a) => a.type === 'clause')?.description ?? null;

export function beginCheck(testInfo: TestInfo, recorder: Recorder | undefined, strict = false): void {
  running = {
    clause: clauseOfCheck(testInfo),
    recorder,
    evidence: evidenceOfCheck(testInfo),
    strict,
    violations: [],
    assertionWarnings: [],
    violationTexts: new Set(),
    warningTexts: new Set(),
    warnings: [],
    title: testInfo.title,
  };
}

/** What an assertion names beyond its value: its own evidence, the exchange it is about. */
interface Said {
  evidence?: Evidence;
  about?: ExchangeRef;
}

const refOf = (x: unknown): ExchangeRef | undefined => {
  const r = x && typeof x === 'object' ? (x as Cited).exchange : undefined;
  return r && typeof r.n === 'number' && typeof r.line === 'string' ? r : undefined;
};

function lastExchange(): ExchangeRef | undefined {
  const r = running?.recorder;
  const x = r?.exchanges.at(-1);
  return x
    ? { n: r!.exchanges.length, line: `#${r!.exchanges.length} ${x.method} ${x.url} → ${x.error ?? x.status}` }
    : undefined;
}

/** Record a failed assertion: a violation, or (evidence only `inferred`, not `--strict`) an assertion warning. */
function recordViolation(
  e: unknown,
  message: string | undefined,
  actual: unknown,
  said: Said,
): 'violation' | 'warning' {
  if (!running) return 'violation';
  const err = e as Error & { matcherResult?: { expected?: unknown; actual?: unknown } };
  const text = stripAnsi(String(err?.message ?? e));
  const evidence = said.evidence ??
    running.evidence ?? {
      class: 'inferred',
      cite: 'no evidence named (a harness bug: the evidence test should have caught it)',
    };
  const warning = !failsTarget(evidence) && !running.strict;
  (warning ? running.warningTexts : running.violationTexts).add(
    `${err?.name ?? 'Error'}: ${err?.message ?? String(e)}`,
  );
  const x = said.about ?? refOf(actual) ?? lastExchange();
  (warning ? running.assertionWarnings : running.violations).push({
    clause: running.clause,
    message: redactText(message ?? text.split('\n')[0]!),
    expected: show(err?.matcherResult?.expected),
    seen: show(err?.matcherResult?.actual),
    exchange: x?.line,
    curl: x && running.recorder?.curlAt(x.n),
    evidence: { class: evidence.class, cite: evidence.cite, ...(evidence.owed ? { owed: true } : {}) },
  });
  return warning ? 'warning' : 'violation';
}

type Path = (string | symbol)[];

/** Matchers whose failures become violations; `soft` ones are then reported through Playwright's own soft expect. */
function wrapMatchers(
  matchers: object,
  actual: unknown,
  message: string | undefined,
  soft: boolean,
  said: Said,
  path: Path = [],
): object {
  return new Proxy(matchers, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'not' || prop === 'resolves' || prop === 'rejects')
        return wrapMatchers(value as object, actual, message, soft, said, [...path, prop]);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const failed = (e: unknown) => {
          const kind = recordViolation(e, message, actual, said);
          if (!soft) throw e;
          if (kind === 'warning') return undefined; // a warning is not Playwright's failure
          // Playwright shows the soft failure as its own (diff and location); the check goes on.
          let m = pwExpect.soft(actual, message) as unknown as Record<string | symbol, unknown>;
          for (const p of path) m = m[p] as Record<string | symbol, unknown>;
          try {
            return (m[prop] as (...a: unknown[]) => unknown)(...args);
          } catch {
            return undefined;
          }
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

type PwExpect = typeof pwExpect;
/** `expect.because(evidence)`: this assertion's own evidence; `expect.about(reply)`: the exchange it is about. Chainable. */
interface Naming {
  because(evidence: Evidence): Expect;
  about(x: Cited): Expect;
}
type Expect = PwExpect & Naming;

function bound(said: Said): Expect {
  const hard = (actual: unknown, message?: string) =>
    wrapMatchers(pwExpect(actual, message), actual, message, false, said);
  const soft = (actual: unknown, message?: string) =>
    wrapMatchers(pwExpect(actual, message), actual, message, true, said);
  const naming: Naming = {
    because: (evidence) => bound({ ...said, evidence }),
    about: (x) => bound({ ...said, about: refOf(x) ?? said.about }),
  };
  return Object.assign(hard, { soft }, naming) as unknown as Expect;
}

/** Playwright's `expect` and `expect.soft`, whose failures are violations (or assertion warnings) of the running check's clause. */
export const expect: Expect = bound({});

/** Whether the running check has recorded an assertion warning (its transcript is then kept as a failure's). */
export const hasAssertionWarnings = (): boolean => !!running?.assertionWarnings.length;

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
  const r = running ?? {
    violations: [],
    assertionWarnings: [],
    violationTexts: new Set<string>(),
    warningTexts: new Set<string>(),
    warnings: [],
  };
  running = undefined;
  const errors: CheckError[] = [];
  let stopped = false;
  for (const e of testInfo.errors) {
    const text = e.message ?? e.value ?? '';
    if (r.violationTexts.has(text)) continue;
    if (r.warningTexts.has(text)) {
      stopped = true;
      continue;
    }
    const message = redactText(stripAnsi(text));
    const kind = undecidedKindOf(text);
    if (kind) errors.push({ cause: kind, message: message.replace(/^Undecided: /, '') });
    else if (/^(\w*Error: )?Test timeout of \d+ms exceeded/.test(message))
      errors.push({ cause: 'timeout', message }); // Playwright's own words: the status stays 'failed' after a soft violation
    else errors.push({ cause: HARNESS_BUG.test(text) ? 'harness-bug' : 'harness', message });
  }
  if (testInfo.status === 'timedOut' && !errors.some((e) => e.cause === 'timeout'))
    errors.push({ cause: 'timeout', message: `the check ran out of time (${testInfo.timeout} ms)` });
  if (testInfo.status === 'interrupted') errors.push({ cause: 'interrupted', message: 'the run was interrupted' });
  // A hard assertion warning stops the check with Playwright's status `failed`: that is a pass with a warning.
  const outcome = r.violations.length
    ? 'fail'
    : errors.length || (testInfo.status === 'failed' && !stopped)
      ? 'error'
      : testInfo.status === 'skipped'
        ? 'skip'
        : 'pass';
  if (outcome === 'error' && errors.length === 0)
    errors.push({ cause: 'harness', message: 'the check failed without an error the harness could read' });
  return { outcome, violations: r.violations, errors, warnings: r.warnings, assertionWarnings: r.assertionWarnings };
}

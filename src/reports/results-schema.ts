/** `results.json`: the machine-readable outcome of a run. Versioned; its JSON Schema is exported beside it. */
import { z } from 'zod';
import { AssertionWarning, CheckError, EvidenceRecord, OUTCOMES, StateWarning, Violation } from '../harness/outcome.js';

export const RESULTS_SCHEMA_VERSION = 2;
const CLAUSE_OUTCOMES = [...OUTCOMES, 'not covered'] as const;

export const TestResult = z.object({
  title: z.string(),
  /** Playwright's test id: the HTML report's page of the check is `playwright/index.html#?testId=<id>`. */
  id: z.string().optional(),
  clause: z.string().nullable(),
  /** `spec` when the check's default evidence is the specification, else `compat` (kept for readers of schema 2; see `evidence`). */
  basis: z.enum(['spec', 'compat']).nullable(),
  /** The check's default evidence (an assertion may name its own: see each violation's and warning's `evidence`). */
  evidence: EvidenceRecord.nullable().optional(),
  family: z.string().nullable(),
  project: z.string(),
  file: z.string(),
  outcome: z.enum(OUTCOMES).describe('pass; fail (the target broke an assertion about it: see violations); skip (does not apply, reason in message); error (the harness could not decide: see errors)'),
  durationMs: z.number(),
  /** One readable line or a few: the violations (fail), the causes (error), the reason (skip). Redacted. */
  message: z.string().optional(),
  /** error: the first error's cause (`timeout-headers`, `fixture`, `harness-bug`, `no-outcome`, `vacuous-pass`, …). */
  cause: z.string().optional(),
  violations: z.array(Violation).optional(),
  /** Violated assertions whose evidence is only inferred: warnings, not failures (unless --strict, when they are violations). */
  assertionWarnings: z.array(AssertionWarning).optional(),
  errors: z.array(CheckError).optional(),
  /** Calls made and calls refused unasked (401/403/429/5xx). */
  calls: z.number().int().optional(),
  refused: z.number().int().optional(),
  /** A check that failed or errored: its exchanges as a HAR 1.2 file, relative to the report folder (redacted). */
  har: z.string().optional(),
  /** Set by the runner when a baseline forgives this failure: the entry that does. */
  baseline: z.string().optional(),
});

const ClauseResult = z.object({
  id: z.string(),
  family: z.string(),
  text: z.string(),
  source: z.string(),
  outcome: z.enum(CLAUSE_OUTCOMES).describe('the worst outcome of its checks (fail, error, pass, skip); not covered when no check ran'),
  tests: z.object({ pass: z.number(), fail: z.number(), skip: z.number(), error: z.number() }),
  /** Assertion warnings of its checks. */
  assertionWarnings: z.number().int().default(0),
  /** Filled by the runner when a baseline is given. */
  baseline: z.enum(['known failure', 'new failure', 'fixed']).optional(),
});

/** Something that kept the run from judging all it was asked to: the run exits 2. */
export const RunError = z.object({ reason: z.string(), phase: z.string().optional() });

export const Results = z.object({
  schemaVersion: z.literal(RESULTS_SCHEMA_VERSION).describe('bumped on any incompatible change'),
  /** The judge: harness version, the specification revision it carries, the hash of its clause table. */
  tool: z.object({ name: z.string(), version: z.string(), specRevision: z.string(), clauseTableHash: z.string() }),
  run: z.object({
    id: z.string().optional(),
    target: z.string().optional(),
    edition: z.string().optional(),
    apiVersion: z.string().optional(),
    embedded: z.boolean().optional(),
    /** `--strict`: assertion warnings fail their checks. */
    strict: z.boolean().optional(),
    /** An https target: whether its certificate was verified, and against what (--ca-file, --insecure). */
    tls: z.string().optional(),
    /** The clauses the selection asked for (`--clauses`, or all). */
    selected: z.array(z.string()).optional(),
    /** The rate limits the target was held to, and where they came from. */
    limits: z.object({ source: z.string(), values: z.record(z.string(), z.number().nullable()) }).optional(),
    /** The options `conformance replay` runs the checks again with (seed, selection, what the target was held to; no credential). */
    options: z.record(z.string(), z.unknown()).optional(),
    startedAt: z.string(),
    durationMs: z.number(),
  }),
  totals: z.object({ pass: z.number(), fail: z.number(), skip: z.number(), error: z.number(), tests: z.number(), assertionWarnings: z.number().int().default(0).describe('violated assertions whose evidence is only inferred: warnings, not failures (--strict makes them fail)') }),
  /** Empty when the run judged everything it was asked to. */
  runErrors: z.array(RunError).default([]),
  /** State the run could not put back (a failed restore); `accountChanged` ones make the run exit 2. */
  warnings: z.array(StateWarning).default([]),
  clauses: z.array(ClauseResult),
  tests: z.array(TestResult),
  /** The one verdict every report states (set by the runner): the exit code and its words. */
  verdict: z.object({ exitCode: z.number().int(), text: z.string() }).optional(),
  /** Set by the runner when a baseline is given. */
  baseline: z.object({
    /** Clauses: known (all their failures forgiven), new (a failure no entry forgives), fixed (listed and now passing). */
    file: z.string(), known: z.array(z.string()), new: z.array(z.string()), fixed: z.array(z.string()),
    /** Entries whose check or clause ran and passed: the run fails unless --allow-stale-baseline. */
    stale: z.array(z.string()).default([]),
    /** Titles of the failing checks no entry forgives. */
    newChecks: z.array(z.string()).default([]),
    /** Every entry: a check (title) or a clause, how many failures it forgave, and whether it still holds. */
    entries: z.array(z.object({ entry: z.string(), kind: z.enum(['check', 'clause']), forgives: z.number().int(), status: z.enum(['known', 'stale', 'not decided']) })).default([]),
    /** The harness version the baseline was written with; clauses renamed or split since then (old → new). */
    harnessVersion: z.string().optional(),
    mapped: z.record(z.string(), z.array(z.string())).optional(),
    /** What the harness gained since that version: clauses, and checks (when the baseline lists the checks it knew). */
    newSince: z.object({ clauses: z.array(z.string()), checks: z.array(z.string()).optional() }).optional(),
  }).optional(),
});
export type Results = z.output<typeof Results>;
export type TestResultT = z.output<typeof TestResult>;
export type RunError = z.output<typeof RunError>;

export function resultsJsonSchema(): unknown {
  return { title: 'conformance results.json', ...z.toJSONSchema(Results, { target: 'draft-2020-12' }) };
}

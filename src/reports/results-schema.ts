/** `results.json`: the machine-readable outcome of a run. Versioned; its JSON Schema is exported beside it. */
import { z } from 'zod';

export const RESULTS_SCHEMA_VERSION = 1;
export const OUTCOMES = ['pass', 'fail', 'skip', 'error'] as const;
export const CLAUSE_OUTCOMES = [...OUTCOMES, 'not covered'] as const;

export const TestResult = z.object({
  title: z.string(),
  clause: z.string().nullable(),
  basis: z.enum(['spec', 'compat']).nullable(),
  family: z.string().nullable(),
  project: z.string(),
  file: z.string(),
  outcome: z.enum(OUTCOMES).describe('pass; fail (the target breaks the clause); skip (does not apply, reason in message); error (the harness could not decide)'),
  durationMs: z.number(),
  /** Why it failed, errored or was skipped (redacted). */
  message: z.string().optional(),
  /** Calls made and calls refused unasked (401/403/429/5xx). */
  calls: z.number().int().optional(),
  refused: z.number().int().optional(),
});

export const ClauseResult = z.object({
  id: z.string(),
  family: z.string(),
  text: z.string(),
  source: z.string(),
  outcome: z.enum(CLAUSE_OUTCOMES).describe('the worst outcome of its checks (fail, error, pass, skip); not covered when no check ran'),
  tests: z.object({ pass: z.number(), fail: z.number(), skip: z.number(), error: z.number() }),
  /** Filled by the runner when a baseline is given. */
  baseline: z.enum(['known failure', 'new failure', 'fixed']).optional(),
});

export const Results = z.object({
  schemaVersion: z.literal(RESULTS_SCHEMA_VERSION).describe('bumped on any incompatible change'),
  tool: z.object({ name: z.string(), version: z.string() }),
  run: z.object({
    id: z.string().optional(),
    target: z.string().optional(),
    edition: z.string().optional(),
    apiVersion: z.string().optional(),
    embedded: z.boolean().optional(),
    startedAt: z.string(),
    durationMs: z.number(),
  }),
  totals: z.object({ pass: z.number(), fail: z.number(), skip: z.number(), error: z.number(), tests: z.number() }),
  clauses: z.array(ClauseResult),
  tests: z.array(TestResult),
  /** Set by the runner when a baseline is given. */
  baseline: z.object({ file: z.string(), known: z.array(z.string()), new: z.array(z.string()), fixed: z.array(z.string()) }).optional(),
});
export type Results = z.output<typeof Results>;
export type TestResultT = z.output<typeof TestResult>;

export function resultsJsonSchema(): unknown {
  return { title: 'conformance results.json', ...z.toJSONSchema(Results, { target: 'draft-2020-12' }) };
}

/**
 * Baselines: the clauses an implementation is known to fail. Known failures are reported as
 * known; new failures fail the run; fixed ones are listed so the baseline can shrink.
 * File: `{"implementation": "...", "expected_failures": {"SHAPE-2": "reason", ...}}`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isClauseId } from '../spec/index.js';
import type { Results } from '../reports/results-schema.js';

export const BaselineFile = z.strictObject({
  implementation: z.string().optional(),
  expected_failures: z.record(z.string().refine(isClauseId, 'a clause ID of clauses.md'), z.string()),
});

export function readBaseline(file: string): z.output<typeof BaselineFile> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`baseline ${file}: ${(e as Error).message}`);
  }
  const r = BaselineFile.safeParse(raw);
  if (!r.success) throw new Error(`baseline ${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

/** Mark clauses known/new/fixed; returns the clauses that fail the run. */
export function applyBaseline(results: Results, file: string): string[] {
  const expected = readBaseline(file).expected_failures;
  const known: string[] = [];
  const fresh: string[] = [];
  const fixed: string[] = [];
  for (const c of results.clauses) {
    const listed = c.id in expected;
    if (c.outcome === 'fail' && listed) { c.baseline = 'known failure'; known.push(c.id); }
    else if (c.outcome === 'fail') { c.baseline = 'new failure'; fresh.push(c.id); }
    else if (listed && c.outcome === 'pass') { c.baseline = 'fixed'; fixed.push(c.id); }
  }
  results.baseline = { file, known, new: fresh, fixed };
  return fresh;
}

/**
 * Baselines: the clauses an implementation is known to fail. Known failures are reported as
 * known; new failures fail the run; fixed ones are listed so the baseline can shrink.
 * File: `{"implementation": "...", "harness_version": "0.2.0", "expected_failures": {"SHAPE-2": "reason"}, "checks": ["title", …]}`.
 * A baseline written by an older harness still works: its clauses are mapped through the
 * clause history (renamed or split clauses), and what is new since its version — clauses,
 * and checks when it lists the checks it knew — is named in the report.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { readJsonFile } from '../common/json-file.js';
import { clausesAddedSince, compareHarnessVersions, HARNESS_RELEASES, mapClause, type HarnessRelease } from '../spec/clause-history.js';
import { identity } from '../spec/identity.js';
import { isClauseId } from '../spec/index.js';
import type { Results } from '../reports/results-schema.js';

/** Baselines written before versions were recorded are taken as the first release's. */
const FIRST = HARNESS_RELEASES[0]!.version;

const BaselineFile = z.strictObject({
  implementation: z.string().optional(),
  harness_version: z.string().regex(/^\d+(\.\d+)*$/, 'a harness version such as 0.2.0').optional(),
  clause_table: z.string().optional(),
  expected_failures: z.record(z.string(), z.string()),
  /** The checks the harness had when the baseline was written (titles): later ones are new. */
  checks: z.array(z.string()).optional(),
});
type BaselineFile = z.output<typeof BaselineFile>;

interface Baseline {
  file: string;
  version: string;
  /** Expected failures as the current clause table names them. */
  expected: Record<string, string>;
  /** Old clause ID → current IDs, where the history renamed or split one. */
  mapped: Record<string, string[]>;
  checks?: readonly string[];
}

export function readBaseline(file: string, history: readonly HarnessRelease[] = HARNESS_RELEASES): Baseline {
  const raw = readJsonFile(file, BaselineFile, 'baseline');
  const version = raw.harness_version ?? FIRST;
  const current = identity().version;
  if (compareHarnessVersions(version, current) > 0) throw new Error(`baseline ${file}: written by harness ${version}, newer than this one (${current}): upgrade the harness`);
  const expected: Record<string, string> = {};
  const mapped: Record<string, string[]> = {};
  for (const [id, reason] of Object.entries(raw.expected_failures)) {
    const now = mapClause(id, version, current, history);
    if (now.length !== 1 || now[0] !== id) mapped[id] = now;
    for (const n of now) {
      if (!isClauseId(n)) throw new Error(`baseline ${file}: expected_failures.${id}: not a clause ID of harness ${version} (clauses.md, clauses-extended.md)`);
      expected[n] = reason;
    }
  }
  return { file, version, expected, mapped, checks: raw.checks };
}

/** Mark clauses known/new/fixed and name what is new since the baseline; returns the clauses that fail the run. */
export function applyBaseline(results: Results, baseline: Baseline, history: readonly HarnessRelease[] = HARNESS_RELEASES): string[] {
  const known: string[] = [];
  const fresh: string[] = [];
  const fixed: string[] = [];
  for (const c of results.clauses) {
    const listed = c.id in baseline.expected;
    if (c.outcome === 'fail' && listed) { c.baseline = 'known failure'; known.push(c.id); }
    else if (c.outcome === 'fail') { c.baseline = 'new failure'; fresh.push(c.id); }
    else if (listed && c.outcome === 'pass') { c.baseline = 'fixed'; fixed.push(c.id); }
  }
  const current = identity().version;
  const newClauses = clausesAddedSince(baseline.version, current, history);
  const knownChecks = baseline.checks ? new Set(baseline.checks) : undefined;
  results.baseline = {
    file: baseline.file, known, new: fresh, fixed,
    harnessVersion: baseline.version,
    mapped: baseline.mapped,
    newSince: {
      clauses: newClauses,
      checks: knownChecks ? results.tests.filter((t) => !knownChecks.has(t.title)).map((t) => t.title) : undefined,
    },
  };
  return fresh;
}

/** `--write-baseline`: this run's failing clauses as expected failures, with the harness version and the checks it ran. */
export function writeBaseline(file: string, results: Results, implementation?: string): void {
  const expected: Record<string, string> = {};
  for (const c of results.clauses.filter((x) => x.outcome === 'fail')) {
    const first = results.tests.find((t) => t.clause === c.id && t.outcome === 'fail');
    expected[c.id] = first?.message?.split('\n')[0]?.slice(0, 200) ?? 'fails';
  }
  const out: BaselineFile = {
    ...(implementation ? { implementation } : {}),
    harness_version: identity().version,
    clause_table: identity().clauseTableHash,
    expected_failures: expected,
    checks: results.tests.map((t) => t.title),
  };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
}

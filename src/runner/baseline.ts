/**
 * Baselines: the checks an implementation is known to fail. An entry names a check (its
 * title, which starts with its clause ID) or a whole clause (it forgives every failing check
 * of that clause, and says how many). Known failures are reported as known; new failures fail
 * the run; an entry that now passes is stale and fails the run too (unless
 * `--allow-stale-baseline`), so a baseline only shrinks and never hides the next regression.
 * File: `{"implementation": "...", "harness_version": "0.2.0", "expected_failures": {"SHAPE-2": "reason", "SHAPE-1 a text column …": "reason"}, "checks": ["title", …]}`.
 * A baseline written by an older harness still works: its clauses are mapped through the
 * clause history (renamed or split clauses), and what is new since its version — clauses,
 * and checks when it lists the checks it knew — is named in the report.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { readJsonFile } from '../common/json-file.js';
import {
  clausesAddedSince,
  compareHarnessVersions,
  HARNESS_RELEASES,
  mapClause,
  type HarnessRelease,
} from '../spec/clause-history.js';
import { identity } from '../spec/identity.js';
import { isClauseId } from '../spec/index.js';
import type { Results } from '../reports/results-schema.js';

/** Baselines written before versions were recorded are taken as the first release's. */
const FIRST = HARNESS_RELEASES[0]!.version;
/** A check entry: a check's title, which starts with its clause ID and goes on with words. */
const CHECK_ENTRY = /^([A-Z]+-\d+)\s+\S/;

const BaselineFile = z.strictObject({
  implementation: z.string().optional(),
  harness_version: z
    .string()
    .regex(/^\d+(\.\d+)*$/, 'a harness version such as 0.2.0')
    .optional(),
  clause_table: z.string().optional(),
  expected_failures: z.record(z.string(), z.string()),
  /** The checks the harness had when the baseline was written (titles): later ones are new. */
  checks: z.array(z.string()).optional(),
});
type BaselineFile = z.output<typeof BaselineFile>;

interface Baseline {
  file: string;
  version: string;
  /** Clause entries, as the current clause table names them. */
  expected: Record<string, string>;
  /** Check entries: title → reason. */
  expectedChecks: Record<string, string>;
  /** Old clause ID → current IDs, where the history renamed or split one. */
  mapped: Record<string, string[]>;
  checks?: readonly string[];
}

export function readBaseline(file: string, history: readonly HarnessRelease[] = HARNESS_RELEASES): Baseline {
  const raw = readJsonFile(file, BaselineFile, 'baseline');
  const version = raw.harness_version ?? FIRST;
  const current = identity().version;
  if (compareHarnessVersions(version, current) > 0)
    throw new Error(
      `baseline ${file}: written by harness ${version}, newer than this one (${current}): upgrade the harness`,
    );
  const expected: Record<string, string> = {};
  const expectedChecks: Record<string, string> = {};
  const mapped: Record<string, string[]> = {};
  for (const [id, reason] of Object.entries(raw.expected_failures)) {
    const check = CHECK_ENTRY.exec(id);
    if (check) {
      if (!isClauseId(check[1]!) && mapClause(check[1]!, version, current, history).every((n) => !isClauseId(n)))
        throw new Error(
          `baseline ${file}: expected_failures."${id}": its clause ${check[1]} is not a clause ID of harness ${version}`,
        );
      expectedChecks[id] = reason;
      continue;
    }
    const now = mapClause(id, version, current, history);
    if (now.length !== 1 || now[0] !== id) mapped[id] = now;
    for (const n of now) {
      if (!isClauseId(n))
        throw new Error(
          `baseline ${file}: expected_failures.${id}: not a clause ID of harness ${version} (clauses.md, clauses-extended.md)`,
        );
      expected[n] = reason;
    }
  }
  return { file, version, expected, expectedChecks, mapped, checks: raw.checks };
}

/** What a baseline says of a run: which failures fail it (new), which entries are stale. */
interface BaselineVerdict {
  newFailures: string[];
  stale: string[];
}

/**
 * Mark each failing check known (the entry that forgives it) or new, each clause known / new /
 * fixed, and each entry known, stale (its check or clause ran and passed) or not run.
 */
export function applyBaseline(
  results: Results,
  baseline: Baseline,
  history: readonly HarnessRelease[] = HARNESS_RELEASES,
): BaselineVerdict {
  const forgiven = new Map<string, number>();
  const newChecks: string[] = [];
  for (const t of results.tests) {
    if (t.outcome !== 'fail') continue;
    const entry =
      t.title in baseline.expectedChecks ? t.title : t.clause && t.clause in baseline.expected ? t.clause : undefined;
    if (entry === undefined) {
      newChecks.push(t.title);
      continue;
    }
    t.baseline = `${entry === t.title ? 'check entry' : `clause entry ${entry}`}: ${baseline.expectedChecks[entry] ?? baseline.expected[entry]}`;
    forgiven.set(entry, (forgiven.get(entry) ?? 0) + 1);
  }
  const known: string[] = [];
  const fresh: string[] = [];
  const fixed: string[] = [];
  for (const c of results.clauses) {
    const failing = results.tests.filter((t) => t.clause === c.id && t.outcome === 'fail');
    const listed =
      c.id in baseline.expected || Object.keys(baseline.expectedChecks).some((e) => e.startsWith(`${c.id} `));
    if (failing.some((t) => !t.baseline)) {
      c.baseline = 'new failure';
      fresh.push(c.id);
    } else if (failing.length) {
      c.baseline = 'known failure';
      known.push(c.id);
    } else if (listed && c.outcome === 'pass') {
      c.baseline = 'fixed';
      fixed.push(c.id);
    }
  }
  const entries: NonNullable<Results['baseline']>['entries'] = [];
  for (const id of Object.keys(baseline.expected)) {
    const c = results.clauses.find((x) => x.id === id);
    const ran = c && c.outcome !== 'not covered';
    entries.push({
      entry: id,
      kind: 'clause',
      forgives: forgiven.get(id) ?? 0,
      status: forgiven.get(id) ? 'known' : ran && c.outcome === 'pass' ? 'stale' : 'not decided',
    });
  }
  for (const title of Object.keys(baseline.expectedChecks)) {
    const t = results.tests.find((x) => x.title === title);
    entries.push({
      entry: title,
      kind: 'check',
      forgives: forgiven.get(title) ?? 0,
      status: forgiven.get(title) ? 'known' : t?.outcome === 'pass' ? 'stale' : 'not decided',
    });
  }
  const stale = entries.filter((e) => e.status === 'stale').map((e) => e.entry);
  const current = identity().version;
  const newClauses = clausesAddedSince(baseline.version, current, history);
  const knownChecks = baseline.checks ? new Set(baseline.checks) : undefined;
  results.baseline = {
    file: baseline.file,
    known,
    new: fresh,
    fixed,
    stale,
    newChecks,
    entries,
    harnessVersion: baseline.version,
    mapped: baseline.mapped,
    newSince: {
      clauses: newClauses,
      checks: knownChecks ? results.tests.filter((t) => !knownChecks.has(t.title)).map((t) => t.title) : undefined,
    },
  };
  return { newFailures: newChecks, stale };
}

/** The entries a new baseline holds: each failing check by title, its reason its first violation. */
function entriesOf(results: Results): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of results.tests.filter((x) => x.outcome === 'fail'))
    out[t.title] = t.message?.split('\n')[0]?.slice(0, 200) ?? 'fails';
  return out;
}

/**
 * `--write-baseline`: this run's failing checks as expected failures, with the harness version
 * and the checks it ran. Over an existing baseline it only removes entries — stale ones — and
 * never adds a new failure silently, unless `update` (`--update-baseline`). Returns what changed.
 */
export function writeBaseline(
  file: string,
  results: Results,
  update = false,
  implementation?: string,
): { added: string[]; removed: string[]; refused: string[] } {
  const now = entriesOf(results);
  let expected = now;
  let old: BaselineFile | undefined;
  const change = { added: [] as string[], removed: [] as string[], refused: [] as string[] };
  if (existsSync(file)) {
    old = readJsonFile(file, BaselineFile, 'baseline');
    const stale = new Set(results.baseline?.file === file ? results.baseline.stale : []);
    // Without a --baseline of this file, an entry is stale when its check (or clause) ran and passed.
    for (const [id] of Object.entries(old.expected_failures)) {
      if (results.baseline?.file === file) continue;
      const t = results.tests.find((x) => x.title === id);
      const c = results.clauses.find((x) => x.id === id);
      if (t?.outcome === 'pass' || c?.outcome === 'pass') stale.add(id);
    }
    const kept = Object.fromEntries(Object.entries(old.expected_failures).filter(([id]) => !stale.has(id)));
    change.removed = Object.keys(old.expected_failures).filter((id) => stale.has(id));
    const coveredBy = (title: string) =>
      title in kept || Object.keys(kept).some((id) => !CHECK_ENTRY.test(id) && title.startsWith(`${id} `));
    const fresh = Object.keys(now).filter((title) => !coveredBy(title));
    if (update) {
      expected = { ...kept, ...Object.fromEntries(fresh.map((t) => [t, now[t]!])) };
      change.added = fresh;
    } else {
      expected = kept;
      change.refused = fresh;
    }
  } else {
    change.added = Object.keys(now);
  }
  const out: BaselineFile = {
    ...((implementation ?? old?.implementation) ? { implementation: implementation ?? old?.implementation } : {}),
    harness_version: identity().version,
    clause_table: identity().clauseTableHash,
    expected_failures: expected,
    checks: results.tests.map((t) => t.title),
  };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  return change;
}

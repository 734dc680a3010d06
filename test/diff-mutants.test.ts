/**
 * `conformance diff` sees the mutants: a fixed set across the catalog's families, each the
 * reference server against the reference server with the mutant's faults, in one process and
 * side by side, each limited to the sequence and operations where its fault lives. Every one
 * must diverge at its operation; the whole catalog was checked once with scripts/diff-catalog.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { diff, diffDone } from '../src/diff/diff.js';
import type { Sequence } from '../src/diff/sequences.js';
import { pooled } from '../src/harness/answers/index.js';
import { MUTANTS } from '../src/mutants/catalog.js';

/** Mutant id → the sequence (and operations) that reach its fault, and the ref the divergence must be at (a prefix). */
const CASES: [string, Sequence, RegExp | undefined, string][] = [
  ['delete-missing-404', 'values', undefined, 'values/delete-missing'],
  ['plugins-count-missing', 'probe', /^pluginsInstallCount$/, 'probe/pluginsInstallCount/authorised'],
  ['ping-needs-auth', 'probe', /^ping$/, 'probe/ping/authorised'],
  ['auth-token-wrong-field', 'answers', /^authToken$/, 'answers/authToken'],
  ['base-token-names-dtable-server', 'answers', /^appAccessToken$/, 'answers/appAccessToken'],
  ['links-as-string', 'answers', /^listRows$/, 'answers/listRows'],
  ['scripts-total-on-6.2', 'answers', /^getTeamInfo$/, 'answers/getTeamInfo'],
  ['create-view-unlimited', 'answers', /^createView$/, 'answers/createView'],
  ['external-link-token-stub', 'removed', undefined, 'removed/GONE-1/'],
  ['malformed-json-500', 'refusals', undefined, 'refusals/broken-json'],
  ['wrong-type-500', 'refusals', undefined, 'refusals/table-name-number'],
  ['sql-params-as-text', 'refusals', undefined, 'refusals/sql-number-parameter'],
  ['append-1001', 'caps', undefined, 'caps/append-1001'],
  ['view-sorts-ignored', 'structure', undefined, 'structure/rows-by-view'],
  ['query-select-names', 'structure', undefined, 'structure/sql-by-keys'],
  ['comment-count-zero', 'records', undefined, 'records/comments-count'],
  ['api-token-permission-ignored', 'account', undefined, 'account/tokens/write-with-read-only-token'],
];

test(`a diff against the reference server with a mutant diverges at the mutant's operation (${CASES.length} mutants)`, async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'cf-diff-mutants-'));
  try {
    const seen = await pooled(CASES, 4, async ([id, sequence, operations, at]) => {
      const m = MUTANTS.find((x) => x.id === id);
      if (!m) return `${id}: not in the catalog`;
      const r = await diff({
        reportDir: join(dir, id),
        sequences: [sequence],
        operations,
        againstFaults: m.faults,
        apiVersion: m.serverOptions?.apiVersion,
        edition: m.serverOptions?.edition,
      });
      const where = r.results.filter((x) => x.verdict === 'diverged').map((x) => x.ref);
      return where.some((ref) => ref.startsWith(at)) && r.exitCode === 1
        ? `${id}: ok`
        : `${id}: diverged at ${JSON.stringify(where)}, exit ${r.exitCode}`;
    });
    expect(seen).toEqual(CASES.map(([id]) => `${id}: ok`));
    expect(
      new Set(MUTANTS.filter((m) => CASES.some(([id]) => id === m.id)).map((m) => m.clause.split('-')[0])).size,
      'families covered',
    ).toBeGreaterThanOrEqual(11);
  } finally {
    await diffDone();
    rmSync(dir, { recursive: true, force: true });
  }
});

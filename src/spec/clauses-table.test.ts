/**
 * docs/clauses.md is what scripts/clauses-table.ts renders now, and every assertion that can
 * fail a target names its evidence (its own or its check's): issue 22.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CLAUSES_FILE, clausesDoc, evidenceCounts, clausesOf } from '../../scripts/clauses-table.js';
import { EvidenceScan } from '../../scripts/evidence-scan.js';

test('docs/clauses.md is current; every assertion of every check names its evidence; every check names its clause', () => {
  const { checks, markdown } = clausesDoc();
  const missing = checks.flatMap((c) => c.assertions.filter((a) => a.evidence.kind === 'missing').map((a) => `${a.at} (check ${c.at})`));
  expect(missing, 'assertions without evidence: give the check a default (clause(id, title, ev.…)) or the assertion its own (expect.because(ev.…))').toEqual([]);
  expect(checks.filter((c) => !clausesOf(c).length).map((c) => c.at), 'checks whose clause the table cannot tell (add it to COMPUTED in scripts/clauses-table.ts)').toEqual([]);
  expect(checks.length).toBeGreaterThan(100);
  expect(evidenceCounts(checks).spec).toBeGreaterThan(100);
  expect(readFileSync(CLAUSES_FILE, 'utf8'), 'docs/clauses.md is stale: run `npx tsx scripts/clauses-table.ts`').toBe(markdown);
});

test('the evidence test finds an assertion that names no evidence, and takes one that does', () => {
  const [check] = new EvidenceScan([join(import.meta.dirname, '..', '..', 'test', 'suites', 'evidence', 'missing.spec.ts')]).checks();
  expect(check?.evidence.kind).toBe('missing');
  expect(check!.assertions.map((a) => [a.says, a.evidence.kind === 'literal' ? `${a.evidence.class} ${a.evidence.cite}` : a.evidence.kind])).toEqual([
    ['named: /ping/ answers', 'spec §1'],
    ['unnamed: /ping/ says pong', 'missing'],
  ]);
});

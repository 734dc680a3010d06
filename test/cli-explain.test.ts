/** `conformance explain CLAUSE`, black box: the clause's text, source and evidence, its checks as a run names them, what a failure means, how to run just it. */
import { expect, test } from '@playwright/test';
import { clause } from '../src/spec/index.js';
import { cli } from './helpers/cli.js';

test('explain ROUTE-4: text, source, evidence, each check with what its failure means, and the command for just that clause', async () => {
  const r = await cli(['explain', 'route-4'], { exclusive: false });
  expect(r.code, r.output).toBe(0);
  expect(r.stdout).toContain(clause('ROUTE-4').text);
  expect(r.stdout).toMatch(/^source: §1 of spec\/base-data-api\.md/m);
  expect(r.stdout).toMatch(/^evidence of its checks: documented/m);
  expect(r.stdout).toMatch(/^checks \(2\):$/m);
  expect(r.stdout).toMatch(
    /^ {2}- ROUTE-4 \/ping\/ and \/server-info\/ answer without credentials\n {6}evidence: documented: OA43 ping_and_info\.yaml.*\n {6}a failure means: the implementation differs from the real service's documented API — it does not hold that \/ping\/ and/m,
  );
  expect(r.stdout).toMatch(/^a failure of ROUTE usually means: /m);
  expect(r.stdout).toMatch(/^ {2}conformance run --target-file target\.json --clauses ROUTE-4$/m);
});

test('explain of an unknown clause: exit 2 naming the clauses of its family', async () => {
  const r = await cli(['explain', 'SHAPE-99'], { exclusive: false });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/SHAPE-99: not a clause ID \(the SHAPE clauses: SHAPE-1, SHAPE-2/);
});

/**
 * docs/operations.md is what scripts/operations-table.ts renders now, and every documented
 * operation in scope is served by the reference server and has a route check (issue 11).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { operationRows, OPERATIONS_FILE, renderOperations } from '../../scripts/operations-table.js';

test('docs/operations.md is current, and every documented operation is served and route-checked', async () => {
  const rows = await operationRows();
  expect(rows.filter((r) => !r.served).map((r) => r.ep.id), 'documented operations the reference server does not serve').toEqual([]);
  expect(rows.filter((r) => !r.route.length).map((r) => r.ep.id), 'documented operations no route check covers').toEqual([]);
  expect(readFileSync(OPERATIONS_FILE, 'utf8'), 'docs/operations.md is stale: run `npx tsx scripts/operations-table.ts`').toBe(renderOperations(rows));
});

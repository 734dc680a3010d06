/**
 * Test-only suite (read by src/spec/clauses-table.test.ts, never run): a check without a
 * default evidence whose one assertion names none either — the evidence test must find it.
 */
import { clause, ev, expect, test } from '../../../src/harness/test.js';

test(...clause('ROUTE-4', 'selftest: an assertion without evidence'), async ({ target }) => {
  const r = await target.call({ path: '/ping/', auth: 'none' });
  expect.because(ev.spec('1')).soft(r.status, 'named: /ping/ answers').toBe(200);
  expect.soft(r.text, 'unnamed: /ping/ says pong').toContain('pong');
});

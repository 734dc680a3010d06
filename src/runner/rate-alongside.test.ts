/** The rate family beside the others only in bases no other check is handed. */
import { expect, test } from '@playwright/test';
import { RunState } from '../harness/state.js';
import { FUNCTIONAL_BASES, splitForRate } from './rate-alongside.js';

const uuid = (i: number) => `${String(i).padStart(8, '0')}-0000-0000-0000-000000000000`;
const state = (bases: number) =>
  RunState.parse({
    runId: 'r',
    tablePrefix: 'cf_r_',
    edition: 'self-hosted',
    apiVersion: '6.2',
    target: {
      url: 'http://127.0.0.1:9',
      account_token: 'a'.repeat(40),
      bases: Array.from({ length: bases }, (_, i) => ({ name: `B${i}`, uuid: uuid(i), api_token: `${i}`.repeat(40) })),
    },
    http: { connectMs: 1000, headersMs: 1000, bodyMs: 2000, maxBodyBytes: 1e6 },
    sourceIps: ['127.0.0.2', '127.0.0.3'],
    webhook: { listenHost: '127.0.0.1', listenPort: 0 },
    limits: { source: 'test', values: { account: 1, gateway: 1, 'auth-token': null } },
    fixtures: { types: 'cf_r_types', linked: 'cf_r_linked', refused: {} },
  });

test('with fewer than four bases the rate family runs last: no split', () => {
  for (const n of [1, 2, 3]) expect(splitForRate(state(n)), `${n} bases`).toBeUndefined();
});

test('with four or more, each phase sees only its own bases; the rate phase has no fixture tables (they are in base 0)', () => {
  for (const n of [4, 5, 7]) {
    const s = splitForRate(state(n))!;
    const f = s.functional.target.bases.map((b) => b.uuid);
    const r = s.rate.target.bases.map((b) => b.uuid);
    expect(f).toEqual([uuid(0), uuid(1)].slice(0, FUNCTIONAL_BASES));
    expect(r).toHaveLength(n - FUNCTIONAL_BASES);
    expect(r.filter((u) => f.includes(u))).toEqual([]);
    expect(s.functional.fixtures?.types).toBe('cf_r_types');
    expect(s.rate.fixtures).toBeUndefined();
    expect(RunState.safeParse(s.rate).success && RunState.safeParse(s.functional).success).toBe(true);
  }
});

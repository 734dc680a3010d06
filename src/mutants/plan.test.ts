/**
 * The selftest's pool (plan.ts): at most n runs at once, the first waiting by its order, and
 * runs a running one adds (a clean run's mutants) taken up as soon as it adds them — the
 * other lanes do not wait for every clean run to end.
 */
import { expect, test } from '@playwright/test';
import { pool } from './plan.js';

const tick = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

test('pool: at most n at a time, heaviest first, and what a run adds is taken up before the others end', async () => {
  const started: string[] = [];
  let running = 0;
  let most = 0;
  await pool<{ name: string; ms: number; adds?: { name: string; ms: number }[] }>(
    [
      { name: 'clean-long', ms: 60 },
      {
        name: 'clean-short',
        ms: 5,
        adds: [
          { name: 'b', ms: 5 },
          { name: 'c', ms: 20 },
          { name: 'a', ms: 5 },
        ],
      },
    ],
    2,
    async (item, add) => {
      started.push(item.name);
      most = Math.max(most, ++running);
      await tick(item.ms);
      running--;
      started.push(`${item.name} ended`);
      if (item.adds) add(item.adds);
    },
    (x, y) => y.ms - x.ms || x.name.localeCompare(y.name),
  );
  expect(most).toBe(2);
  // c (the heaviest added) starts while clean-long still runs; a and b follow by name.
  expect(started.filter((s) => !s.endsWith('ended'))).toEqual(['clean-long', 'clean-short', 'c', 'a', 'b']);
  expect(started.indexOf('c')).toBeLessThan(started.indexOf('clean-long ended'));
});

test('pool: an empty list ends at once; an error of a run is the pool’s', async () => {
  await pool([], 3, () => Promise.reject(new Error('never called')));
  await expect(pool([1, 2], 2, (n) => (n === 2 ? Promise.reject(new Error('run 2')) : tick(1)))).rejects.toThrow(
    'run 2',
  );
});

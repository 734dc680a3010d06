/**
 * Test-only suite (test/cli-rate-alongside.test.ts): the rate side of a run whose rate family
 * runs beside the others in one Playwright process. Its workers load the rate family's state
 * (its own bases, no fixture tables), and `othersDone` returns only once every functional
 * check has ended (each left its mark).
 */
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { clause, expect, test, ev } from '../../../src/harness/test.js';
import { othersDone } from '../../../src/harness/rate-checks.js';
import { harnessEnv } from '../../../src/common/harness-env.js';

test(...clause('RATE-1', 'alongside: rate state', ev.spec('8')), ({ state }) => {
  expect(state.fixtures).toBeUndefined();
  expect(state.fixturesProblem).toMatch(/beside the others/);
});

test(...clause('RATE-1', 'alongside: rate waits for the others', ev.spec('8')), async () => {
  const done = await Promise.race([othersDone().then(() => true), sleep(30_000).then(() => false)]);
  expect(done, 'othersDone() did not return within 30 s').toBe(true);
  const marks = readdirSync(harnessEnv('workDir')!).filter((f) => f.startsWith('alongside-done-'));
  expect(marks, 'every functional check had ended').toHaveLength(3);
});

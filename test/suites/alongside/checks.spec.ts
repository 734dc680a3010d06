/**
 * Test-only suite (test/cli-rate-alongside.test.ts): the functional side of a run whose rate
 * family runs beside the others in one Playwright process. Each check takes a moment, then
 * leaves a mark in the run's work folder that the rate side looks for once told they are done.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clause, expect, test, ev } from '../../../src/harness/test.js';
import { harnessEnv } from '../../../src/common/harness-env.js';

for (const n of [1, 2, 3])
  test(...clause('ROUTE-4', `alongside: functional ${n}`, ev.spec('1')), async ({ state }, testInfo) => {
    // The functional state: the first two bases, and the fixture tables.
    expect(state.target.bases).toHaveLength(2);
    expect(state.fixtures).toBeDefined();
    await sleep(700 * n);
    writeFileSync(join(harnessEnv('workDir')!, `alongside-done-${testInfo.testId}`), '');
  });

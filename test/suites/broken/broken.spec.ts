/** Test-only suite (test/cli-run-errors.test.ts): a suite file that throws while it loads. Its checks never exist. */
import { clause, test, ev } from '../../../src/harness/test.js';

test(...clause('ROUTE-5', 'selftest: never runs', ev.spec('1, 5.1')), async () => undefined);
throw new Error('deliberate: this suite file fails to load');

/**
 * Benchmark script: an arrival rate against a bare server — ramping to find the capacity the
 * report names, or held at RATE (after a climb of CLIMB seconds, default 1) to confirm that
 * at that rate no iteration is dropped.
 */
import http from 'k6/http';
import { stepStages } from '../lib/target.js';

const RATE = Number(__ENV.RATE || 0);
const PEAK = Number(__ENV.PEAK || 8000);
const SECONDS = Number(__ENV.SECONDS || 5);
const STEPS = Number(__ENV.STEPS || 8);
const VUS = Number(__ENV.VUS || 60);
const HOLD = Number(__ENV.HOLD || 2);

export const options = {
  discardResponseBodies: true,
  scenarios: {
    arrival:
      RATE > 0
        ? // Climb to the rate, as any load test does, then hold it.
          {
            executor: 'ramping-arrival-rate',
            startRate: 1,
            timeUnit: '1s',
            preAllocatedVUs: VUS,
            maxVUs: VUS,
            gracefulStop: '2s',
            stages: [
              { duration: (__ENV.CLIMB || '1') + 's', target: RATE },
              { duration: SECONDS + 's', target: RATE },
            ],
          }
        : {
            executor: 'ramping-arrival-rate',
            startRate: Math.ceil(PEAK / 20),
            timeUnit: '1s',
            preAllocatedVUs: VUS,
            maxVUs: VUS,
            gracefulStop: '2s',
            stages: stepStages(Math.ceil(PEAK / 20), PEAK, STEPS, HOLD),
          },
  },
  thresholds: { dropped_iterations: ['count==0'] },
};

export default function (): void {
  http.get(__ENV.URL || 'http://127.0.0.1:8000/');
}

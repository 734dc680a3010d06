/**
 * Per-base limit under concurrency (RATE-5, RATE-2, RATE-3, RATE-6). Setup takes a base token
 * for each base and waits for a fresh window; then many VUs share limit + extra calls per
 * base, interleaved. Verdicts are counters, so several instances add up: exactly `limit`
 * admitted per base and the rest refused with an empty 429; the remaining-header values of
 * the admitted calls sum to limit·(limit−1)/2, i.e. each value limit−1 … 0 came once.
 */
import { check } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import { baseToken, expect429, intHeader, metadata, sleepUntil, type Session } from '../lib/api.js';
import { burstStart, envInt, limits, START_AT, START_WAIT_SECONDS, target } from '../lib/target.js';

const bases = target.bases.slice(0, Math.max(1, envInt('BASES', 2)));
const L = limits.gateway;
const EXTRA = envInt('EXTRA', Math.max(20, Math.ceil(L * 0.2)));
const VUS = envInt('VUS', 20);
const keys = bases.map((_, i) => 'base-' + (i + 1));
const window = limits.window;

const admitted = new Counter('rate_admitted');
const refused = new Counter('rate_refused');
const remainingSum = new Counter('rate_remaining_sum');
const crossings = new Counter('rate_window_crossings');
const admittedAll = new Counter('rate_admitted_all_bases');

const thresholds: Record<string, string[]> = {
  'checks{clause:RATE-3}': ['rate==1'],
  'checks{clause:RATE-6}': ['rate==1'],
  'http_req_failed{scenario:burst}': ['rate==0'],
  // A precondition, not a clause: the burst stayed inside one window, so exact counts are meaningful.
  rate_window_crossings: ['count==0'],
};
for (const k of keys) {
  thresholds['rate_admitted{clause:RATE-5,key:' + k + '}'] = ['count==' + L];
  thresholds['rate_refused{clause:RATE-5,key:' + k + '}'] = ['count==' + EXTRA];
  thresholds['rate_remaining_sum{clause:RATE-6,key:' + k + '}'] = ['count==' + (L * (L - 1)) / 2];
}
// Each base admitted its own limit: the keys do not share one budget (RATE-2).
if (keys.length > 1) thresholds['rate_admitted_all_bases{clause:RATE-2}'] = ['count==' + L * keys.length];

export const options = {
  setupTimeout: window + 60 + (START_AT > 0 ? START_WAIT_SECONDS : 0) + 's',
  scenarios: {
    burst: {
      executor: 'shared-iterations',
      vus: VUS,
      iterations: (L + EXTRA) * Math.max(1, keys.length),
      maxDuration: Math.max(30, window) + 's',
      gracefulStop: '10s',
    },
  },
  thresholds: thresholds,
};

expect429();

export function setup(): { sessions: Session[] } {
  if (bases.length === 0) throw new Error('the target descriptor names no base');
  const sessions: Session[] = [];
  for (let i = 0; i < bases.length; i++) sessions.push(baseToken(bases[i]!, keys[i] || 'base-' + (i + 1)));
  // Start on a fresh window: the latest reset any base reports, or the one all instances were given (START_AT).
  let reset = 0;
  for (const s of sessions)
    reset = Math.max(reset, intHeader(metadata(s, { name: 'align' }), 'X-Ratelimit-Reset') || 0);
  const start = burstStart(reset);
  sleepUntil(start + 0.05, start === reset ? window + 1 : START_WAIT_SECONDS);
  return { sessions: sessions };
}

let firstReset = 0;

export default function (data: { sessions: Session[] }): void {
  const s = data.sessions[exec.scenario.iterationInTest % data.sessions.length] as Session;
  const res = metadata(s, { clause: 'RATE-5' });
  const limit = intHeader(res, 'X-Ratelimit-Limit');
  const remaining = intHeader(res, 'X-Ratelimit-Remaining');
  const reset = intHeader(res, 'X-Ratelimit-Reset');
  const now = Date.now() / 1000;
  if (!Number.isNaN(reset)) {
    if (firstReset === 0) firstReset = reset;
    else if (reset > firstReset) crossings.add(1, { key: s.key });
  }
  if (res.status === 429) {
    refused.add(1, { clause: 'RATE-5', key: s.key });
    check(
      res,
      { 'RATE-3 a 429 has an empty body': (r) => r.body === null || r.body === '' },
      { clause: 'RATE-3', key: s.key },
    );
    return;
  }
  if (res.status < 200 || res.status > 299) return;
  admitted.add(1, { clause: 'RATE-5', key: s.key });
  admittedAll.add(1, { clause: 'RATE-2' });
  remainingSum.add(Number.isNaN(remaining) ? -1e9 : remaining, { clause: 'RATE-6', key: s.key });
  check(
    res,
    {
      'RATE-6 x-ratelimit-limit is the limit': () => limit === L,
      'RATE-6 x-ratelimit-remaining is an integer below the limit': () => remaining >= 0 && remaining < L,
      'RATE-6 x-ratelimit-reset is a Unix time at most a window away': () =>
        reset >= Math.floor(now) && reset <= Math.ceil(now) + window,
    },
    { clause: 'RATE-6', key: s.key },
  );
}

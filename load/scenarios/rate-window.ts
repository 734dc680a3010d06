/**
 * Window reset (RATE-4, RATE-6). One VU exhausts a base inside one window, sees 429s until
 * x-ratelimit-reset, then — once that time has passed — is admitted again with a fresh
 * budget: remaining limit−1, then limit−2. Meant for one instance (one VU, one iteration).
 */
import { check } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { baseToken, expect429, intHeader, metadata, sleepUntil, type Res, type Session } from '../lib/api.js';
import { limits, target } from '../lib/target.js';
import { gatewayPath } from '../../src/spec/endpoints/types.js';

const L = limits.gateway;
const window = limits.window;
const reopened = new Counter('window_reopened');

export const options = {
  scenarios: {
    reset: {
      executor: 'shared-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: window * 3 + 60 + 's',
      gracefulStop: '10s',
    },
  },
  thresholds: {
    'checks{clause:RATE-4}': ['rate==1'],
    'checks{clause:RATE-6}': ['rate==1'],
    'window_reopened{clause:RATE-4}': ['count==1'],
    'http_req_failed{scenario:reset}': ['rate==0'],
  },
};

expect429();

export function setup(): { session: Session } {
  if (target.bases.length === 0) throw new Error('the target descriptor names no base');
  return { session: baseToken(target.bases[0]!, 'base-1') };
}

export default function (data: { session: Session }): void {
  const s = data.session;
  const tags = { clause: 'RATE-4', key: s.key };
  sleepUntil(intHeader(metadata(s, { name: 'align' }), 'X-Ratelimit-Reset') + 0.05, window + 1);
  // Exhaust the fresh window quickly: limit + 5 calls, 20 at a time.
  const url = target.url + gatewayPath(s.uuid, 'metadata/');
  const params = { headers: { Authorization: 'Bearer ' + s.token }, tags: Object.assign({ name: 'metadata' }, tags) };
  let admitted = 0,
    refused = 0,
    reset = 0;
  for (let sent = 0; sent < L + 5; sent += 20) {
    const n = Math.min(20, L + 5 - sent);
    const batch: ['GET', string, null, typeof params][] = [];
    for (let i = 0; i < n; i++) batch.push(['GET', url, null, params]);
    for (const r of http.batch(batch) as Res[]) {
      if (r.status === 429) refused++;
      else if (r.status === 200) admitted++;
      reset = Math.max(reset, intHeader(r, 'X-Ratelimit-Reset') || 0);
    }
  }
  const now = Date.now() / 1000;
  check(
    null,
    {
      'RATE-4 the window admitted its limit and refused the rest': () => admitted === L && refused === 5,
    },
    tags,
  );
  check(
    null,
    {
      'RATE-6 x-ratelimit-reset is in the future, at most a window away': () =>
        reset > now && reset <= Math.ceil(now) + window,
    },
    { clause: 'RATE-6', key: s.key },
  );
  if (reset - Date.now() / 1000 > 0.3) {
    check(metadata(s, tags), { 'RATE-4 still refused before x-ratelimit-reset': (r) => r.status === 429 }, tags);
  }
  sleepUntil(reset + 0.05, window + 1);
  const first = metadata(s, tags);
  const second = metadata(s, tags);
  const ok = check(first, { 'RATE-4 admitted again once x-ratelimit-reset has passed': (r) => r.status === 200 }, tags);
  if (ok) reopened.add(1, tags);
  check(
    null,
    {
      'RATE-6 a new window starts at limit-1 remaining': () => intHeader(first, 'X-Ratelimit-Remaining') === L - 1,
      'RATE-6 remaining falls by one per call': () => intHeader(second, 'X-Ratelimit-Remaining') === L - 2,
      'RATE-6 the next reset is later than the last': () => intHeader(first, 'X-Ratelimit-Reset') > reset,
    },
    { clause: 'RATE-6', key: s.key },
  );
}

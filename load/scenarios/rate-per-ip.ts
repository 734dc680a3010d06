/**
 * Per-IP limit of account operations (RATE-5, RATE-2, RATE-3, RATE-1). VUs are bound to
 * distinct source addresses (k6 `--local-ips 127.0.0.2-127.0.0.9`, or the built-in runner's
 * `--source-ips`), handed out round robin by VU number; every address makes limit + extra
 * calls of Get Team Info inside one window. Exactly `limit` are admitted per address, the
 * rest refused with an empty 429; /ping/ and /server-info/ still answer from an exhausted one.
 */
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { accountGet, baseToken, expect429, intHeader, metadata, sleepUntil } from '../lib/api.js';
import { burstStart, envInt, ipOfVu, limits, sourceIps, START_AT, START_WAIT_SECONDS, target } from '../lib/target.js';

const ips = sourceIps();
const keys = ips.length ? ips : ['default'];
const L = limits.account;
const EXTRA = envInt('EXTRA', Math.max(20, Math.ceil(L * 0.1)));
const VUS_PER_IP = Math.max(1, envInt('VUS_PER_IP', 4));
const ITERS = Math.ceil((L + EXTRA) / VUS_PER_IP);
const PER_IP = ITERS * VUS_PER_IP;
const window = limits.window;

const admitted = new Counter('ip_admitted');
const refused = new Counter('ip_refused');
const admittedAll = new Counter('ip_admitted_all');
const crossings = new Counter('ip_window_crossings');

const thresholds: Record<string, string[]> = {
  'checks{clause:RATE-3}': ['rate==1'],
  'checks{clause:RATE-1}': ['rate==1'],
  'http_req_failed{scenario:burst}': ['rate==0'],
  ip_window_crossings: ['count==0'],
};
for (const k of keys) {
  thresholds['ip_admitted{clause:RATE-5,key:' + k + '}'] = ['count==' + L];
  thresholds['ip_refused{clause:RATE-5,key:' + k + '}'] = ['count==' + (PER_IP - L)];
}
if (keys.length > 1) thresholds['ip_admitted_all{clause:RATE-2}'] = ['count==' + L * keys.length];

export const options = {
  setupTimeout: window * 2 + 60 + (START_AT > 0 ? START_WAIT_SECONDS : 0) + 's',
  scenarios: {
    burst: {
      executor: 'per-vu-iterations',
      vus: VUS_PER_IP * keys.length,
      iterations: ITERS,
      maxDuration: Math.max(60, window * 2) + 's',
      gracefulStop: '10s',
    },
  },
  thresholds: thresholds,
};

expect429();

/** Start on a fresh window: learn its end from a gateway answer's x-ratelimit-reset, else wait one window. */
export function setup(): { windowEnd: number } {
  if (!target.account_token)
    throw new Error('the target descriptor has no account_token (needed for account operations)');
  let reset = NaN;
  if (target.bases.length > 0)
    reset = intHeader(
      metadata(baseToken(target.bases[0]!, 'setup'), { name: 'align', key: 'setup' }),
      'X-Ratelimit-Reset',
    );
  if (Number.isNaN(reset)) reset = Math.ceil(Date.now() / 1000) + window;
  const start = burstStart(reset);
  sleepUntil(start + 0.05, start === reset ? window + 1 : START_WAIT_SECONDS);
  return { windowEnd: start + window };
}

export default function (data: { windowEnd: number }): void {
  // k6 binds --local-ips by the VU's number in its instance (not across a split run): key the calls the same way.
  const key = ipOfVu(exec.vu.idInInstance, ips);
  const res = accountGet('/api/v2.1/org/admin/info/', { clause: 'RATE-5', key: key, name: 'team-info' });
  if (Date.now() / 1000 >= data.windowEnd) crossings.add(1, { key: key });
  if (res.status === 429) {
    refused.add(1, { clause: 'RATE-5', key: key });
    check(
      res,
      { 'RATE-3 a 429 has an empty body': (r) => r.body === null || r.body === '' },
      { clause: 'RATE-3', key: key },
    );
  } else if (res.status >= 200 && res.status < 300) {
    admitted.add(1, { clause: 'RATE-5', key: key });
    admittedAll.add(1, { clause: 'RATE-2' });
  }
  if (exec.vu.iterationInScenario === ITERS - 1) {
    // This address has made more calls than its limit by now: the exempt endpoints must still answer.
    for (const path of ['/ping/', '/server-info/']) {
      const r = http.get(target.url + path, { tags: { clause: 'RATE-1', key: key, name: path } });
      check(
        r,
        { 'RATE-1 exempt endpoint never answers 429': (x) => x.status !== 429 && x.status < 400 },
        { clause: 'RATE-1', key: key },
      );
    }
  }
}

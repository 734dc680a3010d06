/**
 * Capacity (SIZE-7's "calls in a row" at scale): an arrival rate climbing in plateaus over a realistic mix —
 * 50 % list, 20 % append (10 rows), 15 % update (10 rows), 15 % SQL — spread over the bases
 * of the target. Run it against a target without rate limits (`conformance load` starts the
 * reference server so) or with many bases. The capacity report reads the per-second series:
 * the highest rate sustained with p95 under the budget, no errors, no dropped iterations.
 * `--find-capacity` runs it in steps instead (STEP_RATE and the rest: src/load/capacity/find.ts).
 */
import { check } from 'k6';
import exec from 'k6/execution';
import * as api from '../lib/api.js';
import { envInt, stepStages, target } from '../lib/target.js';

const START = envInt('START_RATE', 10);
const PEAK = envInt('PEAK_RATE', 150);
const STEPS = envInt('STEPS', 5);
const HOLD = envInt('HOLD_SECONDS', 5);
const BUDGET = envInt('P95_BUDGET_MS', 500);
const SEED = 200;

// One step of `conformance load --find-capacity` on stock k6: a constant rate, VUs sized by the search.
const STEP_RATE = envInt('STEP_RATE', 0);
const STAIRCASE = {
  executor: 'ramping-arrival-rate',
  startRate: START,
  timeUnit: '1s',
  // Pre-allocated generously: VUs initialised mid-run cost CPU exactly when it is scarce.
  preAllocatedVUs: envInt('PRE_VUS', 40),
  maxVUs: envInt('MAX_VUS', 60),
  stages: stepStages(START, PEAK, STEPS, HOLD),
  gracefulStop: '10s',
};
const STEP = {
  executor: 'constant-arrival-rate',
  rate: STEP_RATE,
  timeUnit: '1s',
  duration: envInt('STEP_SECONDS', 5) + 's',
  preAllocatedVUs: envInt('STEP_VUS', 10),
  maxVUs: envInt('STEP_MAX_VUS', 20),
  gracefulStop: envInt('STEP_GRACE_SECONDS', 1) + 's',
};

export const options = {
  discardResponseBodies: false,
  scenarios: { capacity: STEP_RATE > 0 ? STEP : STAIRCASE },
  thresholds: {
    'checks{clause:SIZE-7}': ['rate>0.99'],
    http_req_failed: ['rate<0.01'],
    'http_req_duration{scenario:capacity}': ['p(95)<' + BUDGET],
    dropped_iterations: ['count==0'],
  },
};

interface Data {
  sessions: api.Session[];
  ids: string[][];
  table: string;
}

export function setup(): Data {
  if (target.bases.length === 0) throw new Error('the target descriptor names no base');
  // This instance's own table in each base (several generators may share the target).
  const table = api.tablePrefix() + 'capacity';
  // Plain loops, not callbacks: the built-in runner awaits each call (see load/README.md).
  const sessions: api.Session[] = [];
  const bases = target.bases.slice(0, envInt('BASES', 8));
  for (let i = 0; i < bases.length; i++) sessions.push(api.baseToken(bases[i]!, 'base-' + (i + 1)));
  const ids: string[][] = [];
  for (const s of sessions) {
    const c = api.createTable(
      s,
      table,
      [
        { column_name: 'n', column_type: 'number' },
        { column_name: 'note', column_type: 'text' },
      ],
      { name: 'setup' },
    );
    if (c.status !== 200) throw new Error('could not create ' + table + ' in ' + s.base + ': ' + c.status);
    const rows = [];
    for (let i = 0; i < SEED; i++) rows.push({ n: i, note: 'seed ' + i });
    const r = api.appendRows(s, table, rows, { name: 'setup' });
    ids.push(((r.json('row_ids') as { _id: string }[]) || []).map((x) => x._id));
  }
  return { sessions: sessions, ids: ids, table: table };
}

export default function (data: Data): void {
  const i = exec.scenario.iterationInTest;
  const b = i % data.sessions.length;
  const s = data.sessions[b]!;
  const ids = data.ids[b] || [];
  const slot = i % 20;
  const tags = { clause: 'SIZE-7' };
  const TABLE = data.table;
  let res: api.Res;
  if (slot < 10) res = api.listRows(s, TABLE, 100, tags);
  else if (slot < 14) {
    const rows = [];
    for (let k = 0; k < 10; k++) rows.push({ n: i, note: 'load ' + i });
    res = api.appendRows(s, TABLE, rows, tags);
  } else if (slot < 17) {
    const updates = [];
    for (let k = 0; k < 10 && ids.length; k++) updates.push({ row_id: ids[(i * 10 + k) % ids.length]!, row: { n: i } });
    res = api.updateRows(s, TABLE, updates, tags);
  } else res = api.sql(s, 'SELECT n, note FROM ' + TABLE + ' WHERE n >= ? LIMIT 100', [i % SEED], tags);
  check(res, { 'SIZE-7 the call succeeds under load': (r) => r.status === 200 }, tags);
}

export function teardown(data: Data): void {
  for (const s of data.sessions) api.deleteTable(s, data.table, { name: 'teardown' });
}

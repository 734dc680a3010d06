/**
 * Row-limit boundaries under sustained load (SIZE-1…5, SIZE-7). Several VUs, each on its own
 * table, repeat: append 10 × 1,000 rows (+1), refuse 1,001, list (≤ 1,000), update 1,000,
 * refuse 1,001, SQL-list exactly 10,000 and never more, refuse deleting 10,001, delete
 * 10,000. Each refusal is checked to have written nothing. A 429 is waited out (SIZE-7: the
 * maximal calls are allowed while the rate limit is respected).
 */
import { check } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import * as api from '../lib/api.js';
import { envInt, limits, SIZE_LIMITS, target } from '../lib/target.js';

const VUS = Math.max(1, envInt('VUS', 2));
const ITERS = Math.max(1, envInt('ITERATIONS', 2));
const APPEND = SIZE_LIMITS.appendRows,
  UPDATE = SIZE_LIMITS.updateRows,
  DELETE = SIZE_LIMITS.deleteRows,
  SQL = SIZE_LIMITS.sqlList,
  LIST = SIZE_LIMITS.listRows;
const accepted = new Counter('size_accepted');
const refused = new Counter('size_refused');
const runs = VUS * ITERS;

export const options = {
  scenarios: {
    boundaries: { executor: 'per-vu-iterations', vus: VUS, iterations: ITERS, maxDuration: '10m', gracefulStop: '30s' },
  },
  thresholds: {
    'checks{clause:SIZE-1}': ['rate==1'],
    'checks{clause:SIZE-2}': ['rate==1'],
    'checks{clause:SIZE-3}': ['rate==1'],
    'checks{clause:SIZE-4}': ['rate==1'],
    'checks{clause:SIZE-5}': ['rate==1'],
    'checks{clause:SIZE-7}': ['rate==1'],
    'size_accepted{clause:SIZE-2}': ['count==' + runs * (DELETE / APPEND)],
    'size_refused{clause:SIZE-2}': ['count==' + runs],
    'size_accepted{clause:SIZE-3}': ['count==' + runs],
    'size_refused{clause:SIZE-3}': ['count==' + runs],
    'size_accepted{clause:SIZE-4}': ['count==' + runs],
    'size_refused{clause:SIZE-4}': ['count==' + runs],
    'size_accepted{clause:SIZE-5}': ['count==' + runs],
  },
};

api.expect429();

interface Data {
  sessions: api.Session[];
  prefix: string;
}

export function setup(): Data {
  if (target.bases.length === 0) throw new Error('the target descriptor names no base');
  // Tables of this instance (cf_<time>_<id>_rows_<VU>): instances of a split run never share or remove each other's.
  const sessions: api.Session[] = [];
  for (let i = 0; i < target.bases.length; i++) sessions.push(api.baseToken(target.bases[i]!, 'base-' + (i + 1)));
  return { sessions, prefix: api.tablePrefix() };
}

const tableOf = (data: Data, vu: number) => data.prefix + 'rows_' + vu;
const wait = limits.window + 1;
const call = (f: () => api.Res) => api.respecting(f, wait);
const rowsOf = (n: number, tag: string, from: number) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push({ n: from + i, tag: tag });
  return out;
};
const sqlCount = (s: api.Session, table: string, tag: string, clause: string) => {
  const r = call(() =>
    api.sql(s, 'SELECT _id FROM ' + table + ' WHERE tag = ? LIMIT ' + SQL, [tag], { clause: clause }),
  );
  return r.status === 200 ? ((r.json('results') as unknown[]) || []).length : -1;
};
const ok = (r: api.Res) => r.status === 200;
const refusedCleanly = (r: api.Res) =>
  r.status >= 400 && r.status < 500 && r.status !== 429 && api.errorMessage(r).length > 0;

export default function (data: Data): void {
  const vu = exec.vu.idInTest;
  const s = data.sessions[(vu - 1) % data.sessions.length]!;
  const table = tableOf(data, vu);
  const it = exec.vu.iterationInScenario;
  if (it === 0) {
    call(() => api.deleteTable(s, table, { name: 'cleanup' }));
    const c = call(() =>
      api.createTable(
        s,
        table,
        [
          { column_name: 'n', column_type: 'number' },
          { column_name: 'tag', column_type: 'text' },
        ],
        {},
      ),
    );
    if (!ok(c)) throw new Error('could not create table ' + table + ': ' + c.status + ' ' + api.errorMessage(c));
  }
  const tagA = 'a' + it,
    tagB = 'b' + it;
  // SIZE-2 and SIZE-7: ten maximal appends in a row, then one more row.
  const ids: string[] = [];
  for (let i = 0; i < DELETE / APPEND; i++) {
    const r = call(() => api.appendRows(s, table, rowsOf(APPEND, tagA, i * APPEND), { clause: 'SIZE-2' }));
    const good = check(
      r,
      {
        'SIZE-2 an append of 1,000 rows is accepted': (x) =>
          ok(x) && (x.json('inserted_row_count') as number) === APPEND,
      },
      { clause: 'SIZE-2' },
    );
    check(r, { 'SIZE-7 consecutive maximal calls are allowed': ok }, { clause: 'SIZE-7' });
    if (good) {
      accepted.add(1, { clause: 'SIZE-2' });
      for (const x of (r.json('row_ids') as { _id: string }[]) || []) ids.push(x._id);
    }
  }
  const extra = call(() => api.appendRows(s, table, rowsOf(1, tagB, DELETE), { clause: 'SIZE-4' }));
  const extraId = ok(extra) ? ((extra.json('row_ids') as { _id: string }[])[0] || { _id: '' })._id : '';
  const over = call(() => api.appendRows(s, table, rowsOf(APPEND + 1, 'over-append' + it, 0), { clause: 'SIZE-2' }));
  if (
    check(
      over,
      { 'SIZE-2 an append of 1,001 rows is refused with an error message': refusedCleanly },
      { clause: 'SIZE-2' },
    )
  )
    refused.add(1, { clause: 'SIZE-2' });
  const afterOver = sqlCount(s, table, 'over-append' + it, 'SIZE-2');
  check(afterOver, { 'SIZE-2 a refused append writes nothing': (c) => c === 0 }, { clause: 'SIZE-2' });
  // SIZE-1: a larger limit still gives at most 1,000 rows.
  const list = call(() => api.listRows(s, table, 5 * LIST, { clause: 'SIZE-1' }));
  check(
    list,
    {
      'SIZE-1 list rows returns at most 1,000 rows': (r) =>
        ok(r) && ((r.json('rows') as unknown[]) || []).length === LIST,
    },
    { clause: 'SIZE-1' },
  );
  // SIZE-3: 1,000 updates accepted, 1,001 refused and nothing written.
  const upd = call(() =>
    api.updateRows(
      s,
      table,
      ids.slice(0, UPDATE).map((id) => ({ row_id: id, row: { n: -1 } })),
      { clause: 'SIZE-3' },
    ),
  );
  if (check(upd, { 'SIZE-3 an update of 1,000 rows is accepted': ok }, { clause: 'SIZE-3' }))
    accepted.add(1, { clause: 'SIZE-3' });
  const updOver = call(() =>
    api.updateRows(
      s,
      table,
      ids.slice(0, UPDATE + 1).map((id) => ({ row_id: id, row: { tag: 'over-update' + it } })),
      { clause: 'SIZE-3' },
    ),
  );
  if (
    check(
      updOver,
      { 'SIZE-3 an update of 1,001 rows is refused with an error message': refusedCleanly },
      { clause: 'SIZE-3' },
    )
  )
    refused.add(1, { clause: 'SIZE-3' });
  const afterUpdOver = sqlCount(s, table, 'over-update' + it, 'SIZE-3');
  check(afterUpdOver, { 'SIZE-3 a refused update writes nothing': (c) => c === 0 }, { clause: 'SIZE-3' });
  // SIZE-5: exactly 10,000 rows when more match, never more even when asked.
  const n = sqlCount(s, table, tagA, 'SIZE-5');
  if (check(null, { 'SIZE-5 an SQL list returns 10,000 rows': () => n === SQL }, { clause: 'SIZE-5' }))
    accepted.add(1, { clause: 'SIZE-5' });
  const all = call(() => api.sql(s, 'SELECT _id FROM ' + table + ' LIMIT ' + 2 * SQL, [], { clause: 'SIZE-5' }));
  check(
    all,
    {
      'SIZE-5 an SQL list never returns more than 10,000 rows': (r) =>
        ok(r) && ((r.json('results') as unknown[]) || []).length <= SQL,
    },
    { clause: 'SIZE-5' },
  );
  // SIZE-4: deleting 10,001 rows is refused and deletes nothing; 10,000 are deleted.
  const delOver = call(() => api.deleteRows(s, table, ids.concat([extraId]), { clause: 'SIZE-4' }));
  if (
    check(
      delOver,
      { 'SIZE-4 a delete of 10,001 rows is refused with an error message': refusedCleanly },
      { clause: 'SIZE-4' },
    )
  )
    refused.add(1, { clause: 'SIZE-4' });
  const kept = [sqlCount(s, table, tagA, 'SIZE-4'), sqlCount(s, table, tagB, 'SIZE-4')];
  check(kept, { 'SIZE-4 a refused delete deletes nothing': (c) => c[0] === SQL && c[1] === 1 }, { clause: 'SIZE-4' });
  const del = call(() => api.deleteRows(s, table, ids, { clause: 'SIZE-4' }));
  if (check(del, { 'SIZE-4 a delete of 10,000 rows is accepted': ok }, { clause: 'SIZE-4' }))
    accepted.add(1, { clause: 'SIZE-4' });
  check(del, { 'SIZE-7 consecutive maximal calls are allowed': ok }, { clause: 'SIZE-7' });
  const left = [sqlCount(s, table, tagA, 'SIZE-4'), sqlCount(s, table, tagB, 'SIZE-4')];
  check(
    left,
    { 'SIZE-4 the 10,000 rows are gone, the other one stays': (c) => c[0] === 0 && c[1] === 1 },
    { clause: 'SIZE-4' },
  );
  call(() => api.deleteRows(s, table, [extraId], { name: 'cleanup' }));
}

export function teardown(data: Data): void {
  // VU numbers run across the whole split run: this instance's tables are some of them, the rest answer 404.
  for (let vu = 1; vu <= VUS; vu++)
    api.deleteTable(data.sessions[(vu - 1) % data.sessions.length]!, tableOf(data, vu), { name: 'cleanup' });
}

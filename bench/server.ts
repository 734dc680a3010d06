/**
 * Benchmarks of the reference server's base operations (issue 2 item 10), with autocannon:
 * - `GET /ping/` req/s beside a bare node:http server answering the same bytes (target ≥ 0.7×);
 * - list 1,000 rows of several column types, req/s, from the per-base-version response cache
 *   (target ≥ 200/s) and with that cache defeated by a varying query parameter (target ≥ 300/s,
 *   issue 13: the rows' JSON is then kept per table while the data is unchanged);
 * - append 1,000 rows, latency p50/p99 of one call at a time (target p50 ≤ 50 ms);
 * - SQL `SELECT *` of 10,000 rows, p50/p99 (target p50 ≤ 150 ms).
 * Each server runs in its own child process without rate limits (`--unlimited`). Beside each
 * wall-clock figure stands the server's CPU time per call (from /proc): on a busy machine the
 * wall-clock rates say little, CPU per call still says what one idle core would deliver.
 */
import autocannon from 'autocannon';
import { bare, baseSession, cpuPerCall, json, reference, stop, type Child, type Reference } from './lib/servers.js';
import { mean } from './lib/stats.js';
import { printWhenRunAlone } from './lib/standalone.js';

const SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 5);
const CONNECTIONS = 10;

const COLUMNS = [
  { column_name: 'Name', column_type: 'text' },
  { column_name: 'Amount', column_type: 'number' },
  { column_name: 'Due', column_type: 'date' },
  { column_name: 'Done', column_type: 'checkbox' },
  { column_name: 'State', column_type: 'single-select' },
  { column_name: 'Tags', column_type: 'multiple-select' },
  { column_name: 'Email', column_type: 'email' },
  { column_name: 'Notes', column_type: 'long-text' },
];
const rows = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    Name: `row ${from + i}`,
    Amount: (from + i) * 1.5,
    Due: '2030-06-20',
    Done: i % 2 === 0,
    State: ['open', 'done'][i % 2],
    Tags: ['a', 'b'].slice(0, 1 + (i % 2)),
    Email: `user${i}@example.com`,
    Notes: `Note ${i}\nsecond line`,
  }));

interface Target {
  token: string;
  gw: string;
  auth: Record<string, string>;
}

async function prepare(s: Reference): Promise<Target> {
  const { token, gw } = await baseSession(s.d);
  for (const t of ['List', 'Appends', 'Sql'])
    await json(`${gw}/tables/`, 'POST', token, { table_name: t, columns: COLUMNS });
  await json(`${gw}/rows/`, 'POST', token, { table_name: 'List', rows: rows(1000) });
  for (let i = 0; i < 10; i++)
    await json(`${gw}/rows/`, 'POST', token, { table_name: 'Sql', rows: rows(1000, i * 1000) });
  return { token, gw, auth: { authorization: `Token ${token}` } };
}

async function rps(url: string, headers: Record<string, string> = {}, seconds = SECONDS): Promise<number> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

/** A measured rate: requests per second and the server's CPU per request. */
async function rate(c: Child, url: string, headers: Record<string, string> = {}) {
  const { r, cpu } = await cpuPerCall(
    c,
    () => autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }),
    (x) => x['2xx'],
  );
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, cpu };
}

/** /ping/ on both servers, alternating, after a warm-up of each. */
async function ping(ref: Reference): Promise<Record<string, number | string>> {
  const node = await bare();
  try {
    await rps(`${ref.url}/ping/`, {}, 1);
    await rps(`${node.url}/ping/`, {}, 1);
    const server: { rps: number; cpu: number }[] = [];
    const baseline: { rps: number; cpu: number }[] = [];
    for (let i = 0; i < 2; i++) {
      server.push(await rate(ref, `${ref.url}/ping/`));
      baseline.push(await rate(node, `${node.url}/ping/`));
    }
    const ratio = mean(server.map((x) => x.rps)) / mean(baseline.map((x) => x.rps));
    const cpuRatio = mean(baseline.map((x) => x.cpu)) / mean(server.map((x) => x.cpu));
    return {
      ping_rps: Math.round(mean(server.map((x) => x.rps))),
      ping_bare_node_http_rps: Math.round(mean(baseline.map((x) => x.rps))),
      ping_ratio: round(ratio, 3),
      ping_target: verdict(ratio >= 0.7, '≥ 0.7× bare node:http'),
      ping_cpu_us_per_request: round(mean(server.map((x) => x.cpu)) * 1000, 1),
      ping_bare_cpu_us_per_request: round(mean(baseline.map((x) => x.cpu)) * 1000, 1),
      ping_cpu_ratio: round(cpuRatio, 3),
      ping_target_by_cpu: verdict(cpuRatio >= 0.7, 'bare CPU/request ÷ server CPU/request ≥ 0.7'),
    };
  } finally {
    await stop(node);
  }
}

/** Lists of 1,000 rows a second when every request is a new URL (issue 13, point 4). */
const UNCACHED_TARGET = 300;

/** List 1,000 rows: the same URL (served from the cache) and a URL that differs per request. */
async function list(ref: Reference, t: Target): Promise<Record<string, number | string>> {
  const path = `${new URL(t.gw).pathname}/rows/?table_name=List&limit=1000`;
  const url = `${t.gw}/rows/?table_name=List&limit=1000`;
  await rps(url, t.auth, 1);
  const cached = await rate(ref, url, t.auth);
  let n = 0;
  const { r, cpu } = await cpuPerCall(
    ref,
    () =>
      autocannon({
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: t.auth,
        requests: [{ method: 'GET', path, setupRequest: (req) => ({ ...req, path: `${path}&nocache=${n++}` }) }],
      }),
    (x) => x['2xx'],
  );
  if (r.non2xx || r.errors) throw new Error(`uncached list: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const uncached = r.requests.average;
  return {
    list_1000_rows_cached_rps: Math.round(cached.rps),
    list_1000_rows_uncached_rps: Math.round(uncached),
    list_1000_rows_uncached_p50_ms: r.latency.p50,
    list_target_cached: verdict(cached.rps >= 200, '≥ 200/s, a repeated request of an unchanged base'),
    list_target_uncached: verdict(uncached >= UNCACHED_TARGET, `≥ ${UNCACHED_TARGET}/s, every request a new one`),
    list_1000_rows_cached_cpu_ms: round(cached.cpu, 2),
    list_1000_rows_uncached_cpu_ms: round(cpu, 2),
    list_target_uncached_by_cpu: verdict(
      1000 / cpu >= UNCACHED_TARGET,
      `${Math.round(1000 / cpu)}/s on one idle core, ≥ ${UNCACHED_TARGET}/s`,
    ),
  };
}

/** Latency of one call at a time: `amount` calls on one connection. */
async function latency(c: Child, url: string, headers: Record<string, string>, body: string, amount: number) {
  const { r, cpu } = await cpuPerCall(
    c,
    () =>
      autocannon({
        url,
        method: 'POST',
        connections: 1,
        amount,
        headers: { ...headers, 'content-type': 'application/json' },
        body,
        timeout: 30,
      }),
    (x) => x['2xx'],
  );
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { p50: r.latency.p50, p99: r.latency.p99, cpu };
}

async function append(ref: Reference, t: Target): Promise<Record<string, number | string>> {
  const body = JSON.stringify({ table_name: 'Appends', rows: rows(1000) });
  await latency(ref, `${t.gw}/rows/`, t.auth, body, 5);
  const l = await latency(ref, `${t.gw}/rows/`, t.auth, body, 100);
  return {
    append_1000_rows_p50_ms: l.p50,
    append_1000_rows_p99_ms: l.p99,
    append_target: verdict(l.p50 <= 50, 'p50 ≤ 50 ms'),
    append_1000_rows_cpu_ms: round(l.cpu, 1),
    append_target_by_cpu: verdict(l.cpu <= 50, 'server CPU per call ≤ 50 ms'),
  };
}

async function sql(ref: Reference, t: Target): Promise<Record<string, number | string>> {
  const body = JSON.stringify({ sql: 'SELECT * FROM Sql LIMIT 10000' });
  await latency(ref, `${t.gw}/sql/`, t.auth, body, 3);
  const l = await latency(ref, `${t.gw}/sql/`, t.auth, body, 40);
  return {
    sql_select_10000_rows_p50_ms: l.p50,
    sql_select_10000_rows_p99_ms: l.p99,
    sql_target: verdict(l.p50 <= 150, 'p50 ≤ 150 ms'),
    sql_select_10000_rows_cpu_ms: round(l.cpu, 1),
    sql_target_by_cpu: verdict(l.cpu <= 150, 'server CPU per call ≤ 150 ms'),
  };
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));
const verdict = (met: boolean, target: string) => `${met ? 'met' : 'MISSED'} (${target})`;

export async function run(): Promise<Record<string, number | string>> {
  const ref = await reference(['--unlimited']);
  try {
    const t = await prepare(ref);
    return { ...(await ping(ref)), ...(await list(ref, t)), ...(await append(ref, t)), ...(await sql(ref, t)) };
  } finally {
    await stop(ref);
  }
}

printWhenRunAlone(import.meta.url, run);

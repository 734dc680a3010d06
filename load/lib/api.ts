/**
 * The calls the scenarios make, as the gateway takes them (api-shapes §1.4, §2). Every
 * request is tagged with the clause it serves and the rate-limit key it counts against.
 */
import http from 'k6/http';
import type { RefinedParams, RefinedResponse, ResponseType } from 'k6/http';
import { sleep } from 'k6';
import { target, type Base } from './target.js';
import { newRunId } from '../../src/common/run-id.js';
import { gatewayPath } from '../../src/spec/endpoints/types.js';
import { errorMessageOfText } from '../../src/spec/error-bodies.js';

/**
 * A prefix for the tables one instance creates (`cf_<time>_<id>_`, swept by `conformance
 * clean`): instances of a split run each make their own in setup(), so none removes a table
 * another still uses.
 */
export function tablePrefix(): string {
  return newRunId().tablePrefix;
}

export type Res = RefinedResponse<ResponseType | undefined>;
export interface Session {
  key: string;
  uuid: string;
  token: string;
  base: string;
}

/** 429s are intended in these scenarios: expected, so http_req_failed counts only real failures. */
export function expect429(): void {
  http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));
}

export function accountGet(path: string, tags: Record<string, string>): Res {
  return http.get(target.url + path, {
    headers: { Authorization: 'Token ' + (target.account_token || '') },
    tags: tags,
    timeout: '30s',
  });
}

/** Get-Base-Token with the base's API token (an account-class call, counted per IP). */
export function baseToken(base: Base, key: string): Session {
  const res = http.get(target.url + '/api/v2.1/dtable/app-access-token/', {
    headers: { Authorization: 'Token ' + base.api_token },
    tags: { name: 'app-access-token', key: 'setup' },
    timeout: '30s',
  });
  if (res.status !== 200)
    throw new Error(
      'Get-Base-Token for base ' + base.name + ' answered ' + res.status + (res.error ? ' (' + res.error + ')' : ''),
    );
  const body = res.json() as { access_token: string; dtable_uuid: string };
  return { key: key, uuid: body.dtable_uuid || base.uuid, token: body.access_token, base: base.name };
}

/** Cleanup calls may meet a table that is not there: not a failure. */
const CLEANUP = http.expectedStatuses({ min: 200, max: 499 });

function gw(
  s: Session,
  method: string,
  path: string,
  body: unknown,
  tags: Record<string, string>,
  cleanup?: boolean,
): Res {
  const params: RefinedParams<ResponseType> = {
    headers: { Authorization: 'Bearer ' + s.token, 'Content-Type': 'application/json' },
    tags: Object.assign({ key: s.key }, tags),
    timeout: '120s',
  };
  // Only set when wanted: k6 reads an explicit `responseCallback: undefined` as null (no http_req_failed).
  if (cleanup) params.responseCallback = CLEANUP;
  const url = target.url + gatewayPath(s.uuid, path);
  return http.request(method, url, body === null ? null : JSON.stringify(body), params);
}

export const metadata = (s: Session, tags: Record<string, string>) =>
  gw(s, 'GET', 'metadata/', null, Object.assign({ name: 'metadata' }, tags));
export const createTable = (
  s: Session,
  table: string,
  columns: { column_name: string; column_type: string }[],
  tags: Record<string, string>,
) => gw(s, 'POST', 'tables/', { table_name: table, columns: columns }, Object.assign({ name: 'create-table' }, tags));
export const deleteTable = (s: Session, table: string, tags: Record<string, string>) =>
  gw(s, 'DELETE', 'tables/', { table_name: table }, Object.assign({ name: 'delete-table' }, tags), true);
export const listRows = (s: Session, table: string, limit: number, tags: Record<string, string>) =>
  gw(
    s,
    'GET',
    'rows/?table_name=' + encodeURIComponent(table) + '&limit=' + limit + '&convert_keys=true',
    null,
    Object.assign({ name: 'list-rows' }, tags),
  );
export const appendRows = (s: Session, table: string, rows: Record<string, unknown>[], tags: Record<string, string>) =>
  gw(s, 'POST', 'rows/', { table_name: table, rows: rows }, Object.assign({ name: 'append-rows' }, tags));
export const updateRows = (
  s: Session,
  table: string,
  updates: { row_id: string; row: Record<string, unknown> }[],
  tags: Record<string, string>,
) => gw(s, 'PUT', 'rows/', { table_name: table, updates: updates }, Object.assign({ name: 'update-rows' }, tags));
export const deleteRows = (s: Session, table: string, ids: string[], tags: Record<string, string>) =>
  gw(s, 'DELETE', 'rows/', { table_name: table, row_ids: ids }, Object.assign({ name: 'delete-rows' }, tags));
export const sql = (s: Session, query: string, parameters: unknown[], tags: Record<string, string>) =>
  gw(
    s,
    'POST',
    'sql/',
    { sql: query, parameters: parameters, convert_keys: true },
    Object.assign({ name: 'sql' }, tags),
  );

/** The integer value of a header, or NaN when absent or not an integer (RATE-6). */
export function intHeader(res: Res, name: string): number {
  const v = res.headers[name];
  return v !== undefined && /^-?\d+$/.test(String(v).trim()) ? Number(v) : NaN;
}

/** Sleep until a Unix time (seconds) has passed, bounded by `maxSeconds`. */
export function sleepUntil(unixSeconds: number, maxSeconds: number): void {
  const wait = unixSeconds - Date.now() / 1000;
  if (wait > 0) sleep(Math.min(wait, maxSeconds));
}

/** Like a call but waiting out a 429 (SIZE-7: maximal calls while the rate limit is respected); bounded retries. */
export function respecting(call: () => Res, maxWaitSeconds: number): Res {
  let res = call();
  for (let i = 0; i < 3 && res.status === 429; i++) {
    const reset = intHeader(res, 'X-Ratelimit-Reset');
    sleepUntil(Number.isNaN(reset) ? Date.now() / 1000 + 1 : reset + 0.05, maxWaitSeconds);
    res = call();
  }
  return res;
}

/** The message of an error answer ('' when it has none). */
export const errorMessage = (res: Res): string => errorMessageOfText(String(res.body ?? '')) ?? '';

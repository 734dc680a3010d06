/**
 * API tokens and bases a check makes for itself (AUTH-5, ACCT-8): calls of the account API
 * by workspace and base name, a base token from an API token, and gateway calls with a base
 * token of the check's own (the Target's base tokens are the descriptor's bases only).
 */
import { registerSecret } from '../client/redact.js';
import { endpoint, fillPath, gatewayPath } from '../spec/index.js';
import { fixtureMissing } from './outcome.js';
import type { CallOptions, Reply, Target } from './target.js';

export const pathOf = (id: string, params: Record<string, string | number> = {}) => fillPath(endpoint(id).path, params);

/** The fields of an answer's JSON object ({} for anything else). */
export const fieldsOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export const form = (fields: Record<string, string>): FormData => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

/** Create API-Token on base `baseName` of workspace `ws` (form fields, as the OpenAPI sends them). */
export function createApiToken(
  target: Target,
  ws: number,
  baseName: string,
  appName: string,
  permission: 'r' | 'rw',
  expect: number[] = [],
): Promise<Reply> {
  return target.account(
    'POST',
    endpoint('createApiToken').path,
    { workspace_id: ws, base_name: baseName },
    { form: { app_name: appName, permission }, expect },
  );
}

export function deleteApiToken(target: Target, ws: number, baseName: string, appName: string): Promise<Reply> {
  return target.account(
    'DELETE',
    endpoint('deleteApiToken').path,
    { workspace_id: ws, base_name: baseName, app_name: appName },
    { expect: [404] },
  );
}

/** The api_token of a Create API-Token answer; a refused or odd answer is a missing fixture. */
export function apiTokenOf(r: Reply, what: string): string {
  const token = fieldsOf(r.status === 200 || r.status === 201 ? r.json() : undefined).api_token;
  if (typeof token !== 'string' || !token) throw fixtureMissing(`${what}: status ${r.status}: ${r.text.slice(0, 200)}`);
  registerSecret(token);
  return token;
}

/** Get Base-Token with API-Token, with any API token. */
export function appAccess(target: Target, apiToken: string, expect: number[] = [400, 401, 403, 404]): Promise<Reply> {
  return target.call({ path: endpoint('appAccessToken').path, auth: { raw: `Token ${apiToken}` }, expect });
}

/** The base token and base uuid an app-access-token answer carries (registered as a secret), if it is a 200 with them. */
export function accessOf(r: Reply): { token: string; uuid: string } | undefined {
  if (r.status !== 200) return undefined;
  const body = fieldsOf(r.json());
  if (typeof body.access_token !== 'string' || typeof body.dtable_uuid !== 'string') return undefined;
  registerSecret(body.access_token);
  return { token: body.access_token, uuid: body.dtable_uuid };
}

/** A gateway call on base `uuid` with `baseToken`. */
export function onBase(
  target: Target,
  uuid: string,
  baseToken: string,
  method: string,
  sub: string,
  o: Omit<CallOptions, 'path' | 'method' | 'auth'> = {},
): Promise<Reply> {
  return target.call({ ...o, method, path: gatewayPath(uuid, sub), auth: { raw: `Token ${baseToken}` } });
}

export const sameUuid = (a: unknown, b: string) =>
  String(a).replace(/-/g, '').toLowerCase() === b.replace(/-/g, '').toLowerCase();

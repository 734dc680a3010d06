/** Small builders the SHAPE-8 recipes write their calls with. */
import { randomBytes } from 'node:crypto';
import { endpoint, fillPath, offeredAt } from '../../spec/index.js';
import type { RunState } from '../state.js';
import type { CallOptions, Reply, Target } from '../target.js';
import { Skip } from './groups.js';

type Extra = Omit<CallOptions, 'method' | 'path'>;

export const tag = () => randomBytes(3).toString('hex');

/** A gateway call on base 0 with its base token. */
export const gw = (target: Target, method: string, sub: string, o: Extra = {}): CallOptions => ({
  method,
  path: target.gatewayPath(0, sub),
  auth: { base: 0 },
  ...o,
});

/** A call of endpoint `id` with the account token. */
export const acct = (
  method: string,
  id: string,
  params: Record<string, string | number> = {},
  o: Extra = {},
): CallOptions => ({ method, path: fillPath(endpoint(id).path, params), auth: 'account', ...o });

/** A call of endpoint `id` with base 0's API token. */
export const api = (method: string, id: string, o: Extra = {}): CallOptions => ({
  method,
  path: endpoint(id).path,
  auth: { api: 0 },
  ...o,
});

/** Workspace and name of base 0, for the `workspace/{workspace_id}/dtable/{base_name}/` paths. */
export function wsBase(state: RunState): { workspace_id: number; base_name: string } {
  return { workspace_id: state.target.workspace_id!, base_name: state.target.bases[0]!.name };
}

/** Why a recipe or probe does not apply to this target (undefined: it does). */
export type Needs = (state: RunState) => string | undefined;

export const ACCOUNT: Needs = (s) =>
  !s.target.account_token && !(s.target.username && s.target.password)
    ? 'needs an account (account_token, or username and password)'
    : undefined;
export const LOGIN: Needs = (s) =>
  !s.target.username || !s.target.password ? 'needs username and password in the target descriptor' : undefined;
export const WORKSPACE: Needs = (s) =>
  ACCOUNT(s) ?? (s.target.workspace_id === undefined ? 'needs workspace_id in the target descriptor' : undefined);
export const ADMIN: Needs = (s) =>
  ACCOUNT(s) ?? (!s.target.admin ? 'needs an admin account (descriptor "admin": true)' : undefined);
export const TEAM: Needs = (s) =>
  ADMIN(s) ?? (s.target.org_id === undefined ? 'needs org_id in the target descriptor' : undefined);

/** A recipe that makes its fixture through operation `id` applies only where the held release offers `id`. */
export const offers =
  (id: string): Needs =>
  (s) => {
    const ep = endpoint(id);
    return offeredAt(ep, s.apiVersion)
      ? undefined
      : `needs ${ep.operation} to make its fixture, which release ${s.apiVersion} does not offer`;
  };

/** Throw a Skip when `cond` holds: the recipe does not apply here. */
export function skipIf(cond: unknown, why: string): void {
  if (cond) throw new Skip(why);
}

export const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A multipart body of string fields. */
export function formOf(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

/** A documented call's answer as JSON, or undefined: what a recipe reads of it after the call never decides the check. */
export function jsonOf(r: Reply): unknown {
  if (r.status >= 300) return undefined;
  try {
    return JSON.parse(r.text);
  } catch {
    return undefined;
  }
}

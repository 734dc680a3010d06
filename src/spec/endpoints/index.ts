/**
 * The endpoint table: every route the reference server registers and the suites probe, and
 * every documented operation a base client uses (the other documented operations are listed
 * in ../out-of-scope.ts, each with its reason). `basis: 'spec'` rows are named by the
 * specification itself; `compat` rows only by the real service's documentation. A row with
 * `openapi` is the operation of that name in the real service's OpenAPI files.
 */
import { compareVersions } from '../versions.js';
import { ACCOUNT } from './account.js';
import { ADMIN } from './admin.js';
import { AUTH } from './auth.js';
import { FILES } from './files.js';
import { GATEWAY_OTHER } from './gateway-other.js';
import { GATEWAY_ROWS } from './gateway-rows.js';
import { GATEWAY_STRUCTURE } from './gateway-structure.js';
import { LEGACY } from './legacy.js';
import { PUBLIC } from './public.js';
import type { Endpoint } from './types.js';

export type { Credential, Endpoint, Method, Param } from './types.js';
export { gatewayPath, MOUNTS } from './types.js';

export const ENDPOINTS: readonly Endpoint[] = [
  ...PUBLIC, ...AUTH, ...GATEWAY_ROWS, ...GATEWAY_STRUCTURE, ...GATEWAY_OTHER, ...ACCOUNT, ...ADMIN, ...FILES, ...LEGACY,
];

const BY_ID: ReadonlyMap<string, Endpoint> = new Map(ENDPOINTS.map((e) => [e.id, e]));

export function endpoint(id: string): Endpoint {
  const e = BY_ID.get(id);
  if (!e) throw new Error(`unknown endpoint ${id}`);
  return e;
}

/** Fill a path template; every `{param}` must be given. Values are URL-encoded. */
export function fillPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`path ${template} needs {${k}}`);
    return encodeURIComponent(String(v));
  });
}

/** Parameters a path template needs. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** Is the endpoint offered by release `version`? (its `since` and `removed`.) */
export function offeredAt(ep: Endpoint, version: string): boolean {
  if (ep.since && compareVersions(version, ep.since) < 0) return false;
  if (ep.removed && compareVersions(version, ep.removed) >= 0) return false;
  return true;
}

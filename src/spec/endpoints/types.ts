/**
 * What a row of the endpoint table says, and the small helpers the family files write their
 * rows with. A row's `params` and `openapi` are facts of the real service's OpenAPI files
 * (seatable-api-php openapi_input/, "6.2"): where each parameter lives, whether it is
 * required, its type. The table keeps no prose of those files.
 */
import type { ClauseId } from '../clauses.js';
import type { RateClass } from '../limits.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/**
 * Which part of the service answers. `file-server` is the file server behind `/seafhttp/`,
 * reached with the one-off links the file operations hand out.
 */
export type EndpointFamily = 'public' | 'auth' | 'gateway' | 'base-v1' | 'account' | 'legacy' | 'file-server';
/**
 * What credential a call needs. `admin` = system admin; `team-admin` = admin of the team in the
 * path; `external-link` and `upload-link` = a token inside the path itself (no header).
 */
export type Credential = 'none' | 'account' | 'admin' | 'team-admin' | 'api-token' | 'base-token' | 'external-link' | 'upload-link';
export type Basis = 'spec' | 'compat';

export type ParamLocation = 'path' | 'query' | 'json' | 'form' | 'multipart' | 'header';
export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'file';

/** One documented parameter; for a body, one top-level field (`json`, `form`, `multipart`). */
export interface Param {
  readonly name: string;
  readonly in: ParamLocation;
  readonly required: boolean;
  readonly type: ParamType;
  readonly note?: string;
}

/** The documented operation a row comes from: file of openapi_input/ and its operationId. */
export interface OpenApiRef {
  readonly file: string;
  readonly operationId: string;
}

export interface Endpoint {
  /** Stable name, also the handler's name in the reference server. */
  readonly id: string;
  readonly method: Method;
  /** Path template; `{param}` segments. Always with the trailing slash the real service uses. */
  readonly path: string;
  readonly family: EndpointFamily;
  readonly credential: Credential;
  /** Rate-limit class (§8.1), or `exempt` (§8.1.1). */
  readonly rate: RateClass | 'exempt';
  /** Release that introduced it (undefined = before the oldest release in §9, or not known). */
  readonly since?: string;
  /** Release that removed it. */
  readonly removed?: string;
  readonly clauses: readonly ClauseId[];
  readonly basis: Basis;
  /** The specification's or the real service's name for the operation. */
  readonly operation: string;
  /** Parameters as the OpenAPI documents them (credentials excluded: see `credential`). */
  readonly params?: readonly Param[];
  readonly openapi?: OpenApiRef;
}

type Row = Omit<Endpoint, 'family' | 'rate' | 'basis'> & Partial<Pick<Endpoint, 'rate' | 'basis'>>;

/** Rows of one family with its default rate class and basis (a row may override both). */
export const family = (fam: EndpointFamily, rate: Endpoint['rate'], basis: Basis, rows: Row[]): Endpoint[] =>
  rows.map((r) => ({ rate, basis, ...r, family: fam }));

/** Where the components of the real service that answer base calls are mounted (nginx routes by the first segment). */
export const MOUNTS = { gateway: '/api-gateway/', dtableServer: '/dtable-server/', dtableDb: '/dtable-db/' } as const;
export const GW = `${MOUNTS.gateway}api/v2/dtables/{base_uuid}`;
/** The concrete path of a gateway call: `/api-gateway/api/v2/dtables/<uuid>/<sub>`. */
export const gatewayPath = (uuid: string, sub = ''): string => `${GW.replace('{base_uuid}', uuid)}/${sub}`;
export const WS = '/api/v2.1/workspace/{workspace_id}/dtable/{base_name}';

/** The OpenAPI files' names, once. */
export const OA = {
  base: 'base_operations.yaml',
  auth: 'authentication.yaml',
  files: 'file_operations.yaml',
  user: 'user_account_operations.yaml',
  team: 'team_admin_account_operations.yaml',
  admin: 'system_admin_account_operations.yaml',
} as const;

export const oa = (file: keyof typeof OA, operationId: string): OpenApiRef => ({ file: OA[file], operationId });

const param = (where: ParamLocation) => (name: string, type: ParamType = 'string', required = false, note?: string): Param =>
  (note ? { name, in: where, required, type, note } : { name, in: where, required, type });

/** Parameter builders: `p.query('table_name', 'string', true)`. Path parameters are always required. */
export const p = {
  path: (name: string, type: ParamType = 'string', note?: string): Param => param('path')(name, type, true, note),
  query: param('query'),
  json: param('json'),
  form: param('form'),
  multipart: param('multipart'),
  header: param('header'),
};

/** Path parameters many rows share. */
export const BASE_UUID = p.path('base_uuid');
export const WS_BASE = [p.path('workspace_id', 'integer'), p.path('base_name')] as const;
export const ORG_ID = p.path('org_id', 'integer');

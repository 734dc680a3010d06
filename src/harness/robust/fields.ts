/**
 * The fields a malformed-input probe puts wrong values in. A row of the endpoint table that
 * lists its `params` (the OpenAPI-derived rows) is probed at exactly those; a row without them
 * at every field the reference server's handlers of its family read (FIELDS below), each sent
 * alone so that a body the route does not expect can never be a valid call by accident.
 */
import { answeredByBaseComponent, type Endpoint, type Param } from '../../spec/index.js';

export type Kind = Param['type'];
export type Where = 'body' | 'query';
export interface Field {
  name: string;
  kind: Kind;
  in: Where;
  required: boolean;
  declared: boolean;
}

/** Body fields the gateway-style handlers read (rows, SQL, tables, columns, views, links, archive). */
const GATEWAY_BODY: Record<string, Kind> = {
  // release-form: names of fields a probe puts wrong values in; it judges the refusal, in no release's form.
  table_name: 'string',
  table_id: 'string',
  rows: 'array',
  updates: 'array',
  row_id: 'string',
  row: 'object',
  row_ids: 'array',
  sql: 'string',
  parameters: 'array',
  convert_keys: 'boolean',
  columns: 'array',
  column_name: 'string',
  column_type: 'string',
  column_data: 'object',
  name: 'string',
  view_name: 'string',
  filters: 'array',
  filter_conjunction: 'string',
  other_table_name: 'string',
  link_id: 'string',
  other_rows_ids_map: 'object',
  where: 'string',
};

/** Body fields the account, auth and token handlers read (JSON, form or multipart alike). */
const ACCOUNT_BODY: Record<string, Kind> = {
  // release-form: names of fields a probe puts wrong values in; it judges the refusal, in no release's form.
  username: 'string',
  password: 'string',
  app_name: 'string',
  permission: 'string',
  new_org_name: 'string',
  org_name: 'string',
  role: 'string',
  row_limit: 'integer',
  max_user_number: 'integer',
  asset_quota_mb: 'integer',
  monthly_automation_limit_per_user: 'integer',
  name: 'string',
  contact_email: 'string',
  is_staff: 'boolean',
  is_active: 'boolean',
  quota_total: 'integer',
  email: 'string',
  group_ids: 'array',
  is_inactive: 'boolean',
  users_info: 'array',
  url: 'string',
  secret: 'string',
  dtable_uuid: 'string',
  table_name: 'string',
  file: 'file',
};

/** Query parameters any GET handler reads; a row without `params` gets them all at once, leniently (see probes.ts). */
export const QUERY_FIELDS: Record<string, Kind> = {
  // release-form: names of fields a probe puts wrong values in; it judges the refusal, in no release's form.
  table_name: 'string',
  table_id: 'string',
  view_name: 'string',
  view_id: 'string',
  limit: 'integer',
  start: 'integer',
  order_by: 'string',
  direction: 'string',
  convert_keys: 'boolean',
  exp: 'string',
  page: 'integer',
  per_page: 'integer',
  end: 'string',
  operation_group: 'string',
  login_status: 'string',
  query_str: 'string',
  query_type: 'string',
  org_id: 'integer',
  query: 'string',
  ignore_asset: 'boolean',
  dtable_name: 'string',
  path: 'string',
};

/** Fields to probe on `ep`, from its declared parameters or, failing those, its family's. */
export function fieldsOf(ep: Endpoint): Field[] {
  if (ep.params) {
    return ep.params
      .filter((p) => p.in !== 'path' && p.in !== 'header')
      .map((p) => ({
        name: p.name,
        kind: p.type,
        in: p.in === 'query' ? 'query' : 'body',
        required: p.required,
        declared: true,
      }));
  }
  const table = ep.method === 'GET' ? QUERY_FIELDS : answeredByBaseComponent(ep.family) ? GATEWAY_BODY : ACCOUNT_BODY;
  return Object.entries(table).map(([name, kind]) => ({
    name,
    kind,
    in: ep.method === 'GET' ? 'query' : 'body',
    required: false,
    declared: false,
  }));
}

/** JSON values of the wrong type for a field of `kind` (a string where a number is expected, and so on). */
export const WRONG_JSON: Record<Kind, readonly unknown[]> = {
  string: [12345, ['x'], { x: 1 }],
  integer: ['ten', 1.5, ['1']],
  number: ['ten', true, { n: 1 }],
  boolean: ['maybe', 2, []],
  array: ['x', { 0: 'x' }, 5],
  object: ['x', [], 5],
  file: ['not a file', 5, ['x']],
};

/** Containers of the right type holding what no element or member is (a number may be a fine element). */
export const WRONG_INSIDE: Partial<Record<Kind, readonly unknown[]>> = {
  array: [[null], [[[]]]],
  object: [{ x: [[]] }, { x: null }],
};

/** Query values of the wrong type (a query value is text: wrong is text no parser of the kind takes). */
export const WRONG_QUERY: Record<Kind, readonly string[]> = {
  string: [],
  integer: ['abc', '1.5', '99999999999999999999'],
  number: ['abc', 'NaN'],
  boolean: ['maybe'],
  array: [],
  object: [],
  file: [],
};

/** Text no name may be: NUL, a lone surrogate (SQLite would store U+FFFD), 10,000 characters. */
export const BAD_TEXTS = { nul: '\u0000', surrogate: 'a\ud800', long: 'x'.repeat(10_000) } as const;
export type BadText = keyof typeof BAD_TEXTS;

/** The same in a query string, percent-encoded: NUL, a lone surrogate in UTF-8 (no text decodes from it), a byte that is no UTF-8, 10,000 characters. */
export const BAD_QUERY_TEXTS = {
  nul: '%00',
  surrogate: '%ED%A0%80',
  'invalid-utf8': '%FF',
  long: 'x'.repeat(10_000),
} as const;

/**
 * The official JavaScript client, npm `seatable-api` 1.0.46 (lib/base.js, lib/api-gateway.js):
 * every public method of its `Base` class, what it calls and how, and whether that route is
 * still in the 6.2 OpenAPI. A check that drives the client skips a method whose route is not
 * documented, with that reason.
 *
 * After `auth()`, a server that answers `use_api_gateway: true` (every 6.x server) gets each
 * call through the gateway class: `calls` are those. `legacy` is what the same method sends to
 * a server without the gateway (dtable-server / dtable-db, removed in 5.3).
 *
 * Not listed as methods: the constructor (takes `{ server, APIToken }`), `auth` (described in
 * JS_CLIENT below), and three internals — `getResult` (unwraps the legacy answers of
 * dtable-server), `useApiGatewayWrapper` and `apiGatewayWrapper` (install the gateway
 * delegation during `auth`).
 */
import { GW } from './endpoints/types.js';
import type { Method } from './endpoints/index.js';

/** How a call carries its arguments. `query+json`: the table in the query string, the rest in a JSON body. */
type Sends = 'none' | 'query' | 'json' | 'query+json';

export interface ClientCall {
  readonly method: Method;
  /** Path template as the client builds it (query strings it writes into the URL included). */
  readonly path: string;
  /** The ENDPOINTS row of that route, where the table has one. */
  readonly endpoint?: string;
  readonly sends: Sends;
  /** Query parameters and JSON fields it sends. */
  readonly fields: readonly string[];
}

export interface ClientMethod {
  readonly name: string;
  /** The arguments as the client's code takes them. */
  readonly example: string;
  /** Gateway mode. Empty for a method that calls nothing itself; `via` names the one it uses. */
  readonly calls: readonly ClientCall[];
  readonly via?: string;
  /** Without the gateway. */
  readonly legacy?: ClientCall;
  readonly returns: string;
  /** Every route it reaches in gateway mode is in the 6.2 OpenAPI. */
  readonly documented: boolean;
  readonly note?: string;
}

/** How the client gets in and how it reports errors. */
export const JS_CLIENT = {
  package: 'seatable-api',
  version: '1.0.46',
  construct: "new Base({ server: 'https://cloud.example.com', APIToken: '<API token>' }); await base.auth()",
  auth: {
    endpoint: 'appAccessToken',
    header: 'Authorization: Token <API token>',
    // `exp` is never sent: the server's default lifetime (3 days) applies; no refresh on expiry.
    sendsExp: false,
    reads: ['app_name', 'access_token', 'dtable_uuid', 'dtable_server', 'dtable_socket', 'dtable_db', 'use_api_gateway'],
    // `use_api_gateway` absent counts as false.
    gateway: "use_api_gateway true: base URL `${server}/api-gateway`, `Authorization: Token <access_token>`, the gateway methods are redirected there",
    legacy: 'use_api_gateway false: dtable_server (auth throws without it) and dtable_db from the answer, same header',
  },
  errors: {
    // Axios rejects every non-2xx answer with its own error; the body stays in
    // error.response.data untouched: the client reads none of error_msg / error_message / detail.
    readsBodyField: null,
    // Its own refusals (getColumnLinkId) reject with a plain object.
    ownRejection: '{ error_message }',
    // query() returns the formatted rows without looking at `success`.
    checksSqlSuccess: false,
  },
} as const;

const DS = '/dtable-server/api/v1/dtables/{base_uuid}';
const call = (method: Method, path: string, endpoint: string | undefined, sends: Sends, fields: string[] = []): ClientCall =>
  (endpoint ? { method, path, endpoint, sends, fields } : { method, path, sends, fields });
const gw = (method: Method, sub: string, endpoint: string | undefined, sends: Sends, fields: string[] = []) => call(method, `${GW}/${sub}`, endpoint, sends, fields);
const ds = (method: Method, sub: string, sends: Sends, fields: string[] = [], endpoint?: string) => call(method, `${DS}/${sub}`, endpoint, sends, fields);

const METADATA = gw('GET', 'metadata/', 'getMetadata', 'none');
const COLUMNS = gw('GET', 'columns/', 'listColumns', 'query', ['table_name', 'view_name']);
const PUT_COLUMN = (fields: string[]) => gw('PUT', 'columns/', 'updateColumn', 'json', ['op_type', 'table_name', 'column', ...fields]);
const APPEND = gw('POST', 'rows/', 'appendRows', 'json', ['table_name', 'rows', 'apply_default']);

export const CLIENT_METHODS: readonly ClientMethod[] = [
  { name: 'getResponseHeaders', example: "getResponseHeaders('x-ratelimit-remaining')", calls: [], returns: 'a header of the last gateway answer (all of them without a key); null without the gateway', documented: true, note: 'no call of its own' },
  {
    name: 'getDTable', example: 'getDTable()', calls: [gw('GET', '', undefined, 'none')], legacy: call('GET', '/dtable-server/dtables/{base_uuid}/?lang=en', undefined, 'query', ['lang']),
    returns: 'the whole base as JSON', documented: false, note: 'GET /api-gateway/api/v2/dtables/{uuid}/ is only in the 4.4 draft OpenAPI, not in 6.2',
  },
  { name: 'getMetadata', example: 'getMetadata()', calls: [METADATA], legacy: ds('GET', 'metadata/', 'none', [], 'legacyMetadata'), returns: 'the `metadata` object ({tables, …})', documented: true },
  { name: 'getTables', example: 'getTables()', calls: [METADATA], via: 'getMetadata', returns: 'metadata.tables, or []', documented: true },
  { name: 'getTableByName', example: "getTableByName('Table1')", calls: [METADATA], via: 'getMetadata', returns: 'the table of that name (undefined if none; {} if the base has no tables)', documented: true },
  // Tables
  {
    name: 'addTable', example: "addTable('Projects', 'en', [{ column_name: 'Name', column_type: 'text' }])", calls: [gw('POST', 'tables/', 'createTable', 'json', ['table_name', 'lang', 'columns'])],
    legacy: ds('POST', 'tables/', 'json', ['table_name', 'lang', 'columns']), returns: 'the answer: the new table', documented: true, note: '`lang` is not a documented field',
  },
  { name: 'renameTable', example: "renameTable('Projects', 'Archive')", calls: [gw('PUT', 'tables/', 'renameTable', 'json', ['table_name', 'new_table_name'])], legacy: ds('PUT', 'tables/', 'json', ['table_name', 'new_table_name']), returns: 'the answer ({success})', documented: true },
  { name: 'deleteTable', example: "deleteTable('Archive')", calls: [gw('DELETE', 'tables/', 'deleteTable', 'json', ['table_name'])], legacy: ds('DELETE', 'tables/', 'json', ['table_name']), returns: 'the answer ({success})', documented: true },
  // Views: the view name goes into the path and the table name into the query string, neither URL-encoded by the client.
  { name: 'listViews', example: "listViews('Table1')", calls: [gw('GET', 'views/', 'listViews', 'query', ['table_name'])], legacy: ds('GET', 'views/', 'query', ['table_name']), returns: 'answer.views, or []', documented: true },
  { name: 'getViewByName', example: "getViewByName('Table1', 'Default View')", calls: [gw('GET', 'views/{view_name}/?table_name={table_name}', 'getView', 'query', ['table_name'])], legacy: ds('GET', 'views/{view_name}/?table_name={table_name}', 'query', ['table_name']), returns: 'the view', documented: true },
  {
    name: 'addView', example: "addView('Table1', 'Open tasks')", calls: [gw('POST', 'views/?table_name={table_name}', 'createView', 'query+json', ['table_name', 'name'])],
    legacy: ds('POST', 'views/?table_name={table_name}', 'query+json', ['table_name', 'name']), returns: 'the new view', documented: true, note: 'does not send `type`, which the OpenAPI marks required',
  },
  { name: 'renameView', example: "renameView('Table1', 'Open tasks', 'Open')", calls: [gw('PUT', 'views/{view_name}/?table_name={table_name}', 'updateView', 'query+json', ['table_name', 'name'])], legacy: ds('PUT', 'views/{view_name}/?table_name={table_name}', 'query+json', ['table_name', 'name']), returns: 'the view', documented: true },
  { name: 'deleteView', example: "deleteView('Table1', 'Open')", calls: [gw('DELETE', 'views/{view_name}/?table_name={table_name}', 'deleteView', 'query', ['table_name'])], legacy: ds('DELETE', 'views/{view_name}/?table_name={table_name}', 'query', ['table_name']), returns: 'the answer ({success})', documented: true },
  // Columns
  { name: 'listColumns', example: "listColumns('Table1', 'Default View')", calls: [COLUMNS], legacy: ds('GET', 'columns/', 'query', ['table_name', 'view_name']), returns: 'answer.columns, or []', documented: true, note: 'view_name only when given' },
  { name: 'getColumnByName', example: "getColumnByName('Table1', 'Name')", calls: [COLUMNS], via: 'listColumns', returns: 'the column of that name, or undefined', documented: true },
  { name: 'getColumnsByType', example: "getColumnsByType('Table1', 'link')", calls: [COLUMNS], via: 'listColumns', returns: 'the columns of that type', documented: true },
  { name: 'getColumnLinkId', example: "getColumnLinkId('Table1', 'Tasks')", calls: [COLUMNS], via: 'listColumns', returns: "the link column's data.link_id; rejects with {error_message} if there is no such link column", documented: true },
  {
    name: 'insertColumn', example: "insertColumn('Table1', 'Due', 'date', '0000', { format: 'YYYY-MM-DD' })", calls: [gw('POST', 'columns/', 'appendColumn', 'json', ['table_name', 'column_name', 'column_type', 'anchor_column', 'column_data'])],
    legacy: ds('POST', 'columns/', 'json', ['table_name', 'column_name', 'column_type', 'anchor_column', 'column_data']), returns: 'the new column', documented: true, note: 'the fourth argument (a column key) becomes anchor_column; both optional',
  },
  { name: 'renameColumn', example: "renameColumn('Table1', '0000', 'Title')", calls: [PUT_COLUMN(['new_column_name'])], legacy: ds('PUT', 'columns/', 'json', ['op_type', 'table_name', 'column', 'new_column_name']), returns: 'the column', documented: true, note: 'op_type rename_column' },
  { name: 'resizeColumn', example: "resizeColumn('Table1', '0000', 300)", calls: [PUT_COLUMN(['new_column_width'])], legacy: ds('PUT', 'columns/', 'json', ['op_type', 'table_name', 'column', 'new_column_width']), returns: 'the column', documented: true, note: 'op_type resize_column' },
  { name: 'freezeColumn', example: "freezeColumn('Table1', '0000', true)", calls: [PUT_COLUMN(['frozen'])], legacy: ds('PUT', 'columns/', 'json', ['op_type', 'table_name', 'column', 'frozen']), returns: 'the column', documented: true, note: 'op_type freeze_column' },
  { name: 'moveColumn', example: "moveColumn('Table1', 'a1b2', '0000')", calls: [PUT_COLUMN(['target_column'])], legacy: ds('PUT', 'columns/', 'json', ['op_type', 'table_name', 'column', 'target_column']), returns: 'the column', documented: true, note: 'op_type move_column' },
  { name: 'modifyColumnType', example: "modifyColumnType('Table1', 'a1b2', 'number')", calls: [PUT_COLUMN(['new_column_type'])], legacy: ds('PUT', 'columns/', 'json', ['op_type', 'table_name', 'column', 'new_column_type']), returns: 'the column', documented: true, note: 'op_type modify_column_type' },
  { name: 'deleteColumn', example: "deleteColumn('Table1', 'a1b2')", calls: [gw('DELETE', 'columns/', 'deleteColumn', 'json', ['table_name', 'column'])], legacy: ds('DELETE', 'columns/', 'json', ['table_name', 'column']), returns: 'the answer ({success})', documented: true },
  {
    name: 'addColumnOptions', example: "addColumnOptions('Table1', 'Status', [{ name: 'Done', color: '#59CB74', textColor: '#FFFFFF' }])", calls: [gw('POST', 'column-options/', 'addSelectOption', 'json', ['table_name', 'column', 'options'])],
    legacy: ds('POST', 'column-options/', 'json', ['table_name', 'column', 'options']), returns: 'the answer ({success})', documented: true,
  },
  {
    name: 'addColumnCascadeSettings', example: "addColumnCascadeSettings('Table1', 'Country', 'Continent', { Europe: ['France'] })", calls: [gw('POST', 'column-cascade-settings/', 'updateColumnCascade', 'json', ['table_name', 'child_column', 'parent_column', 'cascade_settings'])],
    legacy: ds('POST', 'column-cascade-settings/', 'json', ['table_name', 'child_column', 'parent_column', 'cascade_settings']), returns: 'the answer ({success})', documented: true,
  },
  // Rows
  {
    name: 'listRows', example: "listRows('Table1', 'Default View', 'Name', false, 0, 100)",
    calls: [gw('GET', 'rows/', 'listRows', 'query', ['table_name', 'convert_keys', 'convert_link_id', 'view_name', 'order_by', 'direction', 'start', 'limit'])],
    legacy: ds('GET', 'rows/', 'query', ['table_name', 'view_name', 'convert_link_id', 'direction', 'order_by', 'start', 'limit'], 'legacyListRows'), returns: 'answer.rows, or []', documented: true,
    note: 'always convert_keys=true and convert_link_id=true (the latter undocumented); still sends order_by/direction, which the row list lost in 4.4 (ROUTE-6)',
  },
  { name: 'getRow', example: "getRow('Table1', 'Qtf7xPmoRaiFyQPO1aENTj')", calls: [gw('GET', 'rows/{row_id}/', 'getRow', 'query', ['table_name', 'convert_keys'])], legacy: ds('GET', 'rows/{row_id}/', 'query', ['table_name']), returns: 'the row (convert_keys=true: column names as keys)', documented: true },
  { name: 'appendRow', example: "appendRow('Table1', { Name: 'Ada' }, true)", calls: [APPEND], legacy: ds('POST', 'rows/', 'json', ['table_name', 'row', 'apply_default'], 'legacyAppendRow'), returns: 'answer.first_row, or {}', documented: true, note: 'one row, sent as rows: [row]' },
  { name: 'insertRow', example: "insertRow('Table1', { Name: 'Ada' }, 'Qtf7xPmoRaiFyQPO1aENTj')", calls: [APPEND], via: 'appendRow', legacy: ds('POST', 'rows/', 'json', ['table_name', 'row', 'anchor_row_id', 'apply_default'], 'legacyAppendRow'), returns: 'answer.first_row, or {}', documented: true, note: 'the anchor row is ignored on the gateway: the row is appended' },
  { name: 'batchAppendRows', example: "batchAppendRows('Table1', [{ Name: 'Ada' }, { Name: 'Alan' }])", calls: [APPEND], legacy: ds('POST', 'batch-append-rows/', 'json', ['table_name', 'rows', 'apply_default']), returns: '{inserted_row_count}', documented: true },
  { name: 'updateRow', example: "updateRow('Table1', 'Qtf7xPmoRaiFyQPO1aENTj', { Name: 'Ada L.' })", calls: [gw('PUT', 'rows/', 'updateRows', 'json', ['table_name', 'updates'])], legacy: ds('PUT', 'rows/', 'json', ['table_name', 'row_id', 'row']), returns: 'the answer ({success})', documented: true, note: 'sent as updates: [{row_id, row}]' },
  { name: 'batchUpdateRows', example: "batchUpdateRows('Table1', [{ row_id: 'Qtf7xPmoRaiFyQPO1aENTj', row: { Name: 'Ada' } }])", calls: [gw('PUT', 'rows/', 'updateRows', 'json', ['table_name', 'updates'])], legacy: ds('PUT', 'batch-update-rows/', 'json', ['table_name', 'updates']), returns: 'the answer ({success})', documented: true },
  { name: 'deleteRow', example: "deleteRow('Table1', 'Qtf7xPmoRaiFyQPO1aENTj')", calls: [gw('DELETE', 'rows/', 'deleteRows', 'json', ['table_name', 'row_ids'])], legacy: ds('DELETE', 'rows/', 'json', ['table_name', 'row_id']), returns: 'the answer ({success})', documented: true, note: 'sent as row_ids: [row_id]' },
  { name: 'batchDeleteRows', example: "batchDeleteRows('Table1', ['Qtf7xPmoRaiFyQPO1aENTj'])", calls: [gw('DELETE', 'rows/', 'deleteRows', 'json', ['table_name', 'row_ids'])], legacy: ds('DELETE', 'batch-delete-rows/', 'json', ['table_name', 'row_ids']), returns: 'the answer ({success})', documented: true },
  // Links: the documented body names tables by id; the client sends names (table_name, other_table_name), which the gateway also takes.
  {
    name: 'addLink', example: "addLink('jYc7', 'Table1', 'Table2', 'Qtf7xPmoRaiFyQPO1aENTj', 'G5rbgqudTKKfAm1-cjnjbQ')", calls: [gw('POST', 'links/', 'createLinks', 'json', ['link_id', 'table_name', 'other_table_name', 'other_rows_ids_map'])],
    legacy: ds('POST', 'links/', 'json', ['link_id', 'table_name', 'other_table_name', 'table_row_id', 'other_table_row_id']), returns: 'the answer ({success})', documented: true, note: 'other_rows_ids_map = {row_id: [other_row_id]}',
  },
  {
    name: 'removeLink', example: "removeLink('jYc7', 'Table1', 'Table2', 'Qtf7xPmoRaiFyQPO1aENTj', 'G5rbgqudTKKfAm1-cjnjbQ')", calls: [gw('DELETE', 'links/', 'deleteLinks', 'json', ['link_id', 'table_name', 'other_table_name', 'table_row_id', 'other_rows_ids_map'])],
    legacy: ds('DELETE', 'links/', 'json', ['link_id', 'table_name', 'other_table_name', 'table_row_id', 'other_table_row_id']), returns: 'the answer ({deleted_links_count})', documented: true, note: 'also sends table_row_id, which the gateway does not document',
  },
  {
    name: 'updateLink', example: "updateLink('jYc7', 'Table1', 'Table2', 'Qtf7xPmoRaiFyQPO1aENTj', ['G5rbgqudTKKfAm1-cjnjbQ'])", calls: [gw('PUT', 'links/', 'updateLinks', 'json', ['link_id', 'table_name', 'other_table_name', 'other_rows_ids_map'])],
    legacy: ds('PUT', 'links/', 'json', ['link_id', 'table_name', 'other_table_name', 'row_id', 'other_rows_ids']), returns: 'the answer ({success})', documented: true, note: 'replaces the links of one row',
  },
  {
    name: 'batchUpdateLinks', example: "batchUpdateLinks('jYc7', '0000', 'aB3d', ['Qtf7xPmoRaiFyQPO1aENTj'], { Qtf7xPmoRaiFyQPO1aENTj: ['G5rbgqudTKKfAm1-cjnjbQ'] })", calls: [gw('PUT', 'links/', 'updateLinks', 'json', ['link_id', 'table_id', 'other_table_id', 'other_rows_ids_map'])],
    legacy: ds('PUT', 'batch-update-links/', 'json', ['link_id', 'table_id', 'other_table_id', 'row_id_list', 'other_rows_ids_map']), returns: 'the answer ({success})', documented: true, note: 'the row id list is ignored on the gateway',
  },
  {
    name: 'getLinkedRecords', example: "getLinkedRecords('0000', 'Cw35', [{ row_id: 'Qtf7xPmoRaiFyQPO1aENTj', offset: 0, limit: 10 }])", calls: [gw('POST', 'query-links/', 'listRowLinks', 'json', ['table_id', 'link_column_key', 'rows'])],
    legacy: call('POST', '/dtable-db/api/v1/linked-records/{base_uuid}/', undefined, 'json', ['link_column', 'table_id', 'rows']), returns: 'the answer: {row_id: [{row_id, display_value}]}', documented: true,
  },
  {
    name: 'query', example: "query('SELECT Name FROM Table1 LIMIT 10')", calls: [gw('POST', 'sql/', 'querySql', 'json', ['sql'])], legacy: call('POST', '/dtable-db/api/v1/query/{base_uuid}/', 'legacySql', 'json', ['sql']),
    returns: 'the rows, keyed by column name: select option ids turned into names, links into display values, dates formatted (from answer.metadata and answer.results)', documented: true,
    note: 'sends no parameters and no convert_keys; ignores `success`',
  },
];

/** The methods of the Base class that are not in CLIENT_METHODS, and why. */
export const SKIPPED_METHODS: Readonly<Record<string, string>> = {
  constructor: 'takes the configuration only ({ server, APIToken })',
  auth: 'the authentication step: JS_CLIENT.auth',
  getResult: 'internal: unwraps legacy dtable-server answers (an axios interceptor)',
  useApiGatewayWrapper: 'internal: redirects the gateway methods after auth',
  apiGatewayWrapper: 'internal: the redirection itself',
};

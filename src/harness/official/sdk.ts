/**
 * The official JavaScript client, npm `seatable-api` (src/spec/client-methods.ts describes
 * it), loaded as the package ships it (CommonJS), with the types it does not ship. `axios`
 * is the very instance the client requires, resolved from the client's own folder: its
 * base-token call goes through axios' default instance, the rest through instances
 * `auth()` creates from it.
 */
import { createRequire } from 'node:module';
import type { AxiosInstance, AxiosStatic } from 'axios';

type Row = Record<string, unknown>;
export interface ColumnInfo {
  key: string;
  name: string;
  type: string;
  width?: number;
  frozen?: boolean;
  data?: Record<string, unknown> | null;
}
export interface TableInfo {
  _id: string;
  name: string;
  columns: ColumnInfo[];
  views?: { _id: string; name: string }[];
}
export interface ViewInfo {
  _id?: string;
  name: string;
}
export interface LinkedRecordsQuery {
  row_id: string;
  offset?: number;
  limit?: number;
}

/** The public methods of the client's `Base` class, as lib/base.js and lib/api-gateway.js define them. */
export interface OfficialBase {
  auth(): Promise<void>;
  readonly appName: string;
  readonly accessToken: string;
  readonly dtableUuid: string;
  readonly dtableServer: string;
  /** Set by `auth()` when the server answers `use_api_gateway: true`. */
  readonly apiGateway: { req: AxiosInstance } | null;
  /** Set by `auth()` for the pre-gateway families (`dtable_server` of the answer). */
  readonly req: AxiosInstance | null;

  getResponseHeaders(key?: string): unknown;
  getDTable(): Promise<unknown>;
  getMetadata(): Promise<{ tables?: TableInfo[] }>;
  getTables(): Promise<TableInfo[]>;
  getTableByName(name: string): Promise<TableInfo | undefined | Record<string, never>>;
  addTable(
    name: string,
    lang?: string,
    columns?: { column_name: string; column_type: string; column_data?: unknown }[],
  ): Promise<TableInfo>;
  renameTable(name: string, newName: string): Promise<unknown>;
  deleteTable(name: string): Promise<unknown>;
  listViews(table: string): Promise<ViewInfo[]>;
  getViewByName(table: string, view: string): Promise<ViewInfo>;
  addView(table: string, view: string): Promise<ViewInfo>;
  renameView(table: string, view: string, newName: string): Promise<ViewInfo>;
  deleteView(table: string, view: string): Promise<unknown>;
  listColumns(table: string, view?: string): Promise<ColumnInfo[]>;
  getColumnByName(table: string, column: string): Promise<ColumnInfo | undefined>;
  getColumnsByType(table: string, type: string): Promise<ColumnInfo[]>;
  getColumnLinkId(table: string, column: string): Promise<string>;
  insertColumn(
    table: string,
    name: string,
    type: string,
    anchorKey?: string,
    data?: Record<string, unknown>,
  ): Promise<ColumnInfo>;
  renameColumn(table: string, key: string, newName: string): Promise<ColumnInfo>;
  resizeColumn(table: string, key: string, width: number): Promise<ColumnInfo>;
  freezeColumn(table: string, key: string, frozen: boolean): Promise<ColumnInfo>;
  moveColumn(table: string, key: string, targetKey: string): Promise<ColumnInfo>;
  modifyColumnType(table: string, key: string, type: string): Promise<ColumnInfo>;
  deleteColumn(table: string, key: string): Promise<unknown>;
  addColumnOptions(
    table: string,
    column: string,
    options: { name: string; color: string; textColor: string }[],
  ): Promise<unknown>;
  addColumnCascadeSettings(
    table: string,
    child: string,
    parent: string,
    settings: Record<string, string[]>,
  ): Promise<unknown>;
  listRows(
    table: string,
    view?: string,
    orderBy?: string,
    desc?: boolean,
    start?: number,
    limit?: number,
  ): Promise<Row[]>;
  getRow(table: string, rowId: string): Promise<Row>;
  appendRow(table: string, row: Row, applyDefault?: boolean): Promise<Row>;
  insertRow(table: string, row: Row, anchorRowId: string, applyDefault?: boolean): Promise<Row>;
  batchAppendRows(table: string, rows: Row[], applyDefault?: boolean): Promise<{ inserted_row_count?: number }>;
  updateRow(table: string, rowId: string, row: Row): Promise<unknown>;
  batchUpdateRows(table: string, updates: { row_id: string; row: Row }[]): Promise<unknown>;
  deleteRow(table: string, rowId: string): Promise<unknown>;
  batchDeleteRows(table: string, rowIds: string[]): Promise<unknown>;
  addLink(linkId: string, table: string, otherTable: string, rowId: string, otherRowId: string): Promise<unknown>;
  removeLink(linkId: string, table: string, otherTable: string, rowId: string, otherRowId: string): Promise<unknown>;
  updateLink(linkId: string, table: string, otherTable: string, rowId: string, otherRowIds: string[]): Promise<unknown>;
  batchUpdateLinks(
    linkId: string,
    tableId: string,
    otherTableId: string,
    rowIds: string[],
    otherRowsIdsMap: Record<string, string[]>,
  ): Promise<unknown>;
  getLinkedRecords(
    tableId: string,
    linkColumnKey: string,
    rows: LinkedRecordsQuery[],
  ): Promise<Record<string, { row_id: string; display_value?: unknown }[]>>;
  query(sql: string): Promise<Row[]>;
}

const requireHere = createRequire(import.meta.url);
const sdkEntry = requireHere.resolve('seatable-api');

/**
 * The client and the axios it loads, on first use: two suites use them, and every Playwright
 * process that lists or runs any check loads every suite file (0.1 s of CPU each time).
 */
let loaded:
  { Base: new (config: { server: string; APIToken: string }) => OfficialBase; axios: AxiosStatic } | undefined;
function client(): NonNullable<typeof loaded> {
  loaded ??= {
    Base: (requireHere(sdkEntry) as { Base: NonNullable<typeof loaded>['Base'] }).Base,
    axios: createRequire(sdkEntry)('axios') as AxiosStatic,
  };
  return loaded;
}

/** The axios the client itself loads (its default instance makes the base-token call). */
export const clientAxios = (): AxiosStatic => client().axios;

export function newBase(server: string, apiToken: string): OfficialBase {
  return new (client().Base)({ server, APIToken: apiToken });
}

/** The client's version, from its package.json (reports name it). */
export const SDK_VERSION = (createRequire(sdkEntry)('../package.json') as { version: string }).version;

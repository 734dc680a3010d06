/** A base's structure (tables, columns, views) as kept in memory and persisted as JSON. */
import { randomBytes } from 'node:crypto';
import type { ColumnType } from '../../spec/index.js';
import type { Db } from './db.js';

export interface ColumnMeta {
  key: string;
  name: string;
  type: ColumnType;
  data: Record<string, unknown> | null;
  width: number;
  editable: boolean;
  resizable: boolean;
  draggable: boolean;
  permission_type: string;
  permitted_users: string[];
  description: string | null;
  /** Set by freeze_column (metadata only). */
  frozen?: boolean;
}

/**
 * A view's filter as stored: what the client sent, its column named by key. The predicate is
 * kept as written (`equal`, `is empty`…) so the view reads back as created; view-query.ts
 * reads its meaning.
 */
export interface ViewFilter {
  column_key: string;
  filter_predicate: string;
  filter_term: unknown;
  filter_term_modifier?: string;
}
/** A sort or group of a view: `up` ascending, `down` descending. */
export interface ViewSort {
  column_key: string;
  sort_type: 'up' | 'down';
  [extra: string]: unknown;
}

export interface ViewMeta {
  _id: string;
  name: string;
  /** `table`, or `archive` for a big-data view. */
  type: string;
  /** Absent in bases saved before views could be locked. */
  is_locked?: boolean;
  filter_conjunction: 'And' | 'Or';
  filters: ViewFilter[];
  sorts: ViewSort[];
  /** Absent in bases saved before groups were kept. */
  groupbys?: ViewSort[];
  /** Column keys the view does not show. */
  hidden_columns: string[];
}

export interface TableMeta {
  _id: string;
  name: string;
  /** Physical SQLite table holding the rows. */
  phys: string;
  columns: ColumnMeta[];
  views: ViewMeta[];
}

export interface BaseMeta {
  tables: TableMeta[];
  nextPhys: number;
  format_version: number;
}

export interface Base {
  uuid: string;
  name: string;
  workspaceId: number;
  meta: BaseMeta;
  /** Bumped on every write; the gateway's "base unchanged" cache keys on it (ROUTE-7). */
  version: number;
  /** The base's own database: its rows, links and structure (base-db.ts), and where its SQL runs. */
  db: Db;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 4-character ids as the real service uses for tables, views and columns; `0000` first. */
export function shortId(taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has('0000')) return '0000';
  for (;;) {
    const bytes = randomBytes(4);
    let id = '';
    for (const b of bytes) id += ALNUM[b % ALNUM.length];
    if (!used.has(id)) return id;
  }
}

/** Random bytes drawn in blocks: one draw per row id would cost a call into the CSPRNG each. */
let pool = Buffer.alloc(0);
let poolAt = 0;
const ID_BYTES = 17;

/** 22-character row ids, `[A-Za-z0-9_-]` (api-shapes §2). */
export function newRowId(): string {
  if (poolAt + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * 1024);
    poolAt = 0;
  }
  poolAt += ID_BYTES;
  return pool.toString('base64url', poolAt - ID_BYTES, poolAt).slice(0, 22);
}

export const physColumn = (key: string) => `c_${key}`;

export function findTable(meta: BaseMeta, nameOrId: string | undefined): TableMeta | undefined {
  if (nameOrId === undefined) return undefined;
  return meta.tables.find((t) => t.name === nameOrId) ?? meta.tables.find((t) => t._id === nameOrId);
}

export function findColumn(table: TableMeta, nameOrKey: string): ColumnMeta | undefined {
  return table.columns.find((c) => c.name === nameOrKey) ?? table.columns.find((c) => c.key === nameOrKey);
}

export function newColumn(
  key: string,
  name: string,
  type: ColumnType,
  data: Record<string, unknown> | null,
): ColumnMeta {
  return {
    key,
    name,
    type,
    data,
    width: 200,
    editable: true,
    resizable: true,
    draggable: true,
    permission_type: '',
    permitted_users: [],
    description: null,
  };
}

export function defaultView(id = '0000'): ViewMeta {
  return {
    _id: id,
    name: 'Default View',
    type: 'table',
    is_locked: false,
    filter_conjunction: 'And',
    filters: [],
    sorts: [],
    groupbys: [],
    hidden_columns: [],
  };
}

/** Timestamps as the real service writes them: `2021-03-10T16:19:31.761+00:00`. */
export const isoNow = (ms = Date.now()) => new Date(ms).toISOString().replace('Z', '+00:00');

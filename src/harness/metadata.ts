/**
 * A base's structure as `GET metadata/` shows it: its tables, each with its columns and views.
 * The one reader of that answer for checks, fixtures and sweeps. An answer that is no 2xx or
 * lists no tables is a missing fixture (the check that needed it errs, never fails).
 */
import { fixtureMissing, setupOk } from './outcome.js';
import type { Target } from './target.js';

export interface ColumnInfo {
  key: string;
  name: string;
  type: string;
  width?: unknown;
  frozen?: unknown;
  data?: Record<string, unknown> | null;
}
export interface ViewInfo {
  _id?: string;
  name: string;
  filters?: unknown;
  sorts?: unknown;
  hidden_columns?: unknown;
  [k: string]: unknown;
}
export interface TableInfo {
  _id?: string;
  name: string;
  columns: ColumnInfo[];
  views: ViewInfo[];
}

/** All tables of the base as metadata/ lists them (columns and views always lists). */
export async function tablesOf(target: Target, base = 0): Promise<TableInfo[]> {
  const r = await target.gw(base, 'GET', 'metadata/');
  setupOk(r, 'GET metadata/');
  const tables = r.json<{ metadata?: { tables?: TableInfo[] } }>().metadata?.tables;
  if (!Array.isArray(tables)) throw fixtureMissing('GET metadata/ answered no tables list');
  return tables.map((t) => ({
    ...t,
    columns: Array.isArray(t.columns) ? t.columns : [],
    views: Array.isArray(t.views) ? t.views : [],
  }));
}

/** One table by name; undefined when metadata/ does not list it. */
export async function findTableInfo(target: Target, name: string, base = 0): Promise<TableInfo | undefined> {
  return (await tablesOf(target, base)).find((t) => t.name === name);
}

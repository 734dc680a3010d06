/**
 * What the CLIENT checks share: scratch tables made through the client's own addTable (named
 * with the run's prefix, dropped by the harness when the check ends, whatever happened),
 * rows made through it, the scope skip, and readers of the client's answers.
 */
import { randomBytes } from 'node:crypto';
import { fixtureMissing } from '../outcome.js';
import { existingTable } from '../tables.js';
import type { Target } from '../target.js';
import { test } from '../test.js';
import type { RunState } from '../state.js';
import { groupOutOfScope } from './scope.js';
import type { OfficialClient } from './session.js';
import type { TableInfo } from './sdk.js';

export type Row = Record<string, unknown>;
interface ColumnDef {
  column_name: string;
  column_type: string;
  column_data?: Record<string, unknown>;
}

/** Skip the check unless every one of `methods` is in scope (documented, offered by the release). */
export function inScope(state: RunState, ...methods: string[]): void {
  const why = groupOutOfScope(state, methods);
  test.skip(why !== undefined, why ?? '');
}

/**
 * A table name of the run's prefix. The client writes table and view names into URLs without
 * encoding them: the names stay in `[A-Za-z0-9_]`.
 */
export function tableName(state: RunState, label: string): string {
  return `${state.tablePrefix}client_${label}_${randomBytes(2).toString('hex')}`;
}

/** Run `fn` on new tables made with the client's addTable; they are dropped afterwards in any case. */
export async function withTables(
  c: OfficialClient,
  target: Target,
  tables: Record<string, ColumnDef[]>,
  fn: (names: Record<string, string>) => Promise<void>,
): Promise<void> {
  const names = Object.fromEntries(Object.keys(tables).map((label) => [label, tableName(target.state, label)]));
  try {
    for (const [label, columns] of Object.entries(tables))
      await c.setup(`addTable(${label})`, (b) => b.addTable(names[label]!, 'en', columns));
    await fn(names);
  } finally {
    for (const name of Object.values(names).reverse()) await existingTable(target, name).drop();
  }
}

export async function withTable(
  c: OfficialClient,
  target: Target,
  label: string,
  columns: ColumnDef[],
  fn: (name: string) => Promise<void>,
): Promise<void> {
  await withTables(c, target, { [label]: columns }, (names) => fn(names[label]!));
}

/** Rows appended one by one with the client's appendRow, for their ids. */
export async function rowsMade(c: OfficialClient, table: string, rows: Row[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const made = await c.setup(`appendRow(${table})`, (b) => b.appendRow(table, row));
    if (typeof made?._id !== 'string')
      throw fixtureMissing(`appendRow(${table}) answered no _id: ${JSON.stringify(made).slice(0, 200)}`);
    ids.push(made._id);
  }
  return ids;
}

/** The table as the client's getTableByName gives it, for setup: its id and column keys. */
export async function tableInfo(c: OfficialClient, name: string): Promise<TableInfo> {
  const t = await c.setup(`getTableByName(${name})`, (b) => b.getTableByName(name));
  if (!t || !('columns' in t) || !Array.isArray(t.columns))
    throw fixtureMissing(`getTableByName(${name}) gave no table with columns`);
  return t as TableInfo;
}

export function keyOf(t: TableInfo, column: string): string {
  const key = t.columns.find((col) => col.name === column)?.key;
  if (typeof key !== 'string') throw fixtureMissing(`table ${t.name} has no column ${column} in the client's metadata`);
  return key;
}

/** getTableByName's "no such table": undefined, or `{}` when the base has no tables at all. */
export const absent = (t: unknown) =>
  t === undefined || (t !== null && typeof t === 'object' && Object.keys(t).length === 0);

/**
 * Row ids of a link cell, sorted; an empty cell is []. From 5.0 a cell is `[{row_id,
 * display_value}]`; before, a comma-joined string of display values (SHAPE-2), read back
 * to ids through `idOfDisplay`.
 */
export function linkedIds(cell: unknown, idOfDisplay: Readonly<Record<string, string>> = {}): string[] {
  if (typeof cell === 'string')
    return cell === ''
      ? []
      : cell
          .split(', ')
          .map((v) => idOfDisplay[v] ?? v)
          .sort();
  if (!Array.isArray(cell)) return [];
  return cell
    .map((x) => (x && typeof x === 'object' ? (x as { row_id?: unknown }).row_id : x))
    .map(String)
    .sort();
}

/** Rows by id, each reduced to `columns`. */
export function pick(rows: Row[], columns: readonly string[]): Record<string, Row> {
  return Object.fromEntries(rows.map((r) => [String(r._id), Object.fromEntries(columns.map((k) => [k, r[k]]))]));
}

/**
 * What the base-structure checks (BASE-1…4) share: a table's structure as metadata/ shows it,
 * its select options, and a view made for a check that is not about views. Structure read
 * for a check's own setup that cannot be had is a missing fixture (the check errs, never
 * fails); the checks assert what they are about themselves.
 */
import { endpoint, offeredAt } from '../spec/index.js';
import { findTableInfo, type ColumnInfo, type TableInfo } from './metadata.js';
import { fixtureMissing, setupOk } from './outcome.js';
import type { RunState } from './state.js';
import type { Scratch } from './tables.js';
import type { Target } from './target.js';
import { test } from './test.js';

export type { ColumnInfo, TableInfo, ViewInfo } from './metadata.js';
export { tablesOf } from './metadata.js';

/** Skip unless the release the run holds the target to offers every operation the check calls. */
export function needsOperations(state: RunState, ...ids: string[]): void {
  const missing = ids.filter((id) => !offeredAt(endpoint(id), state.apiVersion));
  test.skip(missing.length > 0, `release ${state.apiVersion} does not offer ${missing.join(', ')}`);
}

/** A scratch table's structure; a missing one is a missing fixture. */
export async function tableInfo(target: Target, t: Scratch): Promise<TableInfo> {
  const info = await findTableInfo(target, t.name, t.base);
  if (!info) throw fixtureMissing(`metadata/ does not list the table ${t.name} this check created`);
  return info;
}

export function columnNamed(info: TableInfo, name: string): ColumnInfo {
  const col = info.columns.find((c) => c.name === name);
  if (!col || typeof col.key !== 'string')
    throw fixtureMissing(`metadata/ lists no column ${name} (with a key) in ${info.name}`);
  return col;
}

interface OptionInfo {
  id?: unknown;
  name?: unknown;
  color?: unknown;
  textColor?: unknown;
}
export const optionsOf = (col: ColumnInfo | undefined): OptionInfo[] =>
  Array.isArray(col?.data?.options) ? (col.data.options as OptionInfo[]) : [];
/** An option id as clients use it: a non-empty string (or number, where a server writes them so). */
export const isOptionId = (id: unknown) =>
  (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id));

/**
 * A view with these settings for a check about something else (BASE-2 lists columns by
 * view): the table named in the query and the body, the settings sent at creation and, when
 * the created view does not carry them, once more through an update (the documented way).
 */
export async function viewWith(
  target: Target,
  t: Scratch,
  name: string,
  settings: Record<string, unknown>,
): Promise<void> {
  const query = { table_name: t.name };
  const r = await target.gw(t.base, 'POST', 'views/', {
    query,
    json: { table_name: t.name, name, type: 'table', ...settings },
  });
  setupOk(r, `create view ${name}`);
  const made = r.json<Record<string, unknown>>();
  const carried = Object.keys(settings).every((k) => JSON.stringify(made[k]) === JSON.stringify(settings[k]));
  if (!carried)
    setupOk(
      await target.gw(t.base, 'PUT', `views/${encodeURIComponent(name)}/`, {
        query,
        json: { table_name: t.name, ...settings },
      }),
      `configure view ${name}`,
    );
}

/** Values of one column in rows, by row id (a missing cell reads as null). */
export function byId(rows: Record<string, unknown>[], column: string): Map<string, unknown> {
  return new Map(rows.map((r) => [String(r._id), r[column] ?? null]));
}

export const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v)?.slice(0, 160));

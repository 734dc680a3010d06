/**
 * The run's own tables in the target's bases, created through the gateway's tables/ and
 * columns/ endpoints and named with the run's prefix: one with every column type, linked
 * to a second. Removed at the end of the run — also on failure and on SIGINT — and
 * `conformance clean` sweeps what earlier runs left.
 */
import { COLUMNS, COLUMN_TYPES } from '../spec/index.js';
import type { RunState } from '../harness/state.js';
import type { Target } from '../harness/target.js';
import { PREFIX_RE } from '../common/run-id.js';

/** The run's id and table prefix (shared with the load scripts). */
export { PREFIX_RE, newRunId } from '../common/run-id.js';

/** Column definitions of the every-type table, in creation order; link columns come after. */
export function typeColumns(): { column_name: string; column_type: string; column_data?: Record<string, unknown> }[] {
  return COLUMN_TYPES.filter((t) => !['link', 'link-formula'].includes(t)).map((t) => ({
    column_name: t === 'text' ? 'Name' : `c ${t}`,
    column_type: t,
    ...(t === 'formula' ? { column_data: { formula: '{c number} * 2' } } : COLUMNS[t].data ? { column_data: COLUMNS[t].data } : {}),
  }));
}

async function ok(target: Target, method: string, sub: string, json: unknown, what: string): Promise<unknown> {
  const r = await target.gw(0, method, sub, { json });
  if (r.status !== 200 && r.status !== 201) throw new Error(`${what}: status ${r.status}: ${r.text.slice(0, 300)}`);
  return r.json();
}

export async function createFixtures(target: Target, prefix: string): Promise<NonNullable<RunState['fixtures']>> {
  const linked = `${prefix}linked`;
  const types = `${prefix}types`;
  await ok(target, 'POST', 'tables/', { table_name: linked, columns: [{ column_name: 'Name', column_type: 'text' }, { column_name: 'Score', column_type: 'number' }] }, `create table ${linked}`);
  await ok(target, 'POST', 'tables/', { table_name: types, columns: typeColumns() }, `create table ${types}`);
  await ok(target, 'POST', 'columns/', { table_name: types, column_name: 'c link', column_type: 'link', column_data: { table: types, other_table: linked } }, 'add the link column');
  await ok(target, 'POST', 'columns/', { table_name: types, column_name: 'c link-formula', column_type: 'link-formula', column_data: { formula: 'count_links', link_column: 'c link' } }, 'add the count link-formula column');
  await ok(target, 'POST', 'columns/', { table_name: types, column_name: 'c lookup', column_type: 'link-formula', column_data: { formula: 'lookup', link_column: 'c link', level1_linked_column: 'Score' } }, 'add the lookup link-formula column');
  return { types, linked };
}

/** Delete every table whose name starts with `prefix` (or matches the run pattern and is older than `olderThanMs`). */
export async function sweepTables(target: Target, match: (name: string) => boolean): Promise<string[]> {
  const removed: string[] = [];
  for (let i = 0; i < target.state.target.bases.length; i++) {
    const r = await target.gw(i, 'GET', 'metadata/', { allowTransportError: false }).catch(() => undefined);
    if (!r || r.status !== 200) continue;
    const tables = (r.json<{ metadata?: { tables?: { name: string }[] } }>().metadata?.tables ?? []).map((t) => t.name);
    for (const name of tables.filter(match)) {
      const d = await target.gw(i, 'DELETE', 'tables/', { json: { table_name: name } }).catch(() => undefined);
      if (d?.status === 200) removed.push(name);
    }
  }
  return removed;
}

export function olderThan(name: string, ms: number, now = Date.now()): boolean {
  const m = PREFIX_RE.exec(name);
  if (!m) return false;
  const s = m[1]!;
  const t = Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8), +s.slice(8, 10), +s.slice(10, 12), +s.slice(12, 14));
  return now - t >= ms;
}

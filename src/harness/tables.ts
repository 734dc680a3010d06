/**
 * Scratch tables for checks that need rows of their own: named with the run's prefix (so
 * the end-of-run sweep and `conformance clean` find them) and dropped when the check ends.
 */
import { randomBytes } from 'node:crypto';
import { fixtureMissing, setupOk, Undecided } from './outcome.js';
import type { Target } from './target.js';
import { sqlBody } from './release-forms.js';

export interface Column {
  column_name: string;
  column_type: string;
  column_data?: Record<string, unknown>;
}

export interface Scratch {
  base: number;
  name: string;
  drop(): Promise<void>;
}

/**
 * A handle on a table of the run's prefix. Its drop does not throw: the check's outcome is
 * decided by then, and a table it could not drop is swept at the end of the run, which says
 * what it could not remove.
 */
export function existingTable(target: Target, name: string, base = 0): Scratch {
  return {
    base,
    name,
    async drop() {
      await target.gw(base, 'DELETE', 'tables/', { json: { table_name: name } }).catch(() => undefined);
    },
  };
}

export async function scratchTable(
  target: Target,
  label: string,
  columns: Column[] = [{ column_name: 'Name', column_type: 'text' }],
  base = 0,
): Promise<Scratch> {
  const name = `${target.state.tablePrefix}${label}_${randomBytes(2).toString('hex')}`;
  setupOk(await target.gw(base, 'POST', 'tables/', { json: { table_name: name, columns } }), `create table ${name}`);
  return existingTable(target, name, base);
}

/** Append rows in batches of `batch`; returns their ids in order. */
export async function appendAll(
  target: Target,
  t: Scratch,
  rows: Record<string, unknown>[],
  batch = 1000,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += batch) {
    const r = await target.gw(t.base, 'POST', 'rows/', {
      json: { table_name: t.name, rows: rows.slice(i, i + batch) },
    });
    setupOk(r, `append rows to ${t.name}`);
    const body = r.json<{ row_ids?: { _id: string }[] }>();
    ids.push(...(body.row_ids ?? []).map((x) => x._id));
  }
  return ids;
}

/** Row count through SQL (independent of the list endpoint's 1,000-row cap). */
export async function countRows(
  target: Target,
  t: Scratch,
  where = '',
  values: (string | number)[] = [],
): Promise<number> {
  const r = await target.gw(t.base, 'POST', 'sql/', {
    json: sqlBody(
      target.state.apiVersion,
      `SELECT COUNT(*) AS n FROM \`${t.name}\`${where ? ` WHERE ${where}` : ''}`,
      values,
    ),
  });
  setupOk(r, `count rows of ${t.name}`);
  const row = r.json<{ results?: Record<string, unknown>[] }>().results?.[0] ?? {};
  const n = Number(Object.values(row)[0]);
  if (!Number.isInteger(n))
    throw fixtureMissing(`count rows of ${t.name}: unexpected SQL answer ${r.text.slice(0, 200)}`);
  return n;
}

/** Rows as the list endpoint returns them, keyed by column names. */
export async function listRows(
  target: Target,
  t: Scratch,
  query: Record<string, string | number> = {},
): Promise<Record<string, unknown>[]> {
  const r = await target.gw(t.base, 'GET', 'rows/', { query: { table_name: t.name, convert_keys: 'true', ...query } });
  setupOk(r, `list rows of ${t.name}`);
  const rows = r.json<{ rows?: Record<string, unknown>[] }>().rows;
  if (!Array.isArray(rows)) throw new Undecided('shape', `list rows of ${t.name}: answer has no rows array`);
  return rows;
}

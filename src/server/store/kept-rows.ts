/**
 * The row list's JSON, kept row by row between calls (issue 13): a list whose query string is
 * new but whose data is not (the next page, a cache-busting parameter) then fetches, decodes
 * and serialises only the rows it has not seen. Which rows it lists is still asked of SQLite
 * each time (their ids only), so view filters and sorts, even those relative to today, apply.
 *
 * The kept rows live in the base's entry of the gateway's response cache (context.ts), so they
 * go with the base's version as its cached answers do: every write through the API moves it
 * (touch(base) after any write of rows, links or locks, by the rows API, SQL or big data;
 * saveMeta after any change of structure, views or options). And, like those answers, they
 * are never served where that cache never answers: the selftest's coverage run must see the
 * fault queries of every row it lists (src/mutants/coverage.ts).
 * Beside the version, kept rows of a table are valid only while:
 * - the count of changed rows of both connections, the base's and the accounts' (SQLite's
 *   total_changes()), is the same: any INSERT,
 *   UPDATE or DELETE counts, even one that leaves the version alone — the mutant stale-cache
 *   does so on purpose, and must keep fooling the answers cached by URL (ROUTE-7) only;
 * - the table is the same object: a structure restored after a refused change, or a deleted
 *   table made again under its name and id, is never taken for the one kept.
 */
import type { ReadContext } from './cells.js';
import { cachedStatement } from './db.js';
import type { Base, TableMeta } from './model.js';

/** Listed rows run to about 400 characters of JSON: some 40,000 rows kept per base. */
const MAX_CHARS = 16 * 1024 * 1024;

/** The JSON of one table's rows in one shape (keys by name or key, hidden columns left out), by row id. */
interface Kept {
  table: TableMeta;
  changes: number;
  rows: Map<string, string>;
  chars: number;
}

/** A base's kept rows, by table and shape, least recently used first. */
export interface KeptRows {
  tables: Map<string, Kept>;
  chars: number;
}

export const noKeptRows = (): KeptRows => ({ tables: new Map(), chars: 0 });

const changesOf = (db: ReadContext['db']) => (cachedStatement(db, 'SELECT total_changes()', true).get() as [number])[0];
/** Each count only grows, so their sum moves whenever either does. */
const totalChanges = (ctx: ReadContext, base: Base) => changesOf(ctx.db) + changesOf(base.db);

/** The kept rows of `table` in `shape` (now the most recently used), emptied if anything may have changed since they were kept. */
function keptOf(ctx: ReadContext, base: Base, baseRows: KeptRows, table: TableMeta, shape: string): Kept {
  const key = `${table._id}\0${shape}`;
  const changes = totalChanges(ctx, base);
  let kept = baseRows.tables.get(key);
  if (kept) {
    baseRows.tables.delete(key);
    if (kept.table !== table || kept.changes !== changes) {
      baseRows.chars -= kept.chars;
      kept = undefined;
    }
  }
  kept ??= { table, changes, rows: new Map(), chars: 0 };
  baseRows.tables.set(key, kept);
  return kept;
}

/**
 * The JSON of the rows a list shows, in its order. `listed()` answers the ids of those rows;
 * `load(ids)` reads rows and answers [id, JSON] pairs: of the rows `ids`, or of the list itself
 * when nothing is kept (one read then, as without kept rows).
 */
export function listedJson(
  ctx: ReadContext,
  base: Base,
  baseRows: KeptRows,
  table: TableMeta,
  shape: string,
  listed: () => string[],
  load: (ids?: string[]) => [string, string][],
): string[] {
  const kept = keptOf(ctx, base, baseRows, table, shape);
  const keep = (pairs: [string, string][]) => {
    for (const [id, json] of pairs) {
      kept.rows.set(id, json);
      kept.chars += json.length;
      baseRows.chars += json.length;
    }
  };
  let out: string[];
  if (kept.rows.size === 0) {
    const pairs = load();
    keep(pairs);
    out = pairs.map((p) => p[1]);
  } else {
    const ids = listed();
    const missing = ids.filter((id) => !kept.rows.has(id));
    if (missing.length) keep(load(missing));
    out = ids.map((id) => kept.rows.get(id)!);
  }
  for (const [key, oldest] of baseRows.tables) {
    if (baseRows.chars <= MAX_CHARS) break;
    baseRows.tables.delete(key);
    baseRows.chars -= oldest.chars;
  }
  return out;
}

/**
 * Reading rows: from physical SQLite rows to the API's row objects. Stored columns are
 * decoded; links, link formulas, formulas and the row-internal column types are computed.
 * The shapes follow the emulated release (SHAPE-1..3, §9 5.0).
 */
import type { Behaviour } from '../../spec/index.js';
import type { Db } from './db.js';
import { evaluateFormula } from './formula.js';
import { linkData, linkedIds, linkSide } from './links.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import { decodeValue } from './values.js';

export type PhysRow = Record<string, unknown> & { _id: string };
export type ApiRow = Record<string, unknown>;

export interface ReadOptions {
  /** Key the row by column names (`convert_keys=true`) or by column keys. */
  byName: boolean;
  /** Single-row read: omit `_ctime`/`_mtime` where the table defines ctime/mtime columns (SHAPE-5). */
  single?: boolean;
}

export interface ReadContext {
  db: Db;
  behaviour: Readonly<Behaviour>;
  faults: ReadonlySet<string>;
}

const INTERNAL_OF_TYPE: Partial<Record<string, string>> = { ctime: '_ctime', mtime: '_mtime', creator: '_creator', 'last-modifier': '_last_modifier' };

function fetchByIds(db: Db, table: TableMeta, ids: string[]): Map<string, PhysRow> {
  const rows = db.prepare(`SELECT * FROM ${table.phys} WHERE _id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as PhysRow[];
  return new Map(rows.map((r) => [r._id, r]));
}

/** Values of the linked rows for every link column of the table: row id → linked [{row_id, display_value}]. */
function linkValues(ctx: ReadContext, base: Base, table: TableMeta, col: ColumnMeta, rowIds: string[]) {
  const ids = linkedIds(ctx.db, base, col, table, rowIds);
  const other = base.meta.tables.find((t) => t._id === linkSide(col, table).otherTableId);
  const all = [...new Set([...ids.values()].flat())];
  const otherRows = other && all.length ? fetchByIds(ctx.db, other, all) : new Map<string, PhysRow>();
  return { ids, other, otherRows };
}

function displayOf(other: TableMeta | undefined, row: PhysRow | undefined, key?: string): unknown {
  if (!other || !row) return null;
  const col = other.columns.find((c) => c.key === key) ?? other.columns[0];
  if (!col) return null;
  const internal = INTERNAL_OF_TYPE[col.type];
  return internal ? row[internal] : decodeValue(col, row[physColumn(col.key)]);
}

export function materialise(ctx: ReadContext, base: Base, table: TableMeta, phys: PhysRow[], opts: ReadOptions): ApiRow[] {
  const b = ctx.behaviour;
  const rowIds = phys.map((r) => r._id);
  const out: ApiRow[] = phys.map((r) => {
    const row: ApiRow = { _id: r._id, _ctime: r._ctime, _mtime: r._mtime, _creator: r._creator ?? null, _last_modifier: r._last_modifier ?? null, _locked: null, _locked_by: null, _archived: r._archived ? true : false };
    return row;
  });
  const hasTimeColumns = table.columns.some((c) => c.type === 'ctime' || c.type === 'mtime');
  // Values by column key first; formulas and link formulas need the stored ones.
  const byKey: Map<string, unknown>[] = phys.map(() => new Map());
  const links = new Map<string, ReturnType<typeof linkValues>>();
  for (const col of table.columns) {
    const internal = INTERNAL_OF_TYPE[col.type];
    if (col.type === 'link') links.set(col.key, linkValues(ctx, base, table, col, rowIds));
    phys.forEach((r, i) => {
      let v: unknown;
      if (internal) v = r[internal] ?? null;
      else if (col.type === 'link') {
        const l = links.get(col.key)!;
        const ids = l.ids.get(r._id) ?? [];
        const d = linkData(col);
        const displayKey = d.table_id === table._id ? d.display_column_key : undefined;
        const objects = ids.map((id) => ({ row_id: id, display_value: displayOf(l.other, l.otherRows.get(id), displayKey) }));
        if (ctx.faults.has('links-as-string')) v = objects.map((o) => String(o.display_value ?? '')).join(', ');
        else if (b.linkObjects) v = objects;
        else v = objects.length ? objects.map((o) => String(o.display_value ?? '')).join(', ') : null;
      } else if (col.type !== 'formula' && col.type !== 'link-formula') v = decodeValue(col, r[physColumn(col.key)]);
      byKey[i]!.set(col.key, v);
    });
  }
  for (const col of table.columns.filter((c) => c.type === 'link-formula')) {
    phys.forEach((r, i) => byKey[i]!.set(col.key, linkFormula(ctx, base, table, col, links, r)));
  }
  for (const col of table.columns.filter((c) => c.type === 'formula')) {
    const src = String(col.data?.formula ?? '');
    phys.forEach((_, i) => {
      const values = byKey[i]!;
      values.set(col.key, evaluateFormula(src, (name) => {
        const c = table.columns.find((x) => x.name === name);
        return c ? values.get(c.key) : undefined;
      }));
    });
  }
  out.forEach((row, i) => {
    for (const col of table.columns) {
      const v = byKey[i]!.get(col.key) ?? null;
      if (v === null && !b.nullForUnset) continue;
      if (v === null && ctx.faults.has('omit-null')) continue;
      row[opts.byName ? col.name : col.key] = v;
    }
    if (opts.single && hasTimeColumns && b.rowGetOmitsTimes && !ctx.faults.has('keep-times-in-row-get')) {
      delete row._ctime;
      delete row._mtime;
    }
  });
  return out;
}

/** A link-formula cell: count, lookup, rollup, findmin/findmax over the linked rows (SHAPE-3). */
function linkFormula(ctx: ReadContext, base: Base, table: TableMeta, col: ColumnMeta, links: Map<string, ReturnType<typeof linkValues>>, r: PhysRow): unknown {
  const d = col.data ?? {};
  const linkCol = table.columns.find((c) => c.type === 'link' && (c.key === d.link_column_key || c.name === d.link_column || c.key === d.link_column));
  if (!linkCol) return null;
  const l = links.get(linkCol.key);
  if (!l) return null;
  const ids = l.ids.get(r._id) ?? [];
  const formula = String(d.formula ?? 'count_links');
  const typed = ctx.behaviour.linkFormulaTyped && !ctx.faults.has('link-formula-as-string');
  if (formula === 'count_links') return typed ? ids.length : String(ids.length);
  const target = l.other?.columns.find((c) => c.key === d.level1_linked_column_key || c.name === d.level1_linked_column || c.key === d.level1_linked_column);
  const values = ids.map((id) => displayOf(l.other, l.otherRows.get(id), target?.key)).filter((v) => v !== null && v !== undefined);
  const numbers = values.map(Number).filter((n) => Number.isFinite(n));
  let result: unknown;
  switch (formula) {
    case 'rollup': {
      const m = String(d.summary_method ?? 'sum');
      result = numbers.length === 0 ? null : m === 'max' ? Math.max(...numbers) : m === 'min' ? Math.min(...numbers) : m === 'average' ? numbers.reduce((a, x) => a + x, 0) / numbers.length : m === 'count' ? numbers.length : numbers.reduce((a, x) => a + x, 0);
      break;
    }
    case 'findmax': result = numbers.length ? [Math.max(...numbers)] : []; break;
    case 'findmin': result = numbers.length ? [Math.min(...numbers)] : []; break;
    default: result = values; // lookup
  }
  if (typed) return result;
  return Array.isArray(result) ? result.join(', ') : result === null ? null : String(result);
}

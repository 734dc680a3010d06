/**
 * Reading rows: from physical SQLite rows to the API's row objects. Stored columns are
 * decoded; links, link formulas, formulas and the row-internal column types are computed.
 * The shapes follow the emulated release (SHAPE-1..3, §9 5.0).
 *
 * Physical rows are fetched as arrays (`PhysRows`): the driver then builds no object
 * per row, and each API row is built once, in column order, from a per-call plan.
 */
import { INTERNAL_FIELD_OF_TYPE, type Behaviour } from '../../spec/index.js';
import { anyStore } from './big-data/store.js';
import { cachedStatement, type Db } from './db.js';
import { evaluateFormula } from './formula.js';
import { linkFormulaValue } from './link-formula.js';
import { linkData, linkedIds, linkSide } from './links.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import { decoderOf } from './values.js';
import type { Faults } from '../faults.js';

/** One physical row as an object (write paths, webhooks). */
export type PhysRow = Record<string, unknown> & { _id: string };
export type ApiRow = Record<string, unknown>;
/** Physical rows as arrays, with the column names of the statement that read them. */
export interface PhysRows {
  columns: string[];
  rows: unknown[][];
}

interface ReadOptions {
  /** Key the row by column names (`convert_keys=true`) or by column keys. */
  byName: boolean;
  /** Single-row read: omit `_ctime`/`_mtime` where the table defines ctime/mtime columns (SHAPE-5). */
  single?: boolean;
}

export interface ReadContext {
  db: Db;
  behaviour: Readonly<Behaviour>;
  faults: Faults;
}

/** Run a SELECT of whole physical rows, as arrays. */
export function fetchPhys(db: Db, sql: string, params: readonly unknown[]): PhysRows {
  const stmt = cachedStatement(db, sql, true);
  const rows = stmt.all(...params) as unknown[][];
  return { columns: stmt.columns().map((c) => c.name), rows };
}

const indexOf = (columns: readonly string[]) => new Map(columns.map((c, i) => [c, i]));

/** Linked rows of another table, by id, with a reader for their cells. */
interface Linked {
  other: TableMeta | undefined;
  ids: Map<string, string[]>;
  rows: Map<string, unknown[]>;
  at: Map<string, number>;
}

function linked(ctx: ReadContext, base: Base, table: TableMeta, col: ColumnMeta, rowIds: string[]): Linked {
  const ids = linkedIds(base, col, table, rowIds);
  return { ids, ...linkedRows(ctx, base, table, col, [...new Set([...ids.values()].flat())]) };
}

/** Rows `ids` of the table on the other side of `col`, from either store (linked rows may have moved to big data). */
function linkedRows(
  ctx: ReadContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  ids: string[],
): Omit<Linked, 'ids'> {
  const other = base.meta.tables.find((t) => t._id === linkSide(col, table).otherTableId);
  if (!other || !ids.length) return { other, rows: new Map(), at: new Map() };
  const phys = fetchPhys(
    base.db,
    `SELECT * FROM ${anyStore(base.db, other)} WHERE _id IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(ids)],
  );
  const at = indexOf(phys.columns);
  const id = at.get('_id')!;
  return { other, rows: new Map(phys.rows.map((r) => [r[id] as string, r])), at };
}

/** Display values of rows `ids` linked through `col` of `table`, as its link cells show them (query-links). */
export function linkDisplayValues(
  ctx: ReadContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  ids: string[],
): Map<string, unknown> {
  const l: Linked = { ids: new Map(), ...linkedRows(ctx, base, table, col, ids) };
  const d = linkData(col);
  const displayKey = d.table_id === table._id ? d.display_column_key : undefined;
  return new Map(ids.map((id) => [id, displayOf(l, id, displayKey)]));
}

/** The display value of a linked row: its display column (or first column), typed like that column. */
function displayOf(l: Linked, rowId: string, key?: string): unknown {
  const row = l.rows.get(rowId);
  if (!l.other || !row) return null;
  const col = l.other.columns.find((c) => c.key === key) ?? l.other.columns[0];
  if (!col) return null;
  const i = l.at.get(INTERNAL_FIELD_OF_TYPE[col.type] ?? physColumn(col.key));
  return i === undefined ? null : decoderOf(col)(row[i]);
}

type Kind = 'stored' | 'internal' | 'link' | 'computed';
interface Cell {
  col: ColumnMeta;
  out: string;
  kind: Kind;
  at: number;
  decode: (v: unknown) => unknown;
}

function planOf(table: TableMeta, at: Map<string, number>, byName: boolean): Cell[] {
  return table.columns.map((col) => {
    const internal = INTERNAL_FIELD_OF_TYPE[col.type];
    const kind: Kind = internal
      ? 'internal'
      : col.type === 'link'
        ? 'link'
        : col.type === 'formula' || col.type === 'link-formula'
          ? 'computed'
          : 'stored';
    return {
      col,
      out: byName ? col.name : col.key,
      kind,
      at: at.get(internal ?? physColumn(col.key)) ?? -1,
      decode: decoderOf(col),
    };
  });
}

export function materialise(
  ctx: ReadContext,
  base: Base,
  table: TableMeta,
  phys: PhysRows,
  opts: ReadOptions,
): ApiRow[] {
  const b = ctx.behaviour;
  const at = indexOf(phys.columns);
  const [iId, iCtime, iMtime, iCreator, iModifier, iArchived, iLocked, iLockedBy] = [
    '_id',
    '_ctime',
    '_mtime',
    '_creator',
    '_last_modifier',
    '_archived',
    '_locked',
    '_locked_by',
  ].map((n) => at.get(n) ?? -1) as [number, number, number, number, number, number, number, number];
  const plan = planOf(table, at, opts.byName);
  const rowIds = phys.rows.map((r) => r[iId] as string);
  const omitTimes =
    !!opts.single &&
    b.rowGetOmitsTimes &&
    table.columns.some((c) => c.type === 'ctime' || c.type === 'mtime') &&
    !ctx.faults.has('keep-times-in-row-get');
  const links = new Map<string, Linked>();
  for (const c of plan) if (c.kind === 'link') links.set(c.col.key, linked(ctx, base, table, c.col, rowIds));
  const linksAsString = links.size > 0 && (!b.linkObjects || ctx.faults.has('links-as-string'));

  const out = phys.rows.map((r): ApiRow => {
    const row: ApiRow = omitTimes
      ? {
          _id: r[iId],
          _creator: r[iCreator] ?? null,
          _last_modifier: r[iModifier] ?? null,
          _locked: r[iLocked] ? true : null,
          _locked_by: r[iLockedBy] ?? null,
          _archived: !!r[iArchived],
        }
      : {
          _id: r[iId],
          _ctime: r[iCtime],
          _mtime: r[iMtime],
          _creator: r[iCreator] ?? null,
          _last_modifier: r[iModifier] ?? null,
          _locked: r[iLocked] ? true : null,
          _locked_by: r[iLockedBy] ?? null,
          _archived: !!r[iArchived],
        };
    for (const c of plan) {
      switch (c.kind) {
        case 'stored':
          row[c.out] = c.at < 0 ? null : c.decode(r[c.at]);
          break;
        case 'internal':
          row[c.out] = c.at < 0 ? null : (r[c.at] ?? null);
          break;
        case 'link':
          row[c.out] = linkCell(
            links.get(c.col.key)!,
            c.col,
            table,
            r[iId] as string,
            linksAsString,
            ctx.faults.has('links-as-string'),
          );
          break;
        default:
          row[c.out] = null; // filled below, once the cells they read are known
      }
    }
    return row;
  });

  // Link formulas first: formulas may read them.
  const computed = plan
    .filter((c) => c.kind === 'computed')
    .sort((x, y) => Number(x.col.type === 'formula') - Number(y.col.type === 'formula'));
  if (computed.length) {
    const outByName = new Map(plan.map((c) => [c.col.name, c.out]));
    out.forEach((row, i) => {
      for (const c of computed) {
        if (c.col.type === 'link-formula') row[c.out] = linkFormula(ctx, table, c.col, links, rowIds[i]!);
        else {
          row[c.out] = evaluateFormula(String(c.col.data?.formula ?? ''), (name) => {
            const key = outByName.get(name);
            return key === undefined ? undefined : row[key];
          });
        }
      }
    });
  }
  // Before 5.0 a never-set value was left out (SHAPE-1).
  if (!b.nullForUnset || ctx.faults.has('omit-null')) {
    for (const row of out) for (const c of plan) if (row[c.out] === null) delete row[c.out];
  }
  // Mutant (SHAPE-1): columns the server fills itself (times, users, formula, auto-number) left out of row reads.
  if (ctx.faults.has('omit-computed'))
    for (const row of out)
      for (const c of plan)
        if (c.kind === 'internal' || c.col.type === 'formula' || c.col.type === 'auto-number') delete row[c.out];
  return out;
}

/** A link cell: `[{row_id, display_value}]` from 5.0, before a comma-joined string (SHAPE-2). */
function linkCell(
  l: Linked,
  col: ColumnMeta,
  table: TableMeta,
  rowId: string,
  asString: boolean,
  always: boolean,
): unknown {
  const ids = l.ids.get(rowId) ?? [];
  const d = linkData(col);
  const displayKey = d.table_id === table._id ? d.display_column_key : undefined;
  const objects = ids.map((id) => ({ row_id: id, display_value: displayOf(l, id, displayKey) }));
  if (!asString) return objects;
  return objects.length || always ? objects.map((o) => String(o.display_value ?? '')).join(', ') : null;
}

/** A link-formula cell: count, lookup, rollup, findmin/findmax over the linked rows (SHAPE-3). */
function linkFormula(
  ctx: ReadContext,
  table: TableMeta,
  col: ColumnMeta,
  links: Map<string, Linked>,
  rowId: string,
): unknown {
  const d = col.data ?? {};
  const linkCol = table.columns.find(
    (c) => c.type === 'link' && (c.key === d.link_column_key || c.name === d.link_column || c.key === d.link_column),
  );
  const l = linkCol && links.get(linkCol.key);
  if (!l) return null;
  const typed = ctx.behaviour.linkFormulaTyped && !ctx.faults.has('link-formula-as-string');
  return linkFormulaValue(d, l.other, l.ids.get(rowId) ?? [], (id, target) => displayOf(l, id, target?.key), typed);
}

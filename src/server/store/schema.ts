/**
 * Changing a base's structure: tables, columns, views. The structure is kept in memory
 * and saved as JSON in the base's own database (base-db.ts), where each table's rows get a physical table.
 */
import { isColumnType, type ColumnType } from '../../spec/index.js';
import { badRequest } from '../errors.js';
import { nameProblem } from '../text.js';
import { writeMeta } from './base-db.js';
import { dropBigStore } from './big-data/store.js';
import { qid, type Db } from './db.js';
import { checkFormula } from './formula.js';
import { linkFormulaData } from './link-formula.js';
import { dropLink, type LinkData } from './links.js';
import {
  defaultView,
  findColumn,
  findTable,
  newColumn,
  physColumn,
  shortId,
  type Base,
  type ColumnMeta,
  type TableMeta,
} from './model.js';
import { parseOptions, SELECT_TYPES } from './options.js';
import type { Faults } from '../faults.js';

/** What structure changes need: the database, and the fault switches (mutants) in force. */
export interface SchemaContext {
  db: Db;
  faults: Faults;
}

/** Column types with a physical SQLite column (the others are computed). */
export const STORED = (t: ColumnType) =>
  !['link', 'link-formula', 'formula', 'ctime', 'mtime', 'creator', 'last-modifier'].includes(t);

/** Save the structure in the base's database (in its transaction, if one is open); `accounts` (db.ts) lists the base as updated. */
export function saveMeta(accounts: Db, base: Base): void {
  writeMeta(base.db, base.meta);
  accounts.prepare('UPDATE bases SET updated_at = ? WHERE uuid = ?').run(new Date().toISOString(), base.uuid);
  base.version++;
}

/**
 * Run a change that may alter the base's structure in memory (a new option, column or table).
 * If it throws, the structure is restored, so a refused call leaves no trace (the enclosing
 * SQLite transaction rolls back the rows; this rolls back the metadata).
 */
export function withMetaRollback<T>(base: Base, fn: () => T): T {
  const saved = JSON.stringify(base.meta);
  try {
    return fn();
  } catch (e) {
    base.meta = JSON.parse(saved) as Base['meta'];
    throw e;
  }
}

export function createPhysTable(db: Db, phys: string): void {
  db.exec(`CREATE TABLE ${qid(phys)} (
    _id TEXT PRIMARY KEY NOT NULL DEFAULT (lower(hex(randomblob(11)))),
    _ctime TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    _mtime TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    _creator TEXT, _last_modifier TEXT, _archived INTEGER NOT NULL DEFAULT 0, _locked INTEGER, _locked_by TEXT)`);
  // SQL updates (SIZE-6) keep _mtime current without the SQL translator knowing about it.
  db.exec(`CREATE TRIGGER ${qid(phys + '_mtime')} AFTER UPDATE ON ${qid(phys)} FOR EACH ROW WHEN NEW._mtime = OLD._mtime
    BEGIN UPDATE ${qid(phys)} SET _mtime = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now') WHERE rowid = NEW.rowid; END`);
}

export interface ColumnInput {
  column_name?: unknown;
  column_type?: unknown;
  column_data?: unknown;
}

const dataError = (msg: string) => badRequest(`column_data: ${msg}`, 'gateway', { error_type: 'column_data_error' });

/** A column name a table can take: not empty, not reserved, not taken (by another column than `self`). */
export function checkColumnName(table: TableMeta, name: unknown, field = 'column_name', self?: ColumnMeta): string {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest(`${field} is required`);
  const bad = nameProblem(name);
  if (bad) throw badRequest(`${field} ${bad}`);
  if (name.startsWith('_')) throw badRequest(`column name ${name} is reserved`);
  if (table.columns.some((c) => c.name === name && c !== self))
    throw badRequest(`column ${name} exists`, 'gateway', { error_type: 'column_already_exists' });
  return name;
}

/**
 * The data and flags of a column of `type` in `table` from a client's column_data: formulas
 * checked, link-formula references keyed, select options given ids (the real service gives
 * every option one), auto-number defaults filled. Writes `col`; `col.key` must be set.
 */
export function applyColumnData(
  ctx: SchemaContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  type: ColumnType,
  raw: unknown,
): void {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
    throw dataError('must be an object');
  const data = { ...((raw as Record<string, unknown> | null | undefined) ?? {}) };
  col.type = type;
  col.data = Object.keys(data).length ? data : null;
  col.editable = !['formula', 'link-formula', 'ctime', 'mtime', 'creator', 'last-modifier'].includes(type);
  if (type === 'formula') {
    const err = checkFormula(
      String(data.formula ?? ''),
      table.columns.filter((c) => c !== col).map((c) => c.name),
    );
    if (err) throw dataError(`formula ${err}`);
  }
  if (type === 'link-formula') col.data = linkFormulaData(base, table, data);
  if (SELECT_TYPES.has(type) && data.options !== undefined) {
    data.options = parseOptions(data.options, [], 'column_data.options', !ctx.faults.has('select-options-without-ids')); // mutant (BASE-3): options without ids
  }
  if (type === 'auto-number')
    col.data = { format: '0000', digits: 4, prefix_type: null, prefix: null, max_used_auto_number: 0, ...data };
}

/** Validate a column definition against the table it is added to. */
function columnFrom(ctx: SchemaContext, base: Base, table: TableMeta, input: ColumnInput): ColumnMeta {
  const name = checkColumnName(table, input.column_name);
  const type = input.column_type ?? 'text';
  if (typeof type !== 'string' || !isColumnType(type))
    throw badRequest(`column_type ${JSON.stringify(type)} is not supported`);
  const col = newColumn(shortId(table.columns.map((c) => c.key)), name, type, null);
  applyColumnData(ctx, base, table, col, type, input.column_data);
  return col;
}

export function addPhysColumn(db: Db, table: TableMeta, col: ColumnMeta): void {
  if (STORED(col.type)) db.exec(`ALTER TABLE ${qid(table.phys)} ADD COLUMN ${qid(physColumn(col.key))}`);
}

/** A link column and its twin in the other table (the real service creates both). */
function addLinkColumns(ctx: SchemaContext, base: Base, table: TableMeta, input: ColumnInput): ColumnMeta {
  const data = (input.column_data ?? {}) as Record<string, unknown>;
  const other = findTable(base.meta, String(data.other_table ?? data.other_table_id ?? ''));
  if (!other)
    throw badRequest('column_data: other_table must name a table of the base', 'gateway', {
      error_type: 'column_data_error',
    });
  const col = columnFrom(ctx, base, table, { ...input, column_data: null });
  const linkId = shortId(
    base.meta.tables.flatMap((t) => t.columns.filter((c) => c.type === 'link').map((c) => String(c.data?.link_id))),
  );
  const link: LinkData = {
    link_id: linkId,
    table_id: table._id,
    other_table_id: other._id,
    display_column_key: other.columns[0]?.key ?? '0000',
    is_multiple: true,
  };
  col.data = { ...link, is_internal_link: true, is_row_from_view: false, other_view_id: '' };
  table.columns.push(col);
  if (other !== table) {
    let twinName = table.name;
    while (other.columns.some((c) => c.name === twinName)) twinName += ' (link)';
    const twin = newColumn(shortId(other.columns.map((c) => c.key)), twinName, 'link', {
      ...link,
      display_column_key: table.columns[0]?.key ?? '0000',
      is_internal_link: true,
      is_row_from_view: false,
      other_view_id: '',
    });
    other.columns.push(twin);
  }
  return col;
}

/** A new column, at the end or after the `anchor` column (name or key). */
export function addColumn(
  ctx: SchemaContext,
  base: Base,
  table: TableMeta,
  input: ColumnInput,
  anchor?: unknown,
): ColumnMeta {
  let col: ColumnMeta;
  const after =
    anchor === undefined || anchor === null || anchor === ''
      ? undefined
      : typeof anchor === 'string'
        ? findColumn(table, anchor)
        : undefined;
  if (anchor !== undefined && anchor !== null && anchor !== '' && !after)
    throw badRequest(`anchor_column ${JSON.stringify(anchor)} not found`);
  withMetaRollback(base, () =>
    base.db.transaction(() => {
      if (input.column_type === 'link') col = addLinkColumns(ctx, base, table, input);
      else {
        col = columnFrom(ctx, base, table, input);
        addPhysColumn(base.db, table, col);
        table.columns.push(col);
      }
      if (after)
        table.columns.splice(
          table.columns.indexOf(after) + 1,
          0,
          table.columns.splice(table.columns.indexOf(col), 1)[0]!,
        );
      saveMeta(ctx.db, base);
    })(),
  );
  return col!;
}

export function createTable(ctx: SchemaContext, base: Base, name: unknown, columns: unknown): TableMeta {
  const db = base.db;
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('table_name is required');
  const bad = nameProblem(name);
  if (bad) throw badRequest(`table_name ${bad}`);
  if (findTable(base.meta, name)) throw badRequest(`table ${name} exists`);
  if (columns !== undefined && !Array.isArray(columns)) throw badRequest('columns must be an array');
  const phys = `rows_${base.meta.nextPhys}_${base.uuid.replace(/-/g, '').slice(0, 8)}`;
  const table: TableMeta = {
    _id: shortId(base.meta.tables.map((t) => t._id)),
    name,
    phys,
    columns: [],
    views: [defaultView()],
  };
  const defs = (columns as ColumnInput[] | undefined)?.length
    ? (columns as ColumnInput[])
    : [{ column_name: 'Name', column_type: 'text' }];
  withMetaRollback(base, () =>
    db.transaction(() => {
      base.meta.nextPhys++;
      createPhysTable(db, phys);
      base.meta.tables.push(table);
      for (const def of defs) {
        if (typeof def !== 'object' || def === null) throw badRequest('each column must be an object');
        if (def.column_type === 'link') addLinkColumns(ctx, base, table, def);
        else {
          const col = columnFrom(ctx, base, table, def);
          addPhysColumn(db, table, col);
          table.columns.push(col);
        }
      }
      saveMeta(ctx.db, base);
    })(),
  );
  return table;
}

export function deleteTable(accounts: Db, base: Base, table: TableMeta): void {
  withMetaRollback(base, () =>
    base.db.transaction(() => {
      base.db.exec(`DROP TABLE IF EXISTS ${qid(table.phys)}`);
      dropBigStore(base.db, table);
      base.meta.tables = base.meta.tables.filter((t) => t !== table);
      for (const t of base.meta.tables) {
        const gone = t.columns.filter(
          (c) => c.type === 'link' && (c.data?.table_id === table._id || c.data?.other_table_id === table._id),
        );
        for (const c of gone) dropLink(base, String(c.data?.link_id));
        t.columns = t.columns.filter((c) => !gone.includes(c));
      }
      for (const c of table.columns.filter((x) => x.type === 'link')) dropLink(base, String(c.data?.link_id));
      saveMeta(accounts, base);
    })(),
  );
}

/**
 * Changing a base's structure: tables, columns, views. The structure is kept in memory
 * and saved as JSON in `bases.meta`; each table's rows get a physical table.
 */
import { isColumnType, type ColumnType } from '../../spec/index.js';
import { badRequest } from '../errors.js';
import { dropBigStore } from './big-data/store.js';
import { qid, type Db } from './db.js';
import { checkFormula } from './formula.js';
import { dropLink, type LinkData } from './links.js';
import { defaultView, findColumn, findTable, newColumn, physColumn, shortId, type Base, type ColumnMeta, type TableMeta, type ViewFilter, type ViewMeta } from './model.js';

/** Column types with a physical SQLite column (the others are computed). */
const STORED = (t: ColumnType) => !['link', 'link-formula', 'formula', 'ctime', 'mtime', 'creator', 'last-modifier'].includes(t);

export function saveMeta(db: Db, base: Base): void {
  db.prepare('UPDATE bases SET meta = ?, updated_at = ? WHERE uuid = ?').run(JSON.stringify(base.meta), new Date().toISOString(), base.uuid);
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

function createPhysTable(db: Db, phys: string): void {
  db.exec(`CREATE TABLE ${qid(phys)} (
    _id TEXT PRIMARY KEY NOT NULL DEFAULT (lower(hex(randomblob(11)))),
    _ctime TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    _mtime TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    _creator TEXT, _last_modifier TEXT, _archived INTEGER NOT NULL DEFAULT 0, _locked INTEGER, _locked_by TEXT)`);
  // SQL updates (SIZE-6) keep _mtime current without the SQL translator knowing about it.
  db.exec(`CREATE TRIGGER ${qid(phys + '_mtime')} AFTER UPDATE ON ${qid(phys)} FOR EACH ROW WHEN NEW._mtime = OLD._mtime
    BEGIN UPDATE ${qid(phys)} SET _mtime = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now') WHERE rowid = NEW.rowid; END`);
}

export interface ColumnInput { column_name?: unknown; column_type?: unknown; column_data?: unknown }

/** Validate a column definition against the table it is added to. */
function columnFrom(base: Base, table: TableMeta, input: ColumnInput): ColumnMeta {
  const name = input.column_name;
  const type = input.column_type ?? 'text';
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('column_name is required');
  if (typeof type !== 'string' || !isColumnType(type)) throw badRequest(`column_type ${JSON.stringify(type)} is not supported`);
  if (name.startsWith('_')) throw badRequest(`column name ${name} is reserved`);
  if (table.columns.some((c) => c.name === name)) throw badRequest(`column ${name} exists`);
  if (input.column_data !== undefined && input.column_data !== null && (typeof input.column_data !== 'object' || Array.isArray(input.column_data))) {
    throw badRequest('column_data must be an object', 'gateway', { error_type: 'column_data_error' });
  }
  const data = { ...((input.column_data as Record<string, unknown> | null | undefined) ?? {}) };
  const col = newColumn(shortId(table.columns.map((c) => c.key)), name, type, Object.keys(data).length ? data : null);
  if (type === 'formula') {
    const err = checkFormula(String(data.formula ?? ''), table.columns.map((c) => c.name));
    if (err) throw badRequest(`column_data: formula ${err}`, 'gateway', { error_type: 'column_data_error' });
    col.editable = false;
  }
  if (type === 'link-formula') {
    const link = table.columns.find((c) => c.type === 'link' && [c.name, c.key].includes(String(data.link_column ?? data.link_column_key)));
    if (!link) throw badRequest('column_data: link_column must name a link column of the table', 'gateway', { error_type: 'column_data_error' });
    data.link_column_key = link.key;
    data.formula ??= 'count_links';
    col.data = data;
    col.editable = false;
  }
  if (type === 'auto-number') col.data = { format: '0000', digits: 4, prefix_type: null, prefix: null, max_used_auto_number: 0, ...data };
  if (['ctime', 'mtime', 'creator', 'last-modifier', 'link-formula'].includes(type)) col.editable = false;
  return col;
}

function addPhysColumn(db: Db, table: TableMeta, col: ColumnMeta): void {
  if (STORED(col.type)) db.exec(`ALTER TABLE ${qid(table.phys)} ADD COLUMN ${qid(physColumn(col.key))}`);
}

/** A link column and its twin in the other table (the real service creates both). */
function addLinkColumns(db: Db, base: Base, table: TableMeta, input: ColumnInput): ColumnMeta {
  const data = (input.column_data ?? {}) as Record<string, unknown>;
  const other = findTable(base.meta, String(data.other_table ?? data.other_table_id ?? ''));
  if (!other) throw badRequest('column_data: other_table must name a table of the base', 'gateway', { error_type: 'column_data_error' });
  const col = columnFrom(base, table, { ...input, column_data: null });
  const linkId = shortId(base.meta.tables.flatMap((t) => t.columns.filter((c) => c.type === 'link').map((c) => String(c.data?.link_id))));
  const link: LinkData = { link_id: linkId, table_id: table._id, other_table_id: other._id, display_column_key: other.columns[0]?.key ?? '0000', is_multiple: true };
  col.data = { ...link, is_internal_link: true, is_row_from_view: false, other_view_id: '' };
  table.columns.push(col);
  if (other !== table) {
    let twinName = table.name;
    while (other.columns.some((c) => c.name === twinName)) twinName += ' (link)';
    const twin = newColumn(shortId(other.columns.map((c) => c.key)), twinName, 'link', { ...link, display_column_key: table.columns[0]?.key ?? '0000', is_internal_link: true, is_row_from_view: false, other_view_id: '' });
    other.columns.push(twin);
  }
  return col;
}

export function addColumn(db: Db, base: Base, table: TableMeta, input: ColumnInput): ColumnMeta {
  let col: ColumnMeta;
  withMetaRollback(base, () => db.transaction(() => {
    if (input.column_type === 'link') col = addLinkColumns(db, base, table, input);
    else {
      col = columnFrom(base, table, input);
      addPhysColumn(db, table, col);
      table.columns.push(col);
    }
    saveMeta(db, base);
  })());
  return col!;
}

export function createTable(db: Db, base: Base, name: unknown, columns: unknown): TableMeta {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('table_name is required');
  if (findTable(base.meta, name)) throw badRequest(`table ${name} exists`);
  if (columns !== undefined && !Array.isArray(columns)) throw badRequest('columns must be an array');
  const phys = `rows_${base.meta.nextPhys}_${base.uuid.replace(/-/g, '').slice(0, 8)}`;
  const table: TableMeta = { _id: shortId(base.meta.tables.map((t) => t._id)), name, phys, columns: [], views: [defaultView()] };
  const defs = (columns as ColumnInput[] | undefined)?.length ? (columns as ColumnInput[]) : [{ column_name: 'Name', column_type: 'text' }];
  withMetaRollback(base, () => db.transaction(() => {
    base.meta.nextPhys++;
    createPhysTable(db, phys);
    base.meta.tables.push(table);
    for (const def of defs) {
      if (typeof def !== 'object' || def === null) throw badRequest('each column must be an object');
      if (def.column_type === 'link') addLinkColumns(db, base, table, def);
      else {
        const col = columnFrom(base, table, def);
        addPhysColumn(db, table, col);
        table.columns.push(col);
      }
    }
    saveMeta(db, base);
  })());
  return table;
}

export function deleteTable(db: Db, base: Base, table: TableMeta): void {
  withMetaRollback(base, () => db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS ${qid(table.phys)}`);
    dropBigStore(db, table);
    base.meta.tables = base.meta.tables.filter((t) => t !== table);
    for (const t of base.meta.tables) {
      const gone = t.columns.filter((c) => c.type === 'link' && (c.data?.table_id === table._id || c.data?.other_table_id === table._id));
      for (const c of gone) dropLink(db, base, String(c.data?.link_id));
      t.columns = t.columns.filter((c) => !gone.includes(c));
    }
    for (const c of table.columns.filter((x) => x.type === 'link')) dropLink(db, base, String(c.data?.link_id));
    saveMeta(db, base);
  })());
}

const INTERNAL_TYPES = new Set(['ctime', 'mtime', 'creator', 'last-modifier']);
const PREDICATES = new Set(['is', 'is_not', 'contains', 'does_not_contain', 'is_empty', 'is_not_empty', 'greater', 'less', 'greater_or_equal', 'less_or_equal']);

export function createView(db: Db, base: Base, table: TableMeta, name: unknown, filters: unknown, conjunction: unknown): ViewMeta {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('name is required');
  if (table.views.some((v) => v.name === name)) throw badRequest(`view ${name} exists`);
  if (filters !== undefined && !Array.isArray(filters)) throw badRequest('filters must be an array');
  const parsed: ViewFilter[] = ((filters as Record<string, unknown>[] | undefined) ?? []).map((f) => {
    const col = f && typeof f === 'object' ? findColumn(table, String(f.column_name ?? f.column_key ?? '')) : undefined;
    if (!col) throw badRequest(`filter column ${JSON.stringify(f?.column_name ?? f?.column_key)} not found`);
    const predicate = String(f.filter_predicate ?? 'is');
    if (!PREDICATES.has(predicate)) throw badRequest(`filter_predicate ${predicate} is not supported`);
    // Computed columns have no stored value to compare in SQL.
    if (!STORED(col.type) && !INTERNAL_TYPES.has(col.type)) throw badRequest(`filter on column ${col.name} (${col.type}) is not supported`);
    const term = f.filter_term ?? null;
    if (term !== null && !['string', 'number', 'boolean'].includes(typeof term)) throw badRequest(`filter_term of column ${col.name} must be a string, number or boolean`);
    return { column_key: col.key, filter_predicate: predicate as ViewFilter['filter_predicate'], filter_term: term };
  });
  const view: ViewMeta = { ...defaultView(shortId(table.views.map((v) => v._id))), name, filters: parsed, filter_conjunction: conjunction === 'Or' ? 'Or' : 'And' };
  table.views.push(view);
  saveMeta(db, base);
  return view;
}

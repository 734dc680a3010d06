/**
 * PUT columns/ with `op_type: modify_column_type`: the column keeps its key, name and place,
 * takes the new type (and column_data, when given), and its values are converted (convert.ts
 * says how). The values are read as the API shows them — computed columns included — so a
 * formula or a link can become stored text. Checked before anything is written; one
 * transaction, the metadata restored if it fails.
 */
import { isColumnType } from '../../spec/index.js';
import { badRequest } from '../errors.js';
import { fetchPhys, materialise, type ReadContext } from './cells.js';
import { qid } from './db.js';
import { converter } from './convert.js';
import { dropLink } from './links.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import { SELECT_TYPES } from './options.js';
import { addPhysColumn, applyColumnData, saveMeta, STORED, withMetaRollback } from './schema.js';
import type { Stored } from './values.js';

/** The OpenAPI: a table's first column can only be one of these types. */
const FIRST_COLUMN_TYPES = new Set(['text', 'number', 'date', 'single-select', 'formula', 'auto-number']);

function nextAutoNumber(col: ColumnMeta): () => string {
  const d = col.data ?? (col.data = {});
  return () => {
    const n = Number(d.max_used_auto_number ?? 0) + 1;
    d.max_used_auto_number = n;
    const prefix = typeof d.prefix === 'string' && d.prefix ? `${d.prefix}-` : '';
    return `${prefix}${String(n).padStart(Number(d.digits ?? 4), '0')}`;
  };
}

export function modifyColumnType(
  ctx: ReadContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  type: unknown,
  data: unknown,
): ColumnMeta {
  if (typeof type !== 'string' || !isColumnType(type))
    throw badRequest(`new_column_type ${JSON.stringify(type ?? null)} is not supported`);
  if (type === 'link' && col.type !== 'link')
    throw badRequest('a column cannot become a link column: add a link column instead');
  if (table.columns[0] === col && !FIRST_COLUMN_TYPES.has(type))
    throw badRequest(`the first column of a table cannot be of type ${type}`);
  if (type === col.type && data === undefined) return col;
  // The column as it will be; select options carry over between select types unless new ones are given.
  const keepOptions = SELECT_TYPES.has(col.type) && SELECT_TYPES.has(type) && data === undefined;
  const next: ColumnMeta = { ...col, data: null };
  applyColumnData(ctx, base, table, next, type, keepOptions ? { ...col.data } : data);
  if (type === col.type && STORED(type)) {
    // Only the column_data changes: the values are the column's already.
    return withMetaRollback(base, () => {
      Object.assign(col, next);
      saveMeta(ctx.db, base);
      return col;
    });
  }
  return withMetaRollback(base, () =>
    base.db.transaction(() => {
      const phys = fetchPhys(base.db, `SELECT * FROM ${qid(table.phys)} ORDER BY rowid`, []);
      const rows = materialise(ctx, base, table, phys, { byName: false });
      const convert = converter(col, next);
      const autoNumber = type === 'auto-number' ? nextAutoNumber(next) : undefined;
      // Mutant (BASE-3): the type changes, the stored values stay as they were.
      const raw = ctx.faults.has('type-change-keeps-raw') && STORED(col.type) && STORED(type);
      const values: Stored[] = raw ? [] : rows.map((r) => (autoNumber ? autoNumber() : convert(r[col.key] ?? null)));
      if (col.type === 'link') {
        const linkId = String(col.data?.link_id);
        dropLink(base, linkId);
        for (const t of base.meta.tables)
          if (t !== table)
            t.columns = t.columns.filter((c) => !(c.type === 'link' && String(c.data?.link_id) === linkId));
      }
      if (STORED(col.type) && !STORED(type))
        base.db.exec(`ALTER TABLE ${qid(table.phys)} DROP COLUMN ${qid(physColumn(col.key))}`);
      if (!STORED(col.type) && STORED(type)) addPhysColumn(base.db, table, next);
      if (STORED(type) && !raw) {
        const set = base.db.prepare(`UPDATE ${qid(table.phys)} SET ${qid(physColumn(col.key))} = ? WHERE _id = ?`);
        rows.forEach((r, i) => set.run(values[i] ?? null, r._id));
      }
      Object.assign(col, next);
      saveMeta(ctx.db, base);
      return col;
    })(),
  );
}

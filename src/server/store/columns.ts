/**
 * Column operations besides creation (base_operations.yaml "Columns"): list, batch append,
 * rename, resize, freeze, move and delete. A column's values live under its key, so a rename
 * keeps them; resize, freeze and move change metadata only. Each change is checked before
 * anything is written and saved in one transaction (the base's version moves with it).
 */
import { badRequest, notFound } from '../errors.js';
import { qid } from './db.js';
import { dropLink } from './links.js';
import { findColumn, physColumn, shortId, type Base, type ColumnMeta, type TableMeta, type ViewMeta } from './model.js';
import {
  addColumn,
  addPhysColumn,
  checkColumnName,
  saveMeta,
  STORED,
  withMetaRollback,
  type ColumnInput,
  type SchemaContext,
} from './schema.js';
import { hiddenKeys } from './view-query.js';

export function columnOf(table: TableMeta, ref: unknown, field = 'column'): ColumnMeta {
  if (typeof ref !== 'string' || ref === '') throw badRequest(`${field} is required (a column name or key)`);
  const col = findColumn(table, ref);
  if (!col) throw notFound(`column ${ref} not found`);
  return col;
}

/** The table's columns, or those a view shows (api-shapes §2.1: a view lists its visible columns only). */
export function listColumns(ctx: SchemaContext, table: TableMeta, view: ViewMeta | undefined): ColumnMeta[] {
  const hidden = hiddenKeys(view);
  if (ctx.faults.has('list-columns-ignores-view')) return table.columns; // mutant (BASE-2)
  return table.columns.filter((c) => !hidden.has(c.key));
}

/** Several columns at once; formulas and links go through Insert Column (the OpenAPI says so). */
export function appendColumns(ctx: SchemaContext, base: Base, table: TableMeta, defs: unknown): ColumnMeta[] {
  if (!Array.isArray(defs) || defs.length === 0)
    throw badRequest('columns must be a non-empty array of {column_name, column_type, column_data}');
  return withMetaRollback(base, () =>
    base.db.transaction(() =>
      defs.map((def, i) => {
        if (def === null || typeof def !== 'object' || Array.isArray(def))
          throw badRequest(`columns[${i}] must be an object`);
        const t = (def as ColumnInput).column_type;
        if (t === 'link' || t === 'link-formula' || t === 'formula')
          throw badRequest(`columns[${i}]: ${String(t)} columns are added one at a time through Insert Column`);
        return addColumn(ctx, base, table, def as ColumnInput);
      }),
    )(),
  );
}

/** Formulas name columns as `{Name}`: a rename is carried into them. */
function renameInFormulas(table: TableMeta, from: string, to: string): void {
  for (const c of table.columns) {
    if (c.type === 'formula' && typeof c.data?.formula === 'string')
      c.data.formula = c.data.formula.split(`{${from}}`).join(`{${to}}`);
  }
}

export function renameColumn(
  ctx: SchemaContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  name: unknown,
): ColumnMeta {
  const to = checkColumnName(table, name, 'new_column_name', col);
  return withMetaRollback(base, () =>
    base.db.transaction(() => {
      const from = col.name;
      col.name = to;
      renameInFormulas(table, from, to);
      if (ctx.faults.has('rename-column-drops-values') && STORED(col.type)) {
        // Mutant (BASE-2): rename done as delete and re-create, the values lost with the old key.
        col.key = shortId(table.columns.map((c) => c.key));
        addPhysColumn(base.db, table, col);
      }
      saveMeta(ctx.db, base);
      return col;
    })(),
  );
}

/** Layout changes: width, frozen, position. Values are not touched. */
export function changeLayout(
  ctx: SchemaContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  op: 'resize_column' | 'freeze_column' | 'move_column',
  b: Record<string, unknown>,
): ColumnMeta {
  if (op === 'resize_column') {
    const w = b.new_column_width;
    if (typeof w !== 'number' || !Number.isInteger(w) || w < 1 || w > 10_000)
      throw badRequest('new_column_width must be an integer from 1 to 10000');
    if (!ctx.faults.has('resize-column-ignored')) col.width = w; // mutant (BASE-2): the width is not kept
  } else if (op === 'freeze_column') {
    if (typeof b.frozen !== 'boolean') throw badRequest('frozen must be a boolean');
    col.frozen = b.frozen;
  } else {
    const target = columnOf(table, b.target_column ?? b.target_column_key, 'target_column');
    // Moved to just after its target, every other column keeping its order.
    if (target !== col) {
      table.columns.splice(table.columns.indexOf(col), 1);
      table.columns.splice(table.columns.indexOf(target) + 1, 0, col);
    }
  }
  saveMeta(ctx.db, base);
  return col;
}

/** Views must not name a column that is gone. */
function forgetInViews(table: TableMeta, key: string): void {
  for (const v of table.views) {
    v.hidden_columns = v.hidden_columns.filter((k) => k !== key);
    v.filters = v.filters.filter((f) => f.column_key !== key);
    v.sorts = v.sorts.filter((s) => s.column_key !== key);
    v.groupbys = (v.groupbys ?? []).filter((s) => s.column_key !== key);
  }
}

/** Remove a column and its values; a link column takes its twin in the other table and its links with it. */
export function deleteColumn(ctx: SchemaContext, base: Base, table: TableMeta, col: ColumnMeta): void {
  if (table.columns[0] === col)
    throw badRequest(`column ${col.name} is the table's first column and cannot be deleted`);
  withMetaRollback(base, () =>
    base.db.transaction(() => {
      if (col.type === 'link') {
        const linkId = String(col.data?.link_id);
        dropLink(base, linkId);
        for (const t of base.meta.tables) {
          const gone = t.columns.filter((c) => c.type === 'link' && String(c.data?.link_id) === linkId);
          t.columns = t.columns.filter((c) => !gone.includes(c));
          for (const c of gone) forgetInViews(t, c.key);
        }
      } else {
        if (STORED(col.type)) base.db.exec(`ALTER TABLE ${qid(table.phys)} DROP COLUMN ${qid(physColumn(col.key))}`);
        table.columns = table.columns.filter((c) => c !== col);
        forgetInViews(table, col.key);
      }
      saveMeta(ctx.db, base);
    })(),
  );
}

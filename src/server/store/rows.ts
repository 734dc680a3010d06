/**
 * Row operations of a base table: get, append, update, delete (the list: row-list.ts; big
 * data: big-data/). Every batch is checked whole before anything is written and then written
 * in one transaction, so a refused batch writes nothing (SHAPE-7, SIZE-2..4).
 */
import { COLUMNS, SIZE_LIMITS } from '../../spec/index.js';
import { badRequest, notFound } from '../errors.js';
import { fetchPhys, materialise, type ApiRow, type PhysRow, type ReadContext } from './cells.js';
import { cachedStatement, qid, type Db } from './db.js';
import type { CellChange, RowChange, RowEvents } from './events.js';
import { dropLinksOfRows } from './links.js';
import { isoNow, newRowId, physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import { saveMeta, withMetaRollback } from './schema.js';
import { encodeValue, looseStored, type Stored } from './values.js';
import { illFormedValue } from '../text.js';

export interface RowsContext extends ReadContext {
  events: RowEvents;
}

export function getRow(ctx: RowsContext, base: Base, table: TableMeta, rowId: string, byName: boolean): ApiRow {
  const phys = fetchPhys(base.db, `SELECT * FROM ${qid(table.phys)} WHERE _id = ?`, [rowId]);
  if (!phys.rows.length) throw notFound('row _id not exits');
  return materialise(ctx, base, table, phys, { byName, single: true })[0]!;
}

export function countRows(db: Db, table: TableMeta): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${qid(table.phys)}`).get() as { n: number }).n;
}

/** Check and encode one row object written by a client (`op`: by append or update): column name → stored value. `byName`: the table's columns. */
export function encodeRow(
  ctx: RowsContext,
  byName: ReadonlyMap<string, ColumnMeta>,
  row: unknown,
  index: number,
  op: 'append' | 'update',
): { values: Map<ColumnMeta, Stored>; schemaChanged: boolean } {
  if ((row === null || typeof row !== 'object' || Array.isArray(row)) && ctx.faults.has('lax-rows-body')) row = {}; // mutant: a row that is no object read as an empty row
  if (row === null || typeof row !== 'object' || Array.isArray(row)) throw badRequest(`row ${index} must be an object`);
  const values = new Map<ColumnMeta, Stored>();
  let schemaChanged = false;
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith('_')) continue; // row internals are read-only; writes are ignored (api-shapes §3)
    const col = byName.get(name);
    if (!col) {
      if (ctx.behaviour.strictRowChecks) throw badRequest(`row ${index}: column ${name} not found`);
      continue;
    }
    if (col.type === 'link') throw badRequest(`row ${index}: link column ${name} is set through links/`);
    // Computed columns ignore writes, but for those the real service is recorded storing (auto-number: COLUMNS[t].wrongAccepted).
    if (COLUMNS[col.type].writable !== 'rows' && !COLUMNS[col.type].wrongAccepted) continue;
    if (illFormedValue(value)) {
      if (ctx.faults.has('surrogate-500'))
        throw new TypeError(`row ${index}: cannot encode column ${name}: lone surrogate`); // mutant: the encoder's error escapes as a 500
      throw badRequest(`row ${index}: column ${name}: the text is not well-formed Unicode (a lone surrogate)`);
    }
    // Mutants: each deviates only where its clause looks (a well-typed select value; a value of the wrong type).
    const wellTyped = COLUMNS[col.type].write.safeParse(value).success;
    // drop-unknown-options: option creation lives in the append path only; an update drops what it does not know.
    if (op === 'update' && (col.type === 'single-select' || col.type === 'multiple-select') && wellTyped) {
      const known = new Set(((col.data?.options as { name: string }[] | undefined) ?? []).map((o) => o.name));
      const given = (Array.isArray(value) ? value : [value]) as unknown[];
      if (
        given.some((v) => v !== null && v !== '' && !known.has(v as string)) &&
        ctx.faults.has('drop-unknown-options')
      ) {
        const keep = Array.isArray(value)
          ? value.filter((v) => known.has(v as string))
          : known.has(value as string)
            ? value
            : null;
        values.set(col, keep === null ? null : Array.isArray(keep) ? JSON.stringify(keep) : (keep as Stored));
        continue;
      }
    }
    // Mutant wrong-types-accepted: a wrong value nothing shows the real service refusing is stored as given (SHAPE-7 only warns).
    if (!wellTyped && ctx.faults.has('wrong-types-accepted')) {
      values.set(col, looseStored(value));
      continue;
    }
    const enc = encodeValue(col, value, ctx.behaviour, ctx.faults);
    if (!enc.ok) throw badRequest(`row ${index}: ${enc.message}`);
    if (enc.schemaChanged) schemaChanged = true;
    values.set(col, enc.stored);
  }
  return { values, schemaChanged };
}

/** The INSERT for a table's stored columns (row internals first). */
function insertStatement(db: Db, table: TableMeta, stored: ColumnMeta[]) {
  const cols = ['_id', '_ctime', '_mtime', '_creator', '_last_modifier', ...stored.map((c) => physColumn(c.key))];
  return cachedStatement(
    db,
    `INSERT INTO ${qid(table.phys)} (${cols.map(qid).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
  );
}

export function requireArray(value: unknown, field: string, ctx?: RowsContext): unknown[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && ctx?.faults.has('lax-rows-body'))
    return [value]; // mutant: one object taken for a list of one
  if (!Array.isArray(value)) throw badRequest(`${field} must be an array`);
  return value;
}

export function checkCount(n: number, max: number, what: string, fault: boolean): void {
  if (n > max && !fault)
    throw badRequest(`${what}: ${n} rows exceed the limit of ${max} rows per call`, 'gateway', {
      error_type: 'exceed_rows_limit',
    });
}

function cellChanges(table: TableMeta, values: Map<ColumnMeta, Stored>, old?: PhysRow): CellChange[] {
  return [...values].map(([col, v]) => ({
    column_key: col.key,
    column_name: col.name,
    column_type: col.type,
    column_data: col.data,
    value: v,
    ...(old ? { old_value: old[physColumn(col.key)] ?? null } : {}),
  }));
}

function rowName(table: TableMeta, values: Map<ColumnMeta, Stored> | PhysRow): string {
  const first = table.columns[0];
  if (!first) return '';
  const v = values instanceof Map ? values.get(first) : values[physColumn(first.key)];
  return v === null || v === undefined ? '' : String(v);
}

export function nextAutoNumbers(_table: TableMeta): (col: ColumnMeta) => string {
  return (col) => {
    const d = col.data ?? (col.data = {});
    const n = Number(d.max_used_auto_number ?? 0) + 1;
    d.max_used_auto_number = n;
    const digits = Number(d.digits ?? 4);
    const prefix = typeof d.prefix === 'string' && d.prefix ? `${d.prefix}-` : '';
    return `${prefix}${String(n).padStart(digits, '0')}`;
  };
}

export function appendRows(
  ctx: RowsContext,
  base: Base,
  table: TableMeta,
  rowsIn: unknown,
  actor: string,
): { inserted_row_count: number; row_ids: { _id: string }[]; first_row: ApiRow | null } {
  const rows = requireArray(rowsIn, 'rows', ctx);
  checkCount(
    rows.length,
    SIZE_LIMITS.appendRows,
    'append',
    rows.length === SIZE_LIMITS.appendRows + 1 && ctx.faults.has('append-1001'),
  );
  const stored = table.columns.filter(
    (c) => !['link', 'link-formula', 'formula', 'ctime', 'mtime', 'creator', 'last-modifier'].includes(c.type),
  );
  const autoNumbers = stored.filter((c) => c.type === 'auto-number');
  const nextAuto = nextAutoNumbers(table);
  const insert = insertStatement(base.db, table, stored);
  const ids: string[] = [];
  const now = isoNow();
  // Encoding may create select options: a refused batch must not leave them behind.
  const encoded = withMetaRollback(base, () => {
    const byName = new Map(table.columns.map((c) => [c.name, c]));
    const enc = rows.map((r, i) => {
      try {
        return encodeRow(ctx, byName, r, i, 'append');
      } catch (e) {
        // Mutant refused-batch-half-written: the rows before the refused one are written all the same.
        if (i > 0 && ctx.faults.has('refused-batch-half-written'))
          appendRows(ctx, base, table, rows.slice(0, i), actor);
        throw e;
      }
    });
    base.db.transaction(() => {
      for (const { values } of enc) {
        const id = newRowId();
        ids.push(id);
        insert.run(
          id,
          now,
          now,
          actor,
          actor,
          ...stored.map((c) => (c.type === 'auto-number' ? (values.get(c) ?? nextAuto(c)) : (values.get(c) ?? null))),
        );
      }
      if (autoNumbers.length || enc.some((e) => e.schemaChanged)) saveMeta(ctx.db, base);
    })();
    return enc;
  });
  touch(base);
  if (ctx.events.wants(base.uuid)) {
    ctx.events.emit(
      encoded.map((e, i) =>
        change(base, table, ids[i]!, 'insert_row', actor, rowName(table, e.values), cellChanges(table, e.values)),
      ),
    );
  }
  const first = ids.length ? getRowByKeys(ctx, base, table, ids[0]!) : null;
  return { inserted_row_count: ids.length, row_ids: ids.map((_id) => ({ _id })), first_row: first };
}

function getRowByKeys(ctx: RowsContext, base: Base, table: TableMeta, id: string): ApiRow {
  return materialise(ctx, base, table, fetchPhys(base.db, `SELECT * FROM ${qid(table.phys)} WHERE _id = ?`, [id]), {
    byName: false,
  })[0]!;
}

function change(
  base: Base,
  table: TableMeta,
  rowId: string,
  op: RowChange['op_type'],
  actor: string,
  name: string,
  data: CellChange[],
): RowChange {
  return {
    base_uuid: base.uuid,
    table_id: table._id,
    table_name: table.name,
    row_id: rowId,
    row_name: name,
    op_type: op,
    op_user: actor,
    op_time: Date.now() / 1000,
    row_data: data,
  };
}

/** A write happened: the base-unchanged check (ROUTE-7) must not serve what was cached before. */
export function touch(base: Base): void {
  base.version++;
}

export function updateRows(
  ctx: RowsContext,
  base: Base,
  table: TableMeta,
  updatesIn: unknown,
  actor: string,
): { success: true } {
  const updates = requireArray(updatesIn, 'updates', ctx);
  checkCount(
    updates.length,
    SIZE_LIMITS.updateRows,
    'update',
    updates.length === SIZE_LIMITS.updateRows + 1 && ctx.faults.has('update-1001'),
  );
  const idChangeable = () => !ctx.behaviour.rowIdImmutable || ctx.faults.has('id-changeable');
  const now = isoNow();
  let existing = new Map<string, PhysRow>();
  // Encoding may create select options: a refused batch must not leave them behind.
  const parsed = withMetaRollback(base, () => {
    const byName = new Map(table.columns.map((c) => [c.name, c]));
    const list = updates.map((u, i) => {
      if (u === null || typeof u !== 'object' || Array.isArray(u))
        throw badRequest(`update ${i} must be an object {row_id, row}`);
      const { row_id: rowId, row } = u as { row_id?: unknown; row?: unknown };
      if (typeof rowId !== 'string' || !rowId) throw badRequest(`update ${i}: row_id is required`);
      const newId =
        row && typeof row === 'object' && typeof (row as { _id?: unknown })._id === 'string'
          ? (row as { _id: string })._id
          : undefined;
      return { rowId, ...encodeRow(ctx, byName, row, i, 'update'), newId };
    });
    const ids = [...new Set(list.map((p) => p.rowId))];
    existing = new Map(
      (
        base.db
          .prepare(`SELECT * FROM ${qid(table.phys)} WHERE _id IN (SELECT value FROM json_each(?))`)
          .all(JSON.stringify(ids)) as PhysRow[]
      ).map((r) => [r._id, r]),
    );
    const missing = ids.find((id) => !existing.has(id));
    if (missing) throw notFound(`row _id not exits: ${missing}`);
    base.db.transaction(() => {
      for (const p of list) {
        const sets = [...p.values.keys()].map((c) => `${qid(physColumn(c.key))} = ?`);
        const params: unknown[] = [...p.values.values()];
        if (p.newId && p.newId !== p.rowId && idChangeable()) {
          sets.push('_id = ?');
          params.push(p.newId);
        }
        cachedStatement(
          base.db,
          `UPDATE ${qid(table.phys)} SET ${[...sets, '_mtime = ?', '_last_modifier = ?'].join(', ')} WHERE _id = ?`,
        ).run(...params, now, actor, p.rowId);
      }
      if (list.some((p) => p.schemaChanged)) saveMeta(ctx.db, base);
    })();
    return list;
  });
  if (!ctx.faults.has('stale-cache')) touch(base); // mutant: an update leaves the base-unchanged check as it was
  if (ctx.events.wants(base.uuid)) {
    ctx.events.emit(
      parsed.map((p) =>
        change(
          base,
          table,
          p.rowId,
          'modify_row',
          actor,
          rowName(table, existing.get(p.rowId)!),
          cellChanges(table, p.values, existing.get(p.rowId)),
        ),
      ),
    );
  }
  return { success: true };
}

export function deleteRows(
  ctx: RowsContext,
  base: Base,
  table: TableMeta,
  idsIn: unknown,
  actor: string,
): { success: true; deleted_rows: number } {
  const ids = requireArray(idsIn, 'row_ids');
  const cap =
    ids.length > 1000 && ctx.faults.has('delete-cap-1000')
      ? 1000
      : ids.length > SIZE_LIMITS.deleteRows && ctx.faults.has('delete-10001')
        ? SIZE_LIMITS.deleteRows + 1
        : SIZE_LIMITS.deleteRows;
  checkCount(ids.length, cap, 'delete', false);
  if (ids.some((id) => typeof id !== 'string')) throw badRequest('row_ids must be strings');
  const list = JSON.stringify(ids);
  const doomed = ctx.events.wants(base.uuid)
    ? (base.db
        .prepare(`SELECT * FROM ${qid(table.phys)} WHERE _id IN (SELECT value FROM json_each(?))`)
        .all(list) as PhysRow[])
    : [];
  let deleted = 0;
  base.db.transaction(() => {
    deleted = base.db
      .prepare(`DELETE FROM ${qid(table.phys)} WHERE _id IN (SELECT value FROM json_each(?))`)
      .run(list).changes;
    dropLinksOfRows(base, ids as string[]);
  })();
  if (deleted === 0 && ctx.faults.has('delete-missing-404')) throw notFound('Not found.'); // mutant: "nothing to delete" as the generic 404
  touch(base);
  if (doomed.length)
    ctx.events.emit(doomed.map((r) => change(base, table, r._id, 'delete_row', actor, rowName(table, r), [])));
  return { success: true, deleted_rows: deleted };
}

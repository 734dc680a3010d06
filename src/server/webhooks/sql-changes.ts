/**
 * Row changes made through SQL (`sql/` INSERT, UPDATE, DELETE), for webhooks (HOOK-1). Only
 * built when a webhook listens to the base; an UPDATE reports the new values of the row's
 * stored columns (SQL gives no old values without a second read, which the write path skips).
 */
import type { PhysRow } from '../store/cells.js';
import type { RowChange } from '../store/events.js';
import { physColumn, type Base, type TableMeta } from '../store/model.js';

const COMPUTED = new Set(['link', 'link-formula', 'formula', 'ctime', 'mtime', 'creator', 'last-modifier']);

export function sqlChanges(
  base: Base,
  table: TableMeta,
  kind: 'insert' | 'update' | 'delete',
  rows: readonly PhysRow[],
  actor: string,
  at: number,
): RowChange[] {
  const first = table.columns[0];
  const stored = table.columns.filter((c) => !COMPUTED.has(c.type));
  const op = kind === 'insert' ? 'insert_row' : kind === 'update' ? 'modify_row' : 'delete_row';
  return rows.map((r) => ({
    base_uuid: base.uuid,
    table_id: table._id,
    table_name: table.name,
    row_id: r._id,
    row_name:
      first && r[physColumn(first.key)] !== null && r[physColumn(first.key)] !== undefined
        ? String(r[physColumn(first.key)])
        : '',
    op_type: op,
    op_user: actor,
    op_time: at / 1000,
    row_data:
      kind === 'delete'
        ? []
        : stored.map((c) => ({
            column_key: c.key,
            column_name: c.name,
            column_type: c.type,
            column_data: c.data,
            value: r[physColumn(c.key)] ?? null,
          })),
  }));
}

/**
 * `columns/` and `batch-append-columns/` (base_operations.yaml "Columns"): list (also by
 * view), insert, append several, update by `op_type`, delete. The table is named in the body,
 * except for the list, which takes the query string.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { modifyColumnType } from '../../store/column-type.js';
import { appendColumns, changeLayout, columnOf, deleteColumn, listColumns, renameColumn } from '../../store/columns.js';
import { addColumn } from '../../store/schema.js';
import { viewOf } from '../../store/views.js';
import { baseOf, bodyOf, optionalTyped, tableOf } from './common.js';
import { queryTable } from './views.js';

const OP_TYPES = ['rename_column', 'modify_column_type', 'resize_column', 'move_column', 'freeze_column'] as const;

export function registerColumns(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('listColumns'), (req) => {
    const base = baseOf(ctx, req);
    const table = queryTable(req, base);
    const q = req.query as Record<string, string | undefined>;
    const view = q.view_name || q.view_id ? viewOf(table, q.view_name || q.view_id) : undefined;
    return { columns: listColumns(ctx, table, view) };
  });
  route(app, ctx, endpoint('appendColumn'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    optionalTyped(b, { anchor_column: 'string' });
    return addColumn(ctx, base, tableOf(base, b.table_name ?? b.table_id), b, b.anchor_column);
  });
  route(app, ctx, endpoint('appendColumns'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    return { columns: appendColumns(ctx, base, tableOf(base, b.table_name ?? b.table_id), b.columns) };
  });
  route(app, ctx, endpoint('updateColumn'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const op = b.op_type;
    if (!OP_TYPES.includes(op as never)) throw badRequest(`op_type must be one of ${OP_TYPES.join(', ')}`);
    const table = tableOf(base, b.table_name ?? b.table_id);
    const col = columnOf(table, b.column ?? b.column_key ?? b.column_name);
    switch (op as (typeof OP_TYPES)[number]) {
      case 'rename_column':
        return renameColumn(ctx, base, table, col, b.new_column_name);
      case 'modify_column_type':
        return modifyColumnType(ctx, base, table, col, b.new_column_type, b.column_data);
      default:
        return changeLayout(ctx, base, table, col, op as 'resize_column' | 'freeze_column' | 'move_column', b);
    }
  });
  route(app, ctx, endpoint('deleteColumn'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_name ?? b.table_id);
    deleteColumn(ctx, base, table, columnOf(table, b.column ?? b.column_key ?? b.column_name));
    return { success: true };
  });
}

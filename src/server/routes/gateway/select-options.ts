/** `column-options/` and `column-cascade-settings/` (base_operations.yaml "Columns"): a select column's options and cascade. */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { route } from '../../pipeline/hooks.js';
import { columnOf } from '../../store/columns.js';
import { addOptions, deleteOptions, setCascade, updateOptions } from '../../store/option-changes.js';
import { baseOf, bodyOf, flag, tableOf } from './common.js';

export function registerSelectOptions(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('addSelectOption'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_name ?? b.table_id);
    addOptions(ctx, base, columnOf(table, b.column ?? b.column_key), b.options);
    return { success: true };
  });
  route(app, ctx, endpoint('updateSelectOption'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_name ?? b.table_id);
    const updated = updateOptions(ctx, base, table, columnOf(table, b.column ?? b.column_key), b.options);
    return flag(b.return_options) ? { options: updated } : { success: true };
  });
  route(app, ctx, endpoint('deleteSelectOption'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_name ?? b.table_id);
    deleteOptions(ctx, base, table, columnOf(table, b.column ?? b.column_key), b.option_names);
    return { success: true };
  });
  route(app, ctx, endpoint('updateColumnCascade'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_name ?? b.table_id);
    setCascade(
      ctx,
      base,
      columnOf(table, b.parent_column, 'parent_column'),
      columnOf(table, b.child_column, 'child_column'),
      b.cascade_settings,
    );
    return { success: true };
  });
}

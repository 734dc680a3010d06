/** add-archived-rows/, unarchive/, db-operations/, restore-operations/{op_id}/ (BASE-6; archive-view/ is ../archive.ts). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../../spec/index.js';
import type { ServerContext } from '../../../context.js';
import { badRequest } from '../../../errors.js';
import { route } from '../../../pipeline/hooks.js';
import { unarchiveRows } from '../../../store/big-data/archive.js';
import { listBigOps, restoreBigOp } from '../../../store/big-data/log.js';
import { addBigRows } from '../../../store/big-data/rows.js';
import { recordTask } from '../../../store/records/tasks.js';
import { touch } from '../../../store/rows.js';
import { actor, baseOf, bodyOf, tableOf } from '../common.js';
import { pageOf, pathId } from './params.js';

export function registerBigData(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('addBigDataRows'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    return addBigRows(ctx, base, tableOf(base, b.table_name ?? b.table_id), b.rows, actor(req), ctx.now());
  });
  route(app, ctx, endpoint('moveRowsToNormalBackend'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_id ?? b.table_name, 'table_id');
    if (!Array.isArray(b.row_ids) || b.row_ids.some((id) => typeof id !== 'string'))
      throw badRequest('row_ids must be an array of row ids');
    const moved = unarchiveRows(ctx, base, table, b.row_ids as string[]);
    return {
      success: true,
      task_id: recordTask(ctx.db, base, 'unarchive', 'success', { table_id: table._id, moved }, ctx.now()),
    };
  });
  route(app, ctx, endpoint('getBaseBigDataOperations'), (req) => {
    const { page, perPage } = pageOf(req);
    return listBigOps(ctx.db, baseOf(ctx, req), page, perPage);
  });
  route(app, ctx, endpoint('restoreBigDataOperations'), (req) => {
    const base = baseOf(ctx, req);
    restoreBigOp(ctx.db, base, pathId(req, 'op_id'));
    touch(base);
    return { success: true };
  });
}

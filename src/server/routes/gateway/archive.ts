/**
 * Move rows to big data (`archive-view/`, ACCT-7): from 6.0 the rows are named by a view
 * (`view_name`); before, by a raw SQL condition (`where`).
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { route, type Handler } from '../../pipeline/hooks.js';
import { archiveView, archiveWhere } from '../../store/big-data/archive.js';
import { isStatementError, sqlErrorMessage, translate } from '../../store/sql.js';
import { baseOf, bodyOf, tableOf } from './common.js';

function archiveHandler(ctx: ServerContext): Handler {
  return (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_name ?? b.table_id);
    // Mutants: archive-by-sql keeps the 5.x form on 6.x; archive-by-view-name wants the 6.0 form on 5.x.
    const byView = ctx.behaviour.archiveByViewName
      ? !ctx.faults.has('archive-by-sql')
      : ctx.faults.has('archive-by-view-name');
    if (byView) {
      if (typeof b.view_name !== 'string' || !b.view_name) throw badRequest('view_name is required');
      const view = table.views.find((v) => v.name === b.view_name);
      if (!view) throw badRequest(`view ${b.view_name} not found`);
      const moved = archiveView(ctx, base, table, view);
      return { success: true, error_message: '', archived_rows: moved };
    }
    const where = b.where ?? b.query ?? b.sql;
    if (typeof where !== 'string' || !where.trim()) throw badRequest('where is required (an SQL condition)');
    const tr = translate(base, `SELECT _id FROM \`${table.name.replace(/`/g, '``')}\` WHERE ${where}`);
    if (tr.paramCount) throw badRequest('where cannot hold ? parameters');
    try {
      return { success: true, error_message: '', archived_rows: archiveWhere(ctx, base, table, tr.sql) };
    } catch (e) {
      if (isStatementError(e)) throw badRequest(sqlErrorMessage(e, table));
      throw e;
    }
  };
}

export function registerArchive(app: FastifyInstance, ctx: ServerContext): void {
  const h = archiveHandler(ctx);
  route(app, ctx, endpoint('archiveView'), h);
  route(app, ctx, endpoint('archiveViewGateway'), h);
}

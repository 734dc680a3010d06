/**
 * `views/` and `views/{view_name}/` (base_operations.yaml "Views"). The table is named in the
 * query string, as the OpenAPI and the official clients send it; a body's `table_name` is
 * accepted too (clients written against the reference server's first create view).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { route } from '../../pipeline/hooks.js';
import type { Base, TableMeta } from '../../store/model.js';
import { createView, deleteView, updateView, viewJson, viewOf, type ViewSettings } from '../../store/views.js';
import { baseOf, bodyOf, tableOf } from './common.js';

/** The table of a view call: query string first, then the JSON body. */
export function queryTable(req: FastifyRequest, base: Base, body?: Record<string, unknown>): TableMeta {
  const q = req.query as Record<string, string | undefined>;
  return tableOf(base, q.table_name ?? q.table_id ?? body?.table_name ?? body?.table_id);
}

const viewName = (req: FastifyRequest) => (req.params as { view_name: string }).view_name;

export function registerViews(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('listViews'), (req) => {
    const base = baseOf(ctx, req);
    return { views: queryTable(req, base).views.map(viewJson) };
  });
  route(app, ctx, endpoint('getView'), (req) => {
    const base = baseOf(ctx, req);
    return viewJson(viewOf(queryTable(req, base), viewName(req)));
  });
  route(app, ctx, endpoint('createView'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    // Mutant (BASE-1): create view reads the table from the body only, as it once did.
    const table = ctx.faults.has('create-view-ignores-query-table')
      ? tableOf(base, b.table_name ?? b.table_id)
      : queryTable(req, base, b);
    return viewJson(createView(ctx.db, base, table, { ...(b as ViewSettings), name: b.name ?? b.view_name }));
  });
  route(app, ctx, endpoint('updateView'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = queryTable(req, base, b);
    return viewJson(updateView(ctx.db, base, table, viewOf(table, viewName(req)), b as ViewSettings));
  });
  route(app, ctx, endpoint('deleteView'), (req) => {
    const base = baseOf(ctx, req);
    const b =
      req.body && typeof req.body === 'object' && !Array.isArray(req.body)
        ? (req.body as Record<string, unknown>)
        : undefined;
    const table = queryTable(req, base, b);
    deleteView(ctx.db, base, table, viewOf(table, viewName(req)));
    return { success: true };
  });
}

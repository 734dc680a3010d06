/** `metadata/`, `tables/`, `columns/`, `views/` (api-shapes §2.3, §2.5). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import { cached, type ServerContext } from '../../context.js';
import { route, type Handler } from '../../pipeline/hooks.js';
import type { Base, TableMeta } from '../../store/model.js';
import { addColumn, createTable, createView, deleteTable } from '../../store/schema.js';
import { baseOf, bodyOf, optionalTyped, tableOf } from './common.js';

const tableJson = ({ phys: _phys, ...t }: TableMeta) => t;

export function metadataOf(base: Base) {
  return { metadata: { tables: base.meta.tables.map(tableJson), version: base.version, format_version: base.meta.format_version, settings: {} } };
}

export function tableHandlers(ctx: ServerContext) {
  const metadata: Handler = (req, reply) => {
    const base = baseOf(ctx, req);
    return reply.type('application/json; charset=utf-8').send(cached(ctx, base.uuid, base.version, 'metadata', () => JSON.stringify(metadataOf(base))));
  };
  return { metadata };
}

export function registerTables(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('getMetadata'), tableHandlers(ctx).metadata);
  route(app, ctx, endpoint('createTable'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    return tableJson(createTable(ctx.db, base, b.table_name, b.columns));
  });
  route(app, ctx, endpoint('deleteTable'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    deleteTable(ctx.db, base, tableOf(base, b.table_name ?? b.table_id));
    return { success: true };
  });
  route(app, ctx, endpoint('appendColumn'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    optionalTyped(b, { anchor_column: 'string' });
    return addColumn(ctx.db, base, tableOf(base, b.table_name ?? b.table_id), b);
  });
  route(app, ctx, endpoint('createView'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    return createView(ctx.db, base, tableOf(base, b.table_name ?? b.table_id), b.name ?? b.view_name, b.filters, b.filter_conjunction);
  });
}

/** `metadata/`, `tables/` and `tables/duplicate-table/` (api-shapes §2.3, §2.5; base_operations.yaml "Tables"). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import { cached, type ServerContext } from '../../context.js';
import { route, type Handler } from '../../pipeline/hooks.js';
import type { Base, TableMeta } from '../../store/model.js';
import { createTable, deleteTable } from '../../store/schema.js';
import { duplicateTable, renameTable } from '../../store/table-ops.js';
import { viewJson } from '../../store/views.js';
import { actor, baseOf, bodyOf, tableOf } from './common.js';

/** A table as metadata and the table operations answer it: its columns and views, not its physical name. */
const tableJson = ({ phys: _phys, views, ...t }: TableMeta) => ({ ...t, views: views.map(viewJson) });

function metadataOf(base: Base) {
  return {
    metadata: {
      tables: base.meta.tables.map(tableJson),
      version: base.version,
      format_version: base.meta.format_version,
      settings: {},
    },
  };
}

export function tableHandlers(ctx: ServerContext) {
  const metadata: Handler = (req, reply) => {
    const base = baseOf(ctx, req);
    return reply
      .type('application/json; charset=utf-8')
      .send(cached(ctx, base.uuid, base.version, 'metadata', () => JSON.stringify(metadataOf(base))));
  };
  return { metadata };
}

export function registerTables(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('getMetadata'), tableHandlers(ctx).metadata);
  route(app, ctx, endpoint('createTable'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    return tableJson(createTable(ctx, base, b.table_name, b.columns));
  });
  route(app, ctx, endpoint('renameTable'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    renameTable(ctx, base, tableOf(base, b.table_name ?? b.table_id), b.new_table_name);
    return { success: true };
  });
  route(app, ctx, endpoint('deleteTable'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    deleteTable(ctx.db, base, tableOf(base, b.table_name ?? b.table_id));
    return { success: true };
  });
  route(app, ctx, endpoint('duplicateTable'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const copy = duplicateTable(
      ctx,
      base,
      tableOf(base, b.table_name ?? b.table_id),
      b.is_duplicate_records,
      actor(req),
    );
    // The OpenAPI's answer carries the web app's `rows` and `id_row_map`; rows are read through rows/.
    return { ...tableJson(copy), rows: [], id_row_map: {} };
  });
}

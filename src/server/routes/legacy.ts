/**
 * The `/dtable-server` and `/dtable-db` families, served by emulated releases before 5.3
 * only (deprecated in 5.2). They reuse the gateway's handlers; `route()` skips them from 5.3.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { route } from '../pipeline/hooks.js';
import { baseOf } from './gateway/common.js';
import { linkHandler } from './gateway/links.js';
import { rowHandlers } from './gateway/rows.js';
import { sqlHandler } from './gateway/sql.js';
import { tableHandlers } from './gateway/tables.js';

export function registerLegacy(app: FastifyInstance, ctx: ServerContext): void {
  const rows = rowHandlers(ctx);
  route(app, ctx, endpoint('legacyListRows'), rows.list);
  route(app, ctx, endpoint('legacyAppendRow'), (req, reply) => {
    // dtable-server appended one row per call: {table_name, row}.
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (b.row !== undefined && b.rows === undefined) (req as { body: unknown }).body = { ...b, rows: [b.row] };
    return rows.append(req, reply);
  });
  route(app, ctx, endpoint('legacyMetadata'), tableHandlers(ctx).metadata);
  route(app, ctx, endpoint('legacySql'), sqlHandler(ctx));
  const base = (req: Parameters<typeof baseOf>[1]) => baseOf(ctx, req);
  route(app, ctx, endpoint('legacyCreateBigDataLinks'), linkHandler(ctx, 'add', base));
  route(app, ctx, endpoint('legacyDeleteBigDataLinks'), linkHandler(ctx, 'remove', base));
}

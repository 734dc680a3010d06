/** `sql/` (§4.1, §8.5, api-shapes §2.2). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { route, type Handler } from '../../pipeline/hooks.js';
import { runSql } from '../../store/sql.js';
import { actor, baseOf, bodyOf, optionalTyped } from './common.js';

export const sqlHandler =
  (ctx: ServerContext): Handler =>
  (req) => {
    const b = bodyOf(req);
    optionalTyped(b, { server_only: 'boolean' });
    return runSql(ctx, baseOf(ctx, req), b, actor(req));
  };

export function registerSql(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('querySql'), sqlHandler(ctx));
}

/** lock-rows/ and unlock-rows/ (BASE-7). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../../spec/index.js';
import type { ServerContext } from '../../../context.js';
import { route } from '../../../pipeline/hooks.js';
import { setRowLocks } from '../../../store/locks.js';
import { actor, baseOf, bodyOf, tableOf } from '../common.js';

export function registerLocks(app: FastifyInstance, ctx: ServerContext): void {
  for (const [id, lock] of [
    ['lockRows', true],
    ['unlockRows', false],
  ] as const) {
    route(app, ctx, endpoint(id), (req) => {
      const base = baseOf(ctx, req);
      const b = bodyOf(req);
      return setRowLocks(ctx, base, tableOf(base, b.table_name ?? b.table_id), b.row_ids, actor(req), lock);
    });
  }
}

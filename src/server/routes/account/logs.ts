/**
 * List Team Operations and List Team Logins (ACCT-4). From 6.1 (`teamLogFilters`) the
 * filters `operation_group` / `login_status` (alias `status`), `start`, `end` really filter;
 * earlier releases did not know them and ignore them.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { listLogins, listOperations, OPERATION_GROUPS } from '../../store/account/logs.js';
import { oneOf, paging, time } from './common.js';

function range(q: Record<string, unknown>): { start?: number; end?: number } {
  const start = time(q.start, 'start');
  const end = time(q.end, 'end', true);
  if (start !== undefined && end !== undefined && start > end) throw badRequest('start must not be after end.', 'web');
  return { start, end };
}

export function registerLogs(app: FastifyInstance, ctx: ServerContext): void {
  const filters = () => ctx.behaviour.teamLogFilters && !ctx.faults.has('logs-ignore-filters');

  route(app, ctx, endpoint('listTeamOperations'), (req) => {
    const q = req.query as Record<string, unknown>;
    const orgId = Number((req.params as { org_id: string }).org_id);
    const p = paging(q);
    if (!filters()) return listOperations(ctx.db, orgId, p);
    return listOperations(ctx.db, orgId, {
      ...p,
      ...range(q),
      group: oneOf(q.operation_group, 'operation_group', OPERATION_GROUPS),
    });
  });

  route(app, ctx, endpoint('listTeamLogins'), (req) => {
    const q = req.query as Record<string, unknown>;
    const orgId = Number((req.params as { org_id: string }).org_id);
    const p = paging(q);
    if (!filters()) return listLogins(ctx.db, orgId, p);
    const given = q.login_status ?? q.status;
    const status = oneOf(given, q.login_status !== undefined ? 'login_status' : 'status', [
      'success',
      'failure',
      'failed',
    ] as const);
    return listLogins(ctx.db, orgId, {
      ...p,
      ...range(q),
      success: status === undefined ? undefined : status === 'success',
    });
  });
}

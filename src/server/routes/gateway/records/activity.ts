/** operations/ (the base's activity log), activities/ (a row's), snapshot/, related-users/. */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../../spec/index.js';
import type { ServerContext } from '../../../context.js';
import { route } from '../../../pipeline/hooks.js';
import { baseOperations, rowActivities } from '../../../store/records/activities.js';
import { collaboratorList } from '../../../store/records/collaborators.js';
import { createSnapshot } from '../../../store/records/snapshots.js';
import { badRequest } from '../../../errors.js';
import { nameProblem } from '../../../text.js';
import { baseOf, bodyOf } from '../common.js';
import { pageOf, rowIdQuery } from './params.js';

export function registerActivity(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('getBaseActivityLog'), (req) => {
    const { page, perPage } = pageOf(req);
    return baseOperations(ctx.db, baseOf(ctx, req), page, perPage);
  });
  route(app, ctx, endpoint('listRowActivities'), (req) => {
    const { page, perPage } = pageOf(req);
    return rowActivities(ctx.db, baseOf(ctx, req), rowIdQuery(req), page, perPage);
  });
  route(app, ctx, endpoint('createSnapshot'), (req) => {
    const base = baseOf(ctx, req);
    const name = req.body === undefined ? undefined : bodyOf(req).dtable_name;
    const bad = name === undefined ? undefined : nameProblem(name);
    if (bad) throw badRequest(`dtable_name ${bad}`);
    return createSnapshot(ctx.db, base, name, ctx.now());
  });
  route(app, ctx, endpoint('listCollaborators'), (req) => collaboratorList(ctx.store, baseOf(ctx, req)));
}

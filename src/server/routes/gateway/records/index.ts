/**
 * The base operations beyond rows and structure (issue 11): links by query, big data, row
 * locks, comments, notifications, the activity log, snapshots, collaborators. The activity
 * log listens to every row change beside whoever listened before (webhooks).
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../../context.js';
import { alsoLogActivities } from '../../../store/records/activities.js';
import { registerActivity } from './activity.js';
import { registerBigData } from './big-data.js';
import { registerComments } from './comments.js';
import { registerLinkQueries } from './link-queries.js';
import { registerLocks } from './locks.js';
import { registerNotifications } from './notifications.js';

export function registerBaseRecords(app: FastifyInstance, ctx: ServerContext): void {
  ctx.events = alsoLogActivities(ctx.events, ctx.db);
  registerLinkQueries(app, ctx);
  registerBigData(app, ctx);
  registerLocks(app, ctx);
  registerComments(app, ctx);
  registerNotifications(app, ctx);
  registerActivity(app, ctx);
}

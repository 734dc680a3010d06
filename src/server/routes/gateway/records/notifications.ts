/**
 * Base notifications and toasts: notifications/ (list, mark all seen, delete all),
 * notifications/{id}/ (mark one), ui-toasts/. `seen` is a form field (`true`/`false`); a
 * JSON body is refused (api-shapes §2.5, the real service answers a JSON boolean with 400).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoint } from '../../../../spec/index.js';
import type { ServerContext } from '../../../context.js';
import { badRequest } from '../../../errors.js';
import { route } from '../../../pipeline/hooks.js';
import { deleteNotifications, listNotifications, markAllSeen, markSeen } from '../../../store/records/notifications.js';
import { baseOf, bodyOf } from '../common.js';
import { pathId } from './params.js';

/** Whose notifications a base token sees: its user's, or (an app's token) the base's. */
const viewer = (req: FastifyRequest) =>
  req.principal.kind === 'base' ? (req.principal.token.username ?? undefined) : undefined;

function seenOf(req: FastifyRequest): boolean {
  const form = /^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers['content-type'] ?? '');
  const v = form && req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>).seen : undefined;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw badRequest(
    form ? 'seen must be true or false' : 'seen is a form field (application/x-www-form-urlencoded): true or false',
  );
}

const TOAST_TYPES = new Set(['success', 'warning', 'error']);

export function registerNotifications(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('listBaseNotifications'), (req) => listNotifications(ctx.db, baseOf(ctx, req), viewer(req)));
  route(app, ctx, endpoint('markBaseNotificationsAsSeen'), (req) => {
    markAllSeen(ctx.db, baseOf(ctx, req), viewer(req), seenOf(req));
    return { success: true };
  });
  route(app, ctx, endpoint('deleteBaseNotifications'), (req) => {
    deleteNotifications(ctx.db, baseOf(ctx, req), viewer(req));
    return { success: true };
  });
  route(app, ctx, endpoint('markBaseNotificationAsSeen'), (req) => {
    const base = baseOf(ctx, req);
    const id = pathId(req, 'notification_id');
    markSeen(ctx.db, base, viewer(req), id, seenOf(req));
    return { success: true };
  });
  // A toast goes to the user's open page: nothing is stored. The request is checked whole.
  route(app, ctx, endpoint('sendToastNotification'), (req) => {
    baseOf(ctx, req);
    const b = bodyOf(req);
    if (b.to_user !== undefined && (typeof b.to_user !== 'string' || !ctx.store.userByEmail(b.to_user)))
      throw badRequest('to_user must name a user');
    if (b.toast_type !== undefined && !TOAST_TYPES.has(b.toast_type as string))
      throw badRequest('toast_type must be success, warning or error');
    // The toast's text is detail.msg (the OpenAPI's example): a detail without it shows nothing.
    const detail = b.detail as { msg?: unknown } | undefined;
    if (
      detail !== undefined &&
      (detail === null || typeof detail !== 'object' || Array.isArray(detail) || typeof detail.msg !== 'string')
    ) {
      throw badRequest('detail must be an object {msg: "text"}');
    }
    return { success: true };
  });
}

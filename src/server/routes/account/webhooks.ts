/**
 * Webhook registration (HOOK-1, api-shapes §6): list, create (multipart, form or JSON `url`,
 * optional `secret`; 200 as the real service answers), update (enables a disabled webhook
 * again), delete. Delivery is the WebhookDelivery service's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { orgOfBase } from '../../store/account/orgs.js';
import {
  createWebhook,
  deleteWebhook,
  updateWebhook,
  webhookById,
  webhookJson,
  webhooksOf,
} from '../../store/account/webhooks.js';
import { isoNow } from '../../store/model.js';
import { textProblem } from '../../text.js';
import { formOf, int, str, userOf, workspaceBaseOf } from './common.js';
import { logOperation, type AccountServices } from './services.js';

function url(v: unknown, required: boolean): string | undefined {
  const s = str(v, 'url', { required, max: 2048 });
  if (s === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw badRequest('url invalid: an http or https URL is expected.', 'web');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw badRequest('url invalid: an http or https URL is expected.', 'web');
  return s;
}

function secret(v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 255)
    throw badRequest('secret invalid: a string of at most 255 characters is expected.', 'web');
  const bad = textProblem(v);
  if (bad) throw badRequest(`secret invalid: it ${bad}.`, 'web');
  return v;
}

export function registerWebhooks(app: FastifyInstance, ctx: ServerContext, s: AccountServices): void {
  const baseOf = (req: FastifyRequest) => {
    const p = req.params as { workspace_id: string; base_name: string };
    return workspaceBaseOf(ctx, userOf(req), p.workspace_id, p.base_name);
  };
  const hookOf = (req: FastifyRequest) => {
    const base = baseOf(req);
    const id = int((req.params as { webhook_id: string }).webhook_id, 'webhook_id', { required: true, min: 1 })!;
    const hook = webhookById(ctx.db, id);
    if (!hook || hook.dtable_uuid !== base.uuid) throw notFound(`Webhook ${id} not found.`, 'web');
    return { base, hook };
  };

  route(app, ctx, endpoint('listWebhooks'), (req) => ({
    webhook_list: webhooksOf(ctx.db, baseOf(req).uuid).map(webhookJson),
  }));

  route(app, ctx, endpoint('createWebhook'), (req) => {
    const user = userOf(req);
    const base = baseOf(req);
    const f = formOf(req).fields;
    const hook = createWebhook(ctx.db, {
      baseUuid: base.uuid,
      url: url(f.url, true)!,
      secret: secret(f.secret) ?? null,
      creator: user.id,
      createdAt: isoNow(ctx.now()).replace('+00:00', ''),
    });
    s.webhooks.reload();
    logOperation(ctx, user, orgOfBase(ctx.db, base.uuid), 'base', 'webhook_create', {
      base_name: base.name,
      webhook_id: hook.id,
    });
    return { webhook: webhookJson(hook) };
  });

  route(app, ctx, endpoint('updateWebhook'), (req) => {
    const { hook } = hookOf(req);
    const f = formOf(req).fields;
    const patch = { url: url(f.url, false), secret: secret(f.secret) };
    if (patch.url === undefined && patch.secret === undefined) throw badRequest('url invalid.', 'web');
    const updated = updateWebhook(ctx.db, hook.id, patch);
    s.webhooks.reload();
    return { webhook: webhookJson(updated) };
  });

  route(app, ctx, endpoint('deleteWebhook'), (req) => {
    const { base, hook } = hookOf(req);
    deleteWebhook(ctx.db, hook.id);
    s.webhooks.reload();
    logOperation(ctx, userOf(req), orgOfBase(ctx.db, base.uuid), 'base', 'webhook_delete', {
      base_name: base.name,
      webhook_id: hook.id,
    });
    return { success: true };
  });
}

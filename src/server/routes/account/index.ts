/**
 * The account family (§4.2, §4.3, ACCT-*), one module per endpoint family. Also sets up the
 * services the pipeline and the rows store call into: the monthly quota (`ctx.quota`, RATE-8)
 * and webhook delivery (`ctx.events`, HOOK-1), both stopped when the server closes.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { QuotaService } from '../../store/account/quota.js';
import { ensureAccountSchema } from '../../store/account/schema.js';
import '../../store/account/seed.js';
import { WebhookDelivery } from '../../webhooks/delivery.js';
import { registerApps } from './apps.js';
import { registerBases } from './bases.js';
import { registerCustomFolders } from './custom-folders.js';
import { registerExport } from './export.js';
import { registerFiles } from './files.js';
import { registerImport } from './import.js';
import { registerLogo } from './logo.js';
import { registerLogs } from './logs.js';
import { registerSearch } from './search.js';
import type { AccountServices } from './services.js';
import { registerTeam } from './team.js';
import { registerUsers } from './users.js';
import { registerWebhooks } from './webhooks.js';
import { registerWorkspaces } from './workspaces.js';

export function registerAccount(app: FastifyInstance, ctx: ServerContext): void {
  ensureAccountSchema(ctx.db);
  const quota = ctx.opts.unlimited
    ? undefined
    : new QuotaService({
        db: ctx.db,
        now: ctx.now,
        edition: ctx.opts.edition,
        formula: ctx.limits.quota,
        faults: ctx.faults,
      });
  const webhooks = new WebhookDelivery({
    db: ctx.db,
    now: ctx.now,
    faults: ctx.faults,
    timeoutMs: ctx.opts.webhookTimeoutMs,
    retryDelaysMs: ctx.opts.webhookRetryDelaysMs,
  });
  if (quota) {
    ctx.quota = quota;
    ctx.closers.push(() => quota.close());
  }
  ctx.events = webhooks;
  ctx.closers.push(() => webhooks.close());
  const s: AccountServices = { quota, webhooks };
  registerTeam(app, ctx, s);
  registerUsers(app, ctx, s);
  registerLogs(app, ctx);
  registerLogo(app, ctx);
  registerApps(app, ctx);
  registerSearch(app, ctx);
  registerExport(app, ctx);
  registerImport(app, ctx);
  registerFiles(app, ctx);
  registerCustomFolders(app, ctx);
  registerWorkspaces(app, ctx);
  registerBases(app, ctx);
  registerWebhooks(app, ctx, s);
}

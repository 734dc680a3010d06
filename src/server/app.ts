/** The reference server's HTTP application: the pipeline, then each endpoint family at its prefix. */
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';
import { installPipeline } from './pipeline/hooks.js';
import { registerAccount } from './routes/account/index.js';
import { registerMultipart } from './routes/account/multipart.js';
import { registerAuth } from './routes/auth.js';
import { registerArchive } from './routes/gateway/archive.js';
import { registerLinks } from './routes/gateway/links.js';
import { registerBaseRecords } from './routes/gateway/records/index.js';
import { registerRows } from './routes/gateway/rows.js';
import { registerSql } from './routes/gateway/sql.js';
import { registerTables } from './routes/gateway/tables.js';
import { registerLegacy } from './routes/legacy.js';
import { registerPublic } from './routes/public.js';
import { registerZombies } from './routes/zombies.js';

/** Larger than the biggest legitimate call (10,000 row ids to delete), smaller than a 10 MB abuse. */
export const BODY_LIMIT = 4 * 1024 * 1024;

export async function buildApp(ctx: ServerContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.opts.trustProxy,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
  });
  await app.register(formbody, { bodyLimit: BODY_LIMIT });
  installPipeline(app, ctx);
  registerPublic(app, ctx);
  // Multipart parsing adds hooks to every request of its scope: only the families that take
  // uploads or forms get it, so /ping/ and the gateway stay lean (and refuse multipart, 415).
  await app.register(async (forms) => {
    await registerMultipart(forms);
    registerAuth(forms, ctx);
    registerAccount(forms, ctx);
  });
  registerRows(app, ctx);
  registerTables(app, ctx);
  registerLinks(app, ctx);
  registerSql(app, ctx);
  registerArchive(app, ctx);
  registerBaseRecords(app, ctx);
  registerLegacy(app, ctx);
  registerZombies(app, ctx);
  return app;
}

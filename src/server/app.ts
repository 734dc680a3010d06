/** The reference server's HTTP application: the pipeline, then each endpoint family at its prefix. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerContext } from './context.js';
import { INPUT_LIMITS } from '../spec/index.js';
import { installPipeline } from './pipeline/hooks.js';
import { holdOpen, refuseClientError, refuseConnect, refuseFrameworkError } from './pipeline/refusals.js';
import { registerAccount } from './routes/account/index.js';
import { registerMultipart } from './routes/account/multipart.js';
import { registerApiTokens } from './routes/api-tokens.js';
import { registerAuth } from './routes/auth.js';
import { registerArchive } from './routes/gateway/archive.js';
import { registerColumns } from './routes/gateway/columns.js';
import { registerLinks } from './routes/gateway/links.js';
import { registerBaseRecords } from './routes/gateway/records/index.js';
import { registerRows } from './routes/gateway/rows.js';
import { registerSelectOptions } from './routes/gateway/select-options.js';
import { registerSql } from './routes/gateway/sql.js';
import { registerTables } from './routes/gateway/tables.js';
import { registerViews } from './routes/gateway/views.js';
import { registerLegacy } from './routes/legacy.js';
import { registerPublic } from './routes/public.js';
import { registerZombies } from './routes/zombies.js';

const BODY_LIMIT = INPUT_LIMITS.bodyBytes;

export async function buildApp(ctx: ServerContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.opts.trustProxy,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
    // Requests fastify or Node refuse before any route: answered with an error body too.
    clientErrorHandler: refuseClientError,
    frameworkErrors: refuseFrameworkError,
  });
  const held = new Set<Duplex>();
  app.server.on('connect', (req: IncomingMessage, socket: Duplex) =>
    ctx.faults.has('connect-hangs')
      ? holdOpen(held, socket)
      : refuseConnect(req, socket, ctx.faults.has('unknown-method-501')),
  );
  app.addHook('preClose', (done) => {
    for (const s of held) s.destroy();
    done();
  });
  installPipeline(app, ctx);
  registerPublic(app, ctx);
  // Multipart parsing adds hooks to every request of its scope: only the families that take
  // uploads or forms get it, so /ping/ and the gateway stay lean (and refuse multipart, 415).
  await app.register(async (forms) => {
    await registerMultipart(forms, ctx);
    registerAuth(forms, ctx);
    registerApiTokens(forms, ctx);
    registerAccount(forms, ctx);
  });
  registerRows(app, ctx);
  registerTables(app, ctx);
  registerViews(app, ctx);
  registerColumns(app, ctx);
  registerSelectOptions(app, ctx);
  registerLinks(app, ctx);
  registerSql(app, ctx);
  registerArchive(app, ctx);
  registerBaseRecords(app, ctx);
  registerLegacy(app, ctx);
  registerZombies(app, ctx);
  return app;
}

/**
 * The one place every request passes before its handler: route facts from the endpoint
 * table, rate limit (before credentials, as a gateway in front of the service would),
 * monthly quota, then credentials. Errors become the component's error body here too.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { offeredAt, type Endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { HttpError } from '../errors.js';
import { authenticate, type Principal } from './auth.js';
import { admit, clientIp, setRateHeaders, tooMany } from './rate.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    clientIp: string;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}

export type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

/** Register the handler of endpoint `ep` at its method and path, if the release serves it. */
export function route(app: FastifyInstance, ctx: ServerContext, ep: Endpoint, handler: Handler): void {
  if (!offeredAt(ep, ctx.opts.apiVersion) && !ctx.faults.has(`serve:${ep.id}`)) return;
  const url = ep.path.replace(/\{(\w+)\}/g, ':$1');
  app.route({ method: ep.method, url, config: { endpoint: ep }, handler: handler as RouteHandlerMethod });
}

const styleOf = (req: FastifyRequest) => (req.url.startsWith('/api-gateway/') || req.url.startsWith('/dtable-db/') ? 'gateway' : 'web');

export function installPipeline(app: FastifyInstance, ctx: ServerContext): void {
  app.decorateRequest('principal', null as never);
  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', async (req, reply) => {
    const ep = req.routeOptions.config.endpoint;
    req.clientIp = clientIp(req.ip);
    if (!ep) return;
    const params = req.params as Record<string, string>;
    const a = admit(ctx, ep, req.clientIp, params);
    setRateHeaders(ctx, ep, reply, a);
    if (a && !a.allowed) return tooMany(ctx, reply);
    req.principal = authenticate(ctx, ep, req.headers.authorization, params);
    if (ctx.quota && (ep.family === 'gateway' || ep.family === 'base-v1') && params.base_uuid && !ctx.quota.admit(params.base_uuid)) {
      throw new HttpError(403, 'The monthly API call quota of the team is used up.', 'gateway', { error_type: 'exceed_api_quota' });
    }
    return undefined;
  });
  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    if (err instanceof HttpError) return reply.code(err.status).send(err.body());
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) process.stderr.write(`reference server: ${req.method} ${req.url.split('?')[0]}: ${err.stack ?? err.message}\n`);
    const message = status === 500 ? 'Internal Server Error' : err.message;
    return reply.code(status).send(new HttpError(status, message, styleOf(req)).body());
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send(new HttpError(404, 'Not found.', styleOf(req)).body()));
}

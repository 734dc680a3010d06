/**
 * The one place every request passes before its handler: route facts from the endpoint
 * table, rate limit (before credentials, as a gateway in front of the service would),
 * monthly quota, then credentials (`gate`, attached by `route()` to every endpoint it
 * registers). Errors become the component's error body here too.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteHandlerMethod } from 'fastify';
import { offeredAt, type Endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { HttpError } from '../errors.js';
import { authenticate, type Principal } from './auth.js';
import { clientIp, rateStep, tooMany } from './rate.js';

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
  if (ctx.faults.has(`drop:${ep.id}`)) return; // mutant: an operation the release offers is missing
  const url = ep.path.replace(/\{(\w+)\}/g, ':$1');
  app.route({ method: ep.method, url, config: { endpoint: ep }, onRequest: gate(ctx, ep), handler: handler as RouteHandlerMethod });
}

/**
 * The pipeline in front of endpoint `ep`: rate limit, credentials, monthly quota. Attached to
 * every route `route()` registers, with the endpoint at hand (a global hook would have to look
 * it up per request, and fastify builds a new routeOptions object for each lookup). A callback
 * hook, not an async one: a promise per request costs too.
 */
function gate(ctx: ServerContext, ep: Endpoint): onRequestHookHandler {
  const rate = rateStep(ctx, ep);
  const counted = ep.family === 'gateway' || ep.family === 'base-v1';
  return (req, reply, done) => {
    req.clientIp = clientIp(req.ip);
    try {
      const params = req.params as Record<string, string>;
      const a = rate.admit(req.clientIp, params);
      rate.headers(reply, a);
      if (a && !a.allowed) {
        tooMany(ctx, reply); // answered here: the chain stops without done()
        return;
      }
      req.principal = authenticate(ctx, ep, req.headers.authorization, params);
      if (ctx.quota && counted && params.base_uuid && !ctx.quota.admit(params.base_uuid)) {
        throw new HttpError(403, 'The monthly API call quota of the team is used up.', 'gateway', { error_type: 'exceed_api_quota' });
      }
    } catch (e) {
      done(e as Error);
      return;
    }
    done();
  };
}

const styleOf = (req: FastifyRequest) => (req.url.startsWith('/api-gateway/') || req.url.startsWith('/dtable-db/') ? 'gateway' : 'web');

/** Fastify's body-parser errors, worded for a client that has to fix its request. */
const PARSER_MESSAGES: Record<string, (req: FastifyRequest) => string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (req) => `Request body is too large: at most ${req.routeOptions.bodyLimit ?? 0} bytes`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (req) => `Content-Type ${String(req.headers['content-type']).split(';')[0]} is not supported`,
};

export function installPipeline(app: FastifyInstance, ctx: ServerContext): void {
  app.decorateRequest('principal', null as never);
  app.decorateRequest('clientIp', '');
  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    if (err instanceof HttpError) return reply.code(err.status).send(err.body());
    const parseCrash = ctx.faults.has('malformed-json-500') && err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'; // mutant: a JSON syntax error escapes as a 500
    const status = !parseCrash && typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) process.stderr.write(`reference server: ${req.method} ${req.url.split('?')[0]}: ${err.stack ?? err.message}\n`);
    const message = status === 500 ? 'Internal Server Error' : (PARSER_MESSAGES[err.code]?.(req) ?? err.message);
    return reply.code(status).send(new HttpError(status, message, styleOf(req)).body());
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send(new HttpError(404, 'Not found.', styleOf(req)).body()));
}

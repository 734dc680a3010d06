/**
 * The one place every request passes before its handler: route facts from the endpoint
 * table, rate limit (before credentials, as a gateway in front of the service would),
 * monthly quota, then credentials (`gate`, attached by `route()` to every endpoint it
 * registers). Bodies are parsed (body.ts) and refusals answered (refusals.ts) the same way for all.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteHandlerMethod } from 'fastify';
import { ENDPOINTS, offeredAt, type Endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { authenticate, type Principal } from './auth.js';
import { installBodyParsers } from './body.js';
import { clientIp, rateStep, tooMany } from './rate.js';
import { installCoercion } from './coerce.js';
import { installRefusals } from './refusals.js';

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
  if (ctx.faults.has(`refuse:${ep.id}`)) {
    // mutant: the release's operation answers 405, its method not offered
    const allow = ENDPOINTS.filter((e) => e.path === ep.path && e.method !== ep.method).map((e) => e.method);
    app.route({
      method: ep.method,
      url,
      handler: (_req, reply) =>
        reply
          .code(405)
          .header('allow', allow.join(', '))
          .send(new HttpError(405, `Method ${ep.method} is not allowed.`, 'web').body()),
    });
    return;
  }
  app.route({
    method: ep.method,
    url,
    config: { endpoint: ep },
    onRequest: gate(ctx, ep),
    handler: handler as RouteHandlerMethod,
  });
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
      const q = req.url.indexOf('?');
      if (q >= 0 && !decodableQuery(req.url.slice(q + 1)))
        throw badRequest(
          'A query parameter is not valid UTF-8 once percent-decoded',
          ep.family === 'gateway' ? 'gateway' : 'web',
        );
      if (ctx.quota && counted && params.base_uuid && !ctx.quota.admit(params.base_uuid)) {
        throw new HttpError(403, 'The monthly API call quota of the team is used up.', 'gateway', {
          error_type: 'exceed_api_quota',
        });
      }
    } catch (e) {
      done(e as Error);
      return;
    }
    done();
  };
}

export function installPipeline(app: FastifyInstance, ctx: ServerContext): void {
  app.decorateRequest('principal', null as never);
  app.decorateRequest('clientIp', '');
  installBodyParsers(app, ctx);
  installRefusals(app, ctx);
  installCoercion(app, ctx);
}

/** Every name and value of a query string decodes to valid UTF-8 (the parser would quietly put U+FFFD in its place). */
function decodableQuery(qs: string): boolean {
  if (!qs.includes('%')) return true;
  try {
    for (const part of qs.split('&')) decodeURIComponent(part.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

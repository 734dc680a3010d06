/** `/ping/` and `/server-info/`: no credentials, never rate-limited (ROUTE-4, RATE-1). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { route } from '../pipeline/hooks.js';

export function registerPublic(app: FastifyInstance, ctx: ServerContext): void {
  const pong = (_: unknown, reply: import('fastify').FastifyReply) => reply.type('application/json').send('"pong"');
  route(app, ctx, endpoint('ping'), (req, reply) =>
    !req.headers.authorization && ctx.faults.has('ping-needs-auth')
      ? reply.code(401).send({ detail: 'Authentication credentials were not provided.' })
      : pong(req, reply),
  );
  route(app, ctx, endpoint('api2Ping'), pong);
  route(app, ctx, endpoint('legacyPing'), (_, reply) => reply.type('text/html').send('pong'));
  route(app, ctx, endpoint('serverInfo'), () => ({
    version: `${ctx.opts.apiVersion}.0`,
    edition: ctx.opts.edition,
    api_version: ctx.opts.apiVersion,
    rate_window_seconds: ctx.opts.rateWindowSeconds,
  }));
}

/**
 * Fault `coerce-wrong-types` (no mutant: the harness's own acceptance tests use it): a server
 * that reads a wrong-typed JSON field as it can instead of refusing it — a number or object
 * where a string is documented becomes its text, a string where a number is documented its
 * number (or no value), anything where a boolean is documented its truthiness, a single value
 * where an array is documented a list of one. RFC 9110 allows such a server; ROBUST-2 warns.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENDPOINTS, type Param } from '../../spec/index.js';
import type { ServerContext } from '../context.js';

const byRoute = new Map(ENDPOINTS.map((e) => [`${e.method} ${e.path.replace(/\{(\w+)\}/g, ':$1')}`, e]));

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `v` read as `type`; undefined: no value. */
function coerced(v: unknown, type: Param['type']): unknown {
  switch (type) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'integer':
    case 'number': {
      if (typeof v === 'number') return v;
      const n = Number(v);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return typeof v === 'boolean' ? v : Boolean(v);
    case 'array':
      return Array.isArray(v) ? v : [v];
    case 'object':
      return isObject(v) ? v : undefined;
    default:
      return v;
  }
}

function coerceBody(req: FastifyRequest): void {
  const ep = byRoute.get(`${req.method} ${req.routeOptions.url ?? ''}`);
  const body = req.body as Record<string, unknown> | undefined;
  if (!ep || !isObject(body)) return;
  for (const p of ep.params ?? []) {
    if (p.in !== 'json' || body![p.name] === undefined || body![p.name] === null) continue;
    const v = coerced(body![p.name], p.type);
    if (v === undefined) delete body![p.name];
    else body![p.name] = v;
  }
}

export function installCoercion(app: FastifyInstance, ctx: ServerContext): void {
  app.addHook('preHandler', (req, _reply, done) => {
    if (ctx.faults.has('coerce-wrong-types')) coerceBody(req);
    done();
  });
}

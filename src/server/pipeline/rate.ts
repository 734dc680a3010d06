/**
 * The rate-limit step of the pipeline (§8.1–8.2): which key a call counts against, the
 * x-ratelimit-* headers on gateway answers, and the empty 429.
 */
import type { FastifyReply } from 'fastify';
import { RATE_KEY_OF_CLASS, type Endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import type { Admission } from './limiter.js';

/** Families whose answers carry the rate-limit headers (gateway-style base operations). */
const HEADER_FAMILIES = new Set(['gateway', 'base-v1', 'legacy']);

export function clientIp(raw: string): string {
  return raw.startsWith('::ffff:') ? raw.slice(7) : raw;
}

function keyOf(ctx: ServerContext, ep: Endpoint, ip: string, params: Record<string, string>): string {
  if (ep.rate === 'exempt') return '';
  const per = ctx.faults.has('limit-per-ip') ? 'ip' : RATE_KEY_OF_CLASS[ep.rate];
  if (per === 'base' && params.base_uuid) return `${ep.rate}:base:${params.base_uuid}`;
  if (ep.rate === 'account' && ctx.faults.has('account-limit-global')) return 'account:all'; // mutant: one budget for every address
  return `${ep.rate}:ip:${ip}`;
}

/** Count the call; returns the admission, or undefined when the call is not limited. */
export function admit(ctx: ServerContext, ep: Endpoint, ip: string, params: Record<string, string>): Admission | undefined {
  if (ctx.opts.unlimited) return undefined;
  const exempt = ep.rate === 'exempt' && !(ctx.faults.has('limit-server-info') && ep.id === 'serverInfo');
  if (exempt || ctx.faults.has(`unlimited:${ep.id}`)) return undefined; // mutant unlimited:<id>: one endpoint forgot its limiter
  const rateClass = ep.rate === 'exempt' ? 'account' : ep.rate;
  const limit = ctx.limits.rate[rateClass];
  if (limit === null) return undefined;
  const key = keyOf(ctx, { ...ep, rate: rateClass }, ip, params);
  // Mutant window-never-resets: an account counter (per address) that hit the limit never expires.
  const sticky = () => rateClass === 'account' && ctx.faults.has('window-never-resets');
  return ctx.limiter.take(key, limit, () => (ctx.faults.has('limit-plus-one') ? 1 : 0), sticky);
}

export function setRateHeaders(ctx: ServerContext, ep: Endpoint, reply: FastifyReply, a: Admission | undefined): void {
  if (!a || !ctx.behaviour.rateLimitHeaders || !HEADER_FAMILIES.has(ep.family) || ctx.faults.has('no-rate-headers')) return;
  const reset = ctx.faults.has('reset-relative') ? Math.max(0, a.reset - Math.floor(ctx.now() / 1000)) : a.reset;
  reply.header('x-ratelimit-limit', String(a.limit));
  reply.header('x-ratelimit-remaining', String(ctx.faults.has('remaining-stuck') ? a.limit : a.remaining));
  reply.header('x-ratelimit-reset', String(reset));
}

/** §7: 429 with an empty body. */
export function tooMany(ctx: ServerContext, reply: FastifyReply): FastifyReply {
  reply.code(429);
  if (ctx.faults.has('429-json-body')) return reply.type('application/json').send({ error_msg: 'Request was throttled.' });
  return reply.header('content-length', '0').send();
}

/**
 * The rate-limit step of the pipeline (§8.1–8.2): which key a call counts against, the
 * x-ratelimit-* headers on gateway answers, and the empty 429.
 */
import type { FastifyReply } from 'fastify';
import { RATE_KEY_OF_CLASS, type Endpoint, type RateClass } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import type { FaultName } from '../faults.js';
import type { Admission } from './limiter.js';

/** Families whose answers carry the rate-limit headers (gateway-style base operations). */
const HEADER_FAMILIES = new Set(['gateway', 'base-v1', 'legacy']);

export function clientIp(raw: string): string {
  return raw.startsWith('::ffff:') ? raw.slice(7) : raw;
}

/** The fault that changes which counter a call of the class counts against, if any. */
const KEY_FAULT_OF_CLASS: Readonly<Record<RateClass, FaultName | undefined>> = {
  account: 'account-limit-global',
  gateway: 'limit-per-ip',
  'auth-token': undefined,
};

const sameAdmission = (a: Admission, b: Admission) =>
  a.allowed === b.allowed && a.remaining === b.remaining && a.reset === b.reset && a.limit === b.limit;

/**
 * The rate-limit step of one endpoint, built once when the route is registered: the hot path
 * then allocates nothing but the key. Fault switches are still read per call, at the point
 * where they change behaviour (the selftest's coverage counts those reads).
 */
interface RateStep {
  admit(ip: string, params: Record<string, string>): Admission | undefined;
  headers(reply: FastifyReply, a: Admission | undefined): void;
}

export function rateStep(ctx: ServerContext, ep: Endpoint): RateStep {
  const rateClass = ep.rate === 'exempt' ? 'account' : ep.rate;
  const unlimitedFault: FaultName = `unlimited:${ep.id}`;
  const withHeaders = HEADER_FAMILIES.has(ep.family);
  const slack = () => (ctx.faults.has('limit-plus-one') ? 1 : 0);
  // Mutant window-never-resets: an account counter (per address) that hit the limit never expires.
  const sticky = () => rateClass === 'account' && ctx.faults.has('window-never-resets');
  // The counter a call counts against, without and with this class's key fault (mutants
  // limit-per-ip: gateway calls counted per address; account-limit-global: one budget for every address).
  const keyFault = KEY_FAULT_OF_CLASS[rateClass];
  const keyOf = (ip: string, params: Record<string, string>, faulty: boolean): string => {
    const per = faulty && keyFault === 'limit-per-ip' ? 'ip' : RATE_KEY_OF_CLASS[rateClass];
    if (per === 'base' && params.base_uuid) return `${rateClass}:base:${params.base_uuid}`;
    if (faulty && keyFault === 'account-limit-global') return 'account:all';
    return `${rateClass}:ip:${ip}`;
  };
  /**
   * Where the key fault is set or switch reads are watched, both counters are kept (the faulty
   * one under a name of its own, so each counts exactly what it would count in its own server),
   * and the switch is read only when their admissions differ: where the fault changes the answer
   * (the selftest's coverage counts that read), not on every call and not in run setup, whose
   * calls from one address to one base leave both counters alike. Elsewhere (every run a user
   * makes) the one counter the server runs with.
   */
  const take = (ip: string, params: Record<string, string>, limit: number): Admission => {
    const clean = ctx.limiter.take(keyOf(ip, params, false), limit, slack, sticky);
    if (!keyFault || !(ctx.faultReadsWatched || ctx.faults.has(keyFault))) return clean;
    const faulty = ctx.limiter.take(`${keyFault}|${keyOf(ip, params, true)}`, limit, slack, sticky);
    if (sameAdmission(clean, faulty)) return clean;
    return ctx.faults.has(keyFault) ? faulty : clean;
  };
  return {
    /** Count the call; the admission, or undefined when the call is not limited. */
    admit(ip, params) {
      if (ctx.opts.unlimited) return undefined;
      const exempt = ep.rate === 'exempt' && !(ctx.faults.has('limit-server-info') && ep.id === 'serverInfo');
      if (exempt || ctx.faults.has(unlimitedFault)) return undefined; // mutant unlimited:<id>: one endpoint forgot its limiter
      const limit = ctx.limits.rate[rateClass];
      if (limit === null) return undefined;
      return take(ip, params, limit);
    },
    headers(reply, a) {
      if (!a || !withHeaders || !ctx.behaviour.rateLimitHeaders || ctx.faults.has('no-rate-headers')) return;
      const reset = ctx.faults.has('reset-relative') ? Math.max(0, a.reset - Math.floor(ctx.now() / 1000)) : a.reset;
      reply.header('x-ratelimit-limit', String(a.limit));
      reply.header('x-ratelimit-remaining', String(ctx.faults.has('remaining-stuck') ? a.limit : a.remaining));
      reply.header('x-ratelimit-reset', String(reset));
    },
  };
}

/** §7: 429 with an empty body. */
export function tooMany(ctx: ServerContext, reply: FastifyReply): FastifyReply {
  reply.code(429);
  if (ctx.faults.has('429-json-body'))
    return reply.type('application/json').send({ error_msg: 'Request was throttled.' });
  return reply.header('content-length', '0').send();
}

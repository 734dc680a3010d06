/** Helpers shared by the base-operation routes: the base and table a call names, its query flags. */
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { badRequest, HttpError, notFound } from '../../errors.js';
import { actorOf } from '../../pipeline/auth.js';
import { findTable, type Base, type TableMeta } from '../../store/model.js';

export function baseOf(ctx: ServerContext, req: FastifyRequest): Base {
  const uuid = (req.params as { base_uuid: string }).base_uuid;
  const base = ctx.store.base(uuid);
  if (!base) throw notFound(`base ${uuid} not found`);
  return base;
}

export function tableOf(base: Base, name: unknown, field = 'table_name'): TableMeta {
  if (typeof name !== 'string' || name === '') throw badRequest(`${field} is required`);
  const table = findTable(base.meta, name);
  if (!table) throw notFound(`table ${name} not found`);
  return table;
}

/** The JSON body as an object; anything else is a 400 (SHAPE-7: malformed bodies are refused). */
export function bodyOf(req: FastifyRequest): Record<string, unknown> {
  const type = req.headers['content-type'];
  // Base operations take JSON only; a form or text body is refused, not guessed at.
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(415, `Content-Type ${type.split(';')[0]} is not supported: send application/json`, 'gateway');
  }
  const b = req.body;
  if (b === null || typeof b !== 'object' || Array.isArray(b)) throw badRequest('request body must be a JSON object');
  return b as Record<string, unknown>;
}

const JSON_TYPE: Record<'boolean' | 'string', (v: unknown) => boolean> = {
  boolean: (v) => typeof v === 'boolean',
  string: (v) => typeof v === 'string',
};

/** Documented optional fields a handler does not act on still hold their documented type (ROBUST-2): a wrong one is a 400. */
export function optionalTyped(b: Record<string, unknown>, fields: Record<string, 'boolean' | 'string'>): void {
  for (const [name, type] of Object.entries(fields)) {
    if (b[name] !== undefined && b[name] !== null && !JSON_TYPE[type](b[name]))
      throw badRequest(`${name} must be a ${type}`);
  }
}

export const flag = (v: unknown) => v === true || v === 'true' || v === '1' || v === 'True';

/** A query parameter that must be a plain decimal integer ≥ `min` (no `1e3`, `0x10`, or values past 2^53). */
export function intParam(v: unknown, name: string, fallback: number, min: number): number {
  if (v === undefined || v === '') return fallback;
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw badRequest(`${name} must be an integer ≥ ${min}`);
  return n;
}

export const actor = (req: FastifyRequest) => actorOf(req.principal);

/** Parameters the base-record routes share: a required query string, a page, an id in the path. */
import type { FastifyRequest } from 'fastify';
import { badRequest, type ErrorStyle } from '../../../errors.js';
import { intParam } from '../common.js';
import { nameProblem } from '../../../text.js';

export const query = (req: FastifyRequest) => req.query as Record<string, string | undefined>;

function requiredQuery(req: FastifyRequest, name: string, style: ErrorStyle = 'gateway'): string {
  const v = query(req)[name];
  if (typeof v !== 'string' || v === '') throw badRequest(`${name} is required`, style);
  return v;
}

/** A row id in the query: required, and a name (no control characters, not past the name limit). */
export function rowIdQuery(req: FastifyRequest): string {
  const v = requiredQuery(req, 'row_id');
  const bad = nameProblem(v);
  if (bad) throw badRequest(`row_id ${bad}`);
  return v;
}

/** `page` from 1 and `per_page` (25 when not given, as the OpenAPI says; at most 1,000). */
export function pageOf(req: FastifyRequest): { page: number; perPage: number } {
  const q = query(req);
  return { page: intParam(q.page, 'page', 1, 1), perPage: Math.min(intParam(q.per_page, 'per_page', 25, 1), 1000) };
}

/** A positive integer id in the path. */
export function pathId(req: FastifyRequest, name: string): number {
  return intParam((req.params as Record<string, string>)[name], name, 0, 1);
}

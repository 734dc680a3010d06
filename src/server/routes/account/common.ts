/**
 * Helpers of the account routes: the calling user, request fields from JSON, form or
 * multipart bodies alike, and parameter checks that turn bad input into a 400 with an
 * `{"error_msg"}` body (never a 5xx).
 */
import type { FastifyRequest } from 'fastify';
import { INPUT_LIMITS } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { canUseBase, orgById, workspaceById, type Org, type Workspace } from '../../store/account/orgs.js';
import type { Base } from '../../store/model.js';
import type { User } from '../../store/store.js';
import { textProblem } from '../../text.js';
import { UploadedFile } from './multipart.js';

export const userOf = (req: FastifyRequest): User => {
  if (req.principal?.kind !== 'user') throw forbidden();
  return req.principal.user;
};

interface Form {
  fields: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}

/** The body's fields whatever its encoding (JSON, form, multipart); files apart. */
export function formOf(req: FastifyRequest): Form {
  const body = req.body;
  const fields: Record<string, unknown> = {};
  const files: Record<string, UploadedFile> = {};
  if (body === undefined || body === null || body === '') return { fields, files };
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('request body must be an object', 'web');
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const values = Array.isArray(v) ? v : [v];
    const file = values.find((x): x is UploadedFile => x instanceof UploadedFile);
    if (file) files[k] = file;
    const rest = values.filter((x) => !(x instanceof UploadedFile));
    // A field is kept as given, an empty list included: the check that reads it refuses a wrong type (dropped, it would pass as absent).
    if (!file) fields[k] = v;
    else if (rest.length) fields[k] = rest.length === 1 ? rest[0] : rest;
  }
  return { fields, files };
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

export function str(v: unknown, name: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
  if (!present(v)) {
    if (opts.required) throw badRequest(`${name} invalid.`, 'web');
    return undefined;
  }
  if (typeof v !== 'string' || !v.trim()) throw badRequest(`${name} invalid.`, 'web');
  const max = opts.max ?? INPUT_LIMITS.nameLength;
  if (v.length > max) throw badRequest(`${name} is too long (at most ${max} characters).`, 'web');
  const bad = textProblem(v);
  if (bad) throw badRequest(`${name} invalid: it ${bad}.`, 'web');
  return v.trim();
}

export function int(
  v: unknown,
  name: string,
  opts: { required?: boolean; min?: number; max?: number } = {},
): number | undefined {
  if (!present(v)) {
    if (opts.required) throw badRequest(`${name} invalid.`, 'web');
    return undefined;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  const min = opts.min ?? 0;
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw badRequest(
      `${name} invalid: an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''} is expected.`,
      'web',
    );
  return n;
}

export function bool(v: unknown, name: string): boolean | undefined {
  if (!present(v)) return undefined;
  if (v === true || v === 'true' || v === 'True' || v === '1' || v === 1) return true;
  if (v === false || v === 'false' || v === 'False' || v === '0' || v === 0) return false;
  throw badRequest(`${name} invalid: true or false is expected.`, 'web');
}

export function oneOf<T extends string>(v: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (!present(v)) return undefined;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v))
    throw badRequest(`${name} invalid: one of ${allowed.join(', ')} is expected.`, 'web');
  return v as T;
}

/** An ISO date or date-time; a bare date as `end` means the end of that day. */
export function time(v: unknown, name: string, endOfDay = false): number | undefined {
  if (!present(v)) return undefined;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v))
    throw badRequest(`${name} invalid: an ISO date such as 2025-03-01 or 2025-03-01T12:00:00 is expected.`, 'web');
  const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d)
    throw badRequest(`${name} invalid: not a real date.`, 'web');
  const dateOnly = v.length === 10;
  const ms = Date.parse(
    dateOnly ? `${v}T00:00:00Z` : /Z|[+-]\d{2}:?\d{2}$/.test(v) ? v.replace(' ', 'T') : `${v.replace(' ', 'T')}Z`,
  );
  if (Number.isNaN(ms)) throw badRequest(`${name} invalid: not a real date.`, 'web');
  return dateOnly && endOfDay ? ms + 86_400_000 - 1 : ms;
}

export function paging(q: Record<string, unknown>, perPageDefault = 25): { page: number; perPage: number } {
  return {
    page: int(q.page, 'page', { min: 1, max: 1_000_000 }) ?? 1,
    perPage: int(q.per_page, 'per_page', { min: 1, max: 1000 }) ?? perPageDefault,
  };
}

export function orgOf(ctx: ServerContext, id: unknown): Org {
  const orgId = int(id, 'org_id', { required: true, min: 1 })!;
  const org = orgById(ctx.db, orgId);
  if (!org) throw notFound(`Team ${orgId} not found.`, 'web');
  return org;
}

export function workspaceOf(ctx: ServerContext, user: User, id: unknown): Workspace {
  const wsId = int(id, 'workspace_id', { required: true, min: 1 })!;
  const ws = workspaceById(ctx.db, wsId);
  if (!ws) throw notFound(`Workspace ${wsId} not found.`, 'web');
  if (!user.is_staff && ws.org_id !== user.org_id && ws.owner !== user.id) throw forbidden();
  return ws;
}

/** A base of a workspace by name, that the user may use. */
export function workspaceBaseOf(ctx: ServerContext, user: User, wsId: unknown, name: unknown): Base {
  const ws = workspaceOf(ctx, user, wsId);
  const baseName = str(name, 'dtable_name', { required: true })!;
  const base = ctx.store.baseByName(ws.id, baseName);
  if (!base) throw notFound(`dtable ${baseName} not found.`, 'web');
  if (!canUseBase(ctx.db, user, base)) throw forbidden();
  return base;
}

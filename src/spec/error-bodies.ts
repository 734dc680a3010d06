/**
 * Error bodies (api-shapes §8): each component of the real service words its errors its own
 * way. dtable-web (`/api2/`, `/api/v2.1/`) answers `{"error_msg"}` (its auth `{"detail"}`,
 * its login `{"non_field_errors": [...]}`); the base's components (the gateway, dtable-server,
 * dtable-db) answer `{"error_message"}`. Clients read `error_msg || error_message || detail`.
 * Imports nothing at run time: the load scripts bundle this file.
 */
import { MOUNTS, type EndpointFamily } from './endpoints/types.js';

/** The fields an error body carries its message in, in the order a client reads them. */
export const ERROR_MESSAGE_FIELDS = ['error_msg', 'error_message', 'detail', 'non_field_errors'] as const;

/** The message of a parsed error body (the first of `non_field_errors`), if it is one; else undefined. */
export function errorMessageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const o = body as Record<string, unknown>;
  for (const f of ERROR_MESSAGE_FIELDS) {
    const v = o[f];
    const m = Array.isArray(v) ? (v[0] as unknown) : v;
    if (typeof m === 'string' && m.length > 0) return m;
  }
  return undefined;
}

/** The message of an answer's text when it is a JSON error body; else undefined. */
export function errorMessageOfText(text: string): string | undefined {
  try {
    return errorMessageOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The families the base's components answer: their error body is `error_message`. */
const BASE_COMPONENT_FAMILIES: ReadonlySet<EndpointFamily> = new Set(['gateway', 'base-v1', 'legacy']);
/** Where those families' paths start, so that an unknown route under one is the component's too (kept in step with the endpoint table by a test). */
const BASE_COMPONENT_PREFIXES = [MOUNTS.gateway, MOUNTS.dtableServer, MOUNTS.dtableDb, '/api/v1/dtables/'];

/** Does a base component (error body `error_message`) answer this family? */
export const answeredByBaseComponent = (family: EndpointFamily): boolean => BASE_COMPONENT_FAMILIES.has(family);
/** Does a base component answer this path (routed or not)? */
export const baseComponentPath = (path: string): boolean => BASE_COMPONENT_PREFIXES.some((p) => path.startsWith(p));

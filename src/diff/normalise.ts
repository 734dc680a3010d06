/**
 * From a call's answer to the exchange a diff compares: status, media type, structure, the
 * error body's form, the rate-limit headers, and a sample of the body for people to read with
 * everything that legitimately differs between two servers replaced by a placeholder.
 */
import { redactBody, redactText } from '../client/redact.js';
import type { Reply } from '../harness/target.js';
import { RATE_HEADERS, type Exchange } from './exchange.js';
import { keyName, namesThing, shapeOf, type ColumnKeys } from './shape.js';

/** The fields an error answer of this API carries its message in (the sources use each). */
const ERROR_FIELDS = [
  'error_msg',
  'error_message',
  'detail',
  'error',
  'error_type',
  'non_field_errors',
  'message',
] as const;
const SAMPLE_CHARS = 1_500;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b/g;
const URL_RE = /\bhttps?:\/\/[^\s"']+/g;

/** One string as a sample shows it: what differs by nature (ids, times, urls, tokens, scratch names) as a placeholder. */
function normalString(s: string, prefix: string): string {
  if (prefix && s.includes(prefix)) return '<scratch name>';
  if (/^[A-Za-z0-9_-]{22}$/.test(s)) return '<id>';
  if (/^[A-Za-z0-9._~+=-]{24,}$/.test(s)) return '<token>';
  return s.replace(URL_RE, '<url>').replace(UUID, '<uuid>').replace(TIME, '<time>');
}

/** What legitimately differs between two sides, as the exchange is normalised: the side's table prefix and column keys. */
interface Normaliser {
  readonly prefix: string;
  readonly keys: ColumnKeys;
}

function normalValue(v: unknown, n: Normaliser): unknown {
  if (typeof v === 'string') return n.keys.has(v) ? keyName(v, n.keys) : normalString(v, n.prefix);
  if (Array.isArray(v)) return v.map((x) => normalValue(x, n));
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        n.keys.has(k) ? keyName(k, n.keys) : namesThing(k) ? '<key>' : normalString(k, n.prefix),
        normalValue(x, n),
      ]),
    );
  return v;
}

/** The body's JSON, or undefined when it is empty or not JSON. */
export function jsonBody(r: Reply): unknown {
  if (!r.text.length) return undefined;
  try {
    return JSON.parse(r.text) as unknown;
  } catch {
    return undefined;
  }
}

/** The body's JSON as the exchange compares it read back: secrets masked, what differs by nature as a placeholder (undefined: not JSON). */
export function normalBody(r: Reply, n: Normaliser): unknown {
  try {
    return r.text.length ? normalValue(JSON.parse(redactBody(r.text, 'application/json')), n) : undefined;
  } catch {
    return undefined;
  }
}

/** A readable, normalised, redacted sample of a body (`text`: the answer's, or that text with parts blanked). */
export function sampleOf(r: Reply, n: Normaliser, text = r.text): string {
  let body: unknown;
  // Secret fields (token, password, …) masked by the redaction layer first, and their values registered.
  try {
    body = text.length ? JSON.parse(redactBody(text, 'application/json')) : undefined;
  } catch {
    body = undefined;
  }
  const shown =
    body === undefined
      ? normalString(text.slice(0, SAMPLE_CHARS), n.prefix)
      : JSON.stringify(normalValue(body, n), null, 1);
  const cut = shown.length > SAMPLE_CHARS ? `${shown.slice(0, SAMPLE_CHARS)}…` : shown;
  return redactText(cut);
}

function rateHeadersOf(r: Reply): string[] {
  return RATE_HEADERS.flatMap((h) => {
    const v = r.header(h);
    if (v === undefined) return [];
    if (!/^\d+$/.test(v.trim())) return [`${h}:not-integer`];
    // A reset is a Unix time (§8.2) or, wrongly, seconds from now: the form differs, not the value.
    return [h === 'x-ratelimit-reset' ? `${h}:${Number(v) > 1e9 ? 'unix-time' : 'seconds'}` : h];
  });
}

/** The paths of the URLs an answer gives (a base token's server addresses, an upload link), ids blanked: which route family a client is sent to is a value. */
function urlPaths(v: unknown, prefix: string, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8) return out;
  if (typeof v === 'string' && /^https?:\/\//.test(v)) {
    try {
      const segment = (seg: string) =>
        prefix && seg.includes(prefix)
          ? '<scratch name>'
          : /^[A-Za-z0-9_-]{16,}$/.test(seg)
            ? '<token>'
            : /[0-9a-f]{6}/.test(seg)
              ? '<tag>'
              : seg;
      out.add(new URL(v).pathname.replace(UUID, '<uuid>').split('/').map(segment).join('/'));
    } catch {
      /* not a URL after all */
    }
  } else if (v && typeof v === 'object') for (const x of Object.values(v)) urlPaths(x, prefix, out, depth + 1);
  return out;
}

export interface CallRecord {
  ref: string;
  operation: string;
  method: string;
  path: string;
}

/** The exchange of one answered call. */
export function exchangeOf(call: CallRecord, r: Reply, n: Normaliser): Exchange {
  const body = jsonBody(r);
  const type = r.header('content-type')?.split(';')[0]?.trim().toLowerCase() || null;
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const urls = r.status < 300 ? [...urlPaths(body, n.prefix)].sort() : [];
  return {
    ref: call.ref,
    operation: call.operation,
    request: { method: call.method, path: call.path },
    status: r.status,
    contentType: type,
    shape: body === undefined ? null : shapeOf(body, n.keys),
    ...(r.status >= 400 ? { errorForm: isObject ? ERROR_FIELDS.filter((f) => f in (body as object)) : [] } : {}),
    rateHeaders: rateHeadersOf(r),
    ...(urls.length ? { values: { urls } } : {}),
    sample: sampleOf(r, n),
  };
}

/** The exchange of a call not made on this side, and why. */
export function skippedExchange(call: CallRecord, why: string, setupFailed: boolean): Exchange {
  return {
    ref: call.ref,
    operation: call.operation,
    request: { method: call.method, path: call.path },
    skipped: redactText(why),
    ...(setupFailed ? { setupFailed } : {}),
  };
}

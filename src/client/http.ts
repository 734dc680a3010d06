/**
 * One HTTP call with explicit limits: connect, headers and body timeouts and a response
 * size cap (undici's defaults — 300 s and unlimited — are wrong for a harness). Never
 * throws: a response or a transport error comes back as a value. Redirects are not followed:
 * a 301/302/303/307/308 is the transport error `redirect`.
 */
import type { Agent, Dispatcher } from 'undici';
import { fromException, transportError, type TransportError } from './errors.js';
import { callStarted } from './in-flight.js';
import { currentTrust, tlsConnectOptions } from './tls.js';

export interface Limits {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  maxBodyBytes: number;
}

const DEFAULT_LIMITS: Limits = { connectMs: 5_000, headersMs: 15_000, bodyMs: 30_000, maxBodyBytes: 32 * 1024 * 1024 };

interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer | Uint8Array;
}

export interface HttpResponse {
  ok: true;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

type HttpResult = HttpResponse | TransportError;

const agents = new Map<string, Agent>();
/**
 * undici on the first call: every Playwright process that lists checks loads this module
 * through the suites, and only those that call need undici (0.1 s of CPU to load).
 */
let undici: typeof import('undici') | undefined;
const loadUndici = async () => (undici ??= await import('undici'));
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One connection pool per (limits, local address, TLS trust): RATE-2 binds distinct source addresses. */
function agentFor(lib: typeof import('undici'), limits: Limits, localAddress?: string): Agent {
  const trust = currentTrust();
  const key = `${limits.connectMs}/${limits.headersMs}/${limits.bodyMs}/${localAddress ?? ''}/${trust.insecure}/${trust.caFile ?? ''}`;
  let a = agents.get(key);
  if (!a) {
    a = new lib.Agent({
      // A top-level option: undici's Client passes its own `localAddress` to the connector, overriding `connect.localAddress`.
      connect: { timeout: limits.connectMs, ...tlsConnectOptions(trust) },
      ...(localAddress ? { localAddress } : {}),
      headersTimeout: limits.headersMs,
      bodyTimeout: limits.bodyMs,
      keepAliveTimeout: 4_000,
      connections: 64,
    });
    agents.set(key, a);
  }
  return a;
}

export async function closeAgents(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.allSettled(all.map((a) => a.close()));
}

function flatHeaders(h: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Drop a body unread. undici's body emits an AbortError when destroyed: without a listener that would be an uncaught exception. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export async function send(
  req: HttpRequest,
  limits: Limits = DEFAULT_LIMITS,
  localAddress?: string,
): Promise<HttpResult> {
  const end = callStarted();
  try {
    return await sendOnce(req, limits, localAddress);
  } finally {
    end();
  }
}

async function sendOnce(req: HttpRequest, limits: Limits, localAddress: string | undefined): Promise<HttpResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // A whole-call deadline on top of undici's per-phase timeouts: a body trickled byte by
  // byte would otherwise reset the body timeout forever.
  const deadline = AbortSignal.timeout(limits.connectMs + limits.headersMs + limits.bodyMs);
  let res: Dispatcher.ResponseData;
  try {
    const lib = undici ?? (await loadUndici()); // no await per call once loaded (the rate checks' bursts)
    res = await lib.request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      dispatcher: agentFor(lib, limits, localAddress),
      signal: deadline,
    });
  } catch (e) {
    return fromException(e, elapsed());
  }
  // A redirect is never an answer of this API; the harness does not follow one (a loop would never end).
  if (REDIRECTS.has(res.statusCode)) {
    discard(res.body);
    const location = res.headers.location;
    return transportError(
      'redirect',
      `${res.statusCode} → ${Array.isArray(location) ? location[0] : (location ?? '(no location)')}`,
      elapsed(),
    );
  }
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
    discard(res.body);
    return transportError('too-large', `Content-Length ${declared} > cap ${limits.maxBodyBytes}`, elapsed());
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBodyBytes) {
        discard(res.body);
        return transportError('too-large', `more than ${limits.maxBodyBytes} bytes`, elapsed());
      }
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    const err = fromException(e, elapsed());
    return err.kind === 'timeout-body' || err.kind === 'reset' || err.kind === 'network'
      ? { ...err, kind: err.kind === 'network' ? 'reset' : err.kind }
      : err;
  }
  return {
    ok: true,
    status: res.statusCode,
    headers: flatHeaders(res.headers),
    body: Buffer.concat(chunks),
    ms: elapsed(),
  };
}

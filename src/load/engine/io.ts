/**
 * HTTP for the built-in runner: undici's raw dispatch API (the fastest it offers), one pool
 * per origin and source address so VUs can be bound to distinct local IPs (k6's
 * --local-ips). Never throws at a caller: timeouts, resets, refused connections and
 * oversized bodies come back as a result with status 0 and k6's error code.
 */
import { Pool } from 'undici';
import type { HttpRequestSpec, HttpResult, Timings } from '../runtime/protocol.js';
import { canonicalHeader } from '../runtime/k6-response.js';

export interface IoOptions {
  /** Cap on a response body; larger ones are an error (k6 code 1000), not an unbounded buffer. */
  maxBodyBytes?: number;
}

export interface Measured {
  result: HttpResult;
  bytesSent: number;
  bytesReceived: number;
}

const ZERO: Timings = { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0, receiving: 0, duration: 0 };

export class HttpIo {
  private readonly pools = new Map<string, Pool>();
  private readonly urls = new Map<string, URL>();
  private readonly maxBody: number;
  private readonly inflight = new Set<{ deadline: number; abort: (e: Error) => void }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(opts: IoOptions = {}) {
    this.maxBody = opts.maxBodyBytes ?? 64 * 1024 * 1024;
    // One timer sweeps request deadlines: cheaper than a timer per request.
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const r of this.inflight) if (now >= r.deadline) r.abort(Object.assign(new Error('request timeout'), { code: 'K6_TIMEOUT' }));
    }, 50);
    this.sweeper.unref();
  }

  private pool(origin: string, localAddress: string | undefined): Pool {
    const key = `${origin}|${localAddress ?? ''}`;
    let p = this.pools.get(key);
    if (!p) {
      p = new Pool(origin, { ...(localAddress ? { localAddress } : {}), keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });
      this.pools.set(key, p);
    }
    return p;
  }

  send(spec: HttpRequestSpec, localAddress: string | undefined, done: (m: Measured) => void): void {
    const t0 = performance.now();
    let url = this.urls.get(spec.url);
    if (!url) {
      try {
        url = new URL(spec.url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
      } catch (e) {
        done({ result: failure(spec.url, `invalid URL: ${(e as Error).message}`, 1020, ZERO), bytesSent: 0, bytesReceived: 0 });
        return;
      }
      // Scripts repeat their URLs: parse each once (bounded, so unique query strings cannot grow it).
      if (this.urls.size < 2000) this.urls.set(spec.url, url);
    }
    const headers: string[] = [];
    let sent = spec.method.length + spec.url.length + 12;
    for (const k in spec.headers) { headers.push(k, spec.headers[k]!); sent += k.length + spec.headers[k]!.length + 4; }
    const body = spec.body === null ? null : typeof spec.body === 'string' ? Buffer.from(spec.body) : Buffer.from(spec.body.buffer, spec.body.byteOffset, spec.body.byteLength);
    if (body) sent += body.length;
    let tStart = t0, tFirst = 0, status = 0, statusText = '', resHeaders: Record<string, string> = {}, size = 0, finished = false;
    const chunks: Buffer[] = [];
    let controller: { abort(reason: Error): void } | undefined;
    let pendingAbort: Error | undefined;
    const entry = { deadline: t0 + spec.timeoutMs, abort: (e: Error) => { if (controller) controller.abort(e); else pendingAbort = e; finish(e); } };
    this.inflight.add(entry);
    const finish = (err?: Error) => {
      if (finished) return;
      finished = true;
      this.inflight.delete(entry);
      const end = performance.now();
      const first = tFirst || end;
      const timings: Timings = { blocked: tStart - t0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: first - tStart, receiving: end - first, duration: end - tStart };
      if (err) {
        done({ result: failure(spec.url, err.message, errorCode(err), timings), bytesSent: sent, bytesReceived: size });
        return;
      }
      let out: string | Uint8Array | null = null;
      if (spec.responseType === 'text') out = Buffer.concat(chunks).toString('utf8');
      else if (spec.responseType === 'binary') out = new Uint8Array(Buffer.concat(chunks));
      done({
        result: { url: spec.url, status, status_text: `${status} ${statusText}`.trim(), proto: 'HTTP/1.1', headers: resHeaders, body: out, timings, error: '', error_code: 0, remote_ip: url.hostname.replace(/^\[|\]$/g, ''), remote_port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) },
        bytesSent: sent,
        bytesReceived: size + 64,
      });
    };
    try {
      this.pool(url.origin, localAddress).dispatch(
        { origin: url.origin, path: url.pathname + url.search, method: spec.method, headers, body, headersTimeout: spec.timeoutMs, bodyTimeout: spec.timeoutMs },
        {
          onRequestStart(c) { controller = c; tStart = performance.now(); if (pendingAbort) c.abort(pendingAbort); },
          onResponseStart: (_c, code, h, msg) => {
            tFirst = performance.now(); status = code; statusText = msg ?? '';
            const out: Record<string, string> = {};
            for (const k in h) {
              const v = h[k];
              const s = Array.isArray(v) ? v.join(', ') : String(v ?? '');
              out[canonicalHeader(k)] = s;
              size += k.length + 4 + s.length;
            }
            resHeaders = out;
          },
          onResponseData: (c, chunk) => {
            size += chunk.length;
            if (size > this.maxBody) { c.abort(Object.assign(new Error(`response body larger than ${this.maxBody} bytes`), { code: 'K6_TOO_LARGE' })); return; }
            if (spec.responseType !== 'none') chunks.push(chunk);
          },
          onResponseEnd: () => finish(),
          onResponseError: (_c, e) => finish(e),
        },
      );
    } catch (e) {
      finish(e as Error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.pools.values()].map((p) => p.destroy()));
    this.pools.clear();
    this.urls.clear();
  }
}

function failure(url: string, message: string, code: number, timings: Timings): HttpResult {
  return { url, status: 0, status_text: '', proto: '', headers: {}, body: null, timings, error: message, error_code: code, remote_ip: '', remote_port: 0 };
}

/** k6's error codes (https://grafana.com/docs/k6/latest/javascript-api/error-codes/). */
function errorCode(e: Error & { code?: string }): number {
  switch (e.code) {
    case 'K6_TIMEOUT': case 'UND_ERR_HEADERS_TIMEOUT': case 'UND_ERR_BODY_TIMEOUT': return 1050;
    case 'ECONNREFUSED': return 1212;
    case 'ECONNRESET': case 'UND_ERR_SOCKET': return 1220;
    case 'EPIPE': return 1201;
    case 'ETIMEDOUT': return 1211;
    case 'ENOTFOUND': case 'EAI_AGAIN': return 1101;
    case 'EADDRNOTAVAIL': return 1210;
    default: return e.code?.startsWith('E') ? 1200 : 1000;
  }
}

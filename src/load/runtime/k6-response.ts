/** k6's Response object, built from the I/O thread's answer. */
import type { IoResult, Timings } from './protocol.js';

export interface RequestInfo { method: string; url: string; headers: Record<string, string[]>; body: string }

export class Response {
  readonly status: number;
  readonly status_text: string;
  readonly proto: string;
  readonly headers: Record<string, string>;
  readonly body: string | ArrayBuffer | null;
  readonly timings: Timings;
  readonly error: string;
  readonly error_code: number;
  readonly url: string;
  readonly remote_ip: string;
  readonly remote_port: number;
  readonly cookies: Record<string, unknown[]> = {};
  readonly tls_version = '';
  readonly tls_cipher_suite = '';
  readonly ocsp = { status: 'unknown' };
  private parsed: { ok: true; value: unknown } | { ok: false; err: Error } | undefined;

  constructor(r: IoResult, url: string, readonly request: RequestInfo) {
    this.status = r.status;
    this.status_text = r.statusText;
    this.proto = r.proto;
    const headers: Record<string, string> = {};
    for (let i = 0; i < r.headers.length; i += 2) headers[r.headers[i]!] = r.headers[i + 1]!;
    this.headers = headers;
    this.body = r.body instanceof Uint8Array ? r.body.buffer.slice(r.body.byteOffset, r.body.byteOffset + r.body.byteLength) as ArrayBuffer : r.body;
    this.timings = r.timings;
    this.error = r.error;
    this.error_code = r.errorCode;
    this.url = url;
    this.remote_ip = r.remoteIp;
    this.remote_port = r.remotePort;
  }

  /** The body parsed as JSON; with a selector (`a.b.0`, gjson's dotted path), that part of it. */
  json(selector?: string): unknown {
    if (this.parsed === undefined) {
      try {
        if (typeof this.body !== 'string') throw new Error('the response has no text body (responseType "none" or "binary")');
        this.parsed = { ok: true, value: JSON.parse(this.body) };
      } catch (e) {
        this.parsed = { ok: false, err: e as Error };
      }
    }
    if (!this.parsed.ok) throw new Error(`cannot parse json due to an error: ${this.parsed.err.message}`);
    if (selector === undefined || selector === '') return this.parsed.value;
    let cur: unknown = this.parsed.value;
    for (const part of selector.split('.')) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = part === '#' && Array.isArray(cur) ? cur.length : (cur as Record<string, unknown>)[part];
    }
    return cur;
  }

  html(): never {
    throw new Error('Response.html() is not supported by the built-in runner');
  }
}

const canonical = new Map<string, string>();

/** Go's canonical header name, as k6 exposes response headers (`X-Ratelimit-Limit`); memoised, it runs per header. */
export function canonicalHeader(name: string): string {
  let c = canonical.get(name);
  if (c === undefined) {
    c = name.toLowerCase().replace(/(^|-)([a-z])/g, (_, d: string, ch: string) => d + ch.toUpperCase());
    if (canonical.size < 1000) canonical.set(name, c);
  }
  return c;
}

/**
 * k6's Response object, built from the HTTP client's answer. What most iterations never read — the
 * headers as an object, the body decoded from its bytes, the request as sent, the cookies and
 * OCSP objects — is made on first read (and kept): a request then costs the VU a few fields instead of three objects
 * and a UTF-8 decode. The values are those k6 gives.
 */
import type { Answer, HttpRequestSpec, RawHeaders, Timings } from './protocol.js';

interface RequestInfo {
  method: string;
  url: string;
  headers: Record<string, string[]>;
  body: string;
}

export class Response {
  readonly status: number;
  readonly status_text: string;
  readonly proto: string;
  readonly timings: Timings;
  readonly error: string;
  readonly error_code: number;
  readonly url: string;
  readonly remote_ip: string;
  readonly remote_port: number;
  readonly tls_version = '';
  readonly tls_cipher_suite = '';
  private cookieObj: Record<string, unknown[]> | undefined;
  private ocspObj: { status: string } | undefined;
  private parsed: { ok: true; value: unknown } | { ok: false; err: Error } | undefined;
  private rawHeaders: RawHeaders | undefined;
  private headerObj: Record<string, string> | undefined;
  private rawBody: Answer | undefined;
  private bodyValue: string | ArrayBuffer | null | undefined;
  private spec: HttpRequestSpec | undefined;
  private info: RequestInfo | undefined;

  constructor(r: Answer, spec: HttpRequestSpec) {
    this.status = r.status;
    this.status_text = r.statusText;
    this.proto = r.proto;
    this.rawHeaders = r.headers;
    this.rawBody = r;
    this.timings = r.timings;
    this.error = r.error;
    this.error_code = r.errorCode;
    this.url = spec.url;
    this.remote_ip = r.remoteIp;
    this.remote_port = r.remotePort;
    this.spec = spec;
  }

  get cookies(): Record<string, unknown[]> {
    return (this.cookieObj ??= {});
  }

  get ocsp(): { status: string } {
    return (this.ocspObj ??= { status: 'unknown' });
  }

  /** Response headers by canonical name (`X-Ratelimit-Limit`), as k6 exposes them. */
  get headers(): Record<string, string> {
    if (!this.headerObj) {
      const h: Record<string, string> = {};
      // A repeated header's values joined by ', ', as k6 shows them.
      const raw = this.rawHeaders ?? [];
      for (let i = 0; i < raw.length; i += 2) {
        const k = canonicalHeader(raw[i]!);
        const had = h[k];
        h[k] = had === undefined ? raw[i + 1]! : `${had}, ${raw[i + 1]!}`;
      }
      this.headerObj = h;
      this.rawHeaders = undefined;
    }
    return this.headerObj;
  }

  get body(): string | ArrayBuffer | null {
    if (this.bodyValue === undefined) {
      const r = this.rawBody!;
      const c = r.chunks;
      const whole = c && r.responseType !== 'none' ? (c.length === 1 ? c[0]! : Buffer.concat(c)) : null;
      this.bodyValue =
        whole === null
          ? null
          : r.responseType === 'binary'
            ? (whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer)
            : whole.toString('utf8');
      this.rawBody = undefined;
    }
    return this.bodyValue;
  }

  /** The request as it was sent (k6's `res.request`). */
  get request(): RequestInfo {
    if (!this.info) {
      const s = this.spec!;
      const headers: Record<string, string[]> = {};
      for (const k in s.headers) headers[k] = [s.headers[k]!];
      this.info = { method: s.method, url: s.url, headers, body: typeof s.body === 'string' ? s.body : '' };
      this.spec = undefined;
    }
    return this.info;
  }

  /** The body parsed as JSON; with a selector (`a.b.0`, gjson's dotted path), that part of it. */
  json(selector?: string): unknown {
    if (this.parsed === undefined) {
      try {
        if (typeof this.body !== 'string')
          throw new Error('the response has no text body (responseType "none" or "binary")');
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
function canonicalHeader(name: string): string {
  let c = canonical.get(name);
  if (c === undefined) {
    c = name.toLowerCase().replace(/(^|-)([a-z])/g, (_, d: string, ch: string) => d + ch.toUpperCase());
    if (canonical.size < 1000) canonical.set(name, c);
  }
  return c;
}

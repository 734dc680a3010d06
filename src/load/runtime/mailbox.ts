/**
 * A VU's mailbox: one SharedArrayBuffer holding its control words, a request area the VU
 * writes and a response area the I/O thread writes. The two areas are apart so that a late
 * answer to an interrupted request can never overwrite a request not yet read. What does not
 * fit goes through the VU's MessagePort instead (the area then says so); the areas are sized
 * so that ordinary API calls never need that.
 *
 * Short strings travel joined by NUL (method and headers; status text, protocol, address and
 * error; response headers): each string costs a call into C++ to encode or decode, and NUL
 * cannot occur in any of them on the wire — a request whose headers contain one takes the port.
 */
import { CTL_WORDS, type HttpRequestSpec, type IoRequest, type IoResult, type ResponseType } from './protocol.js';
import { Reader, Writer } from './wire.js';

export const REQ_AT = CTL_WORDS * 4;
export const REQ_BYTES = 16 * 1024;
export const RESP_AT = REQ_AT + REQ_BYTES;
export const RESP_BYTES = 64 * 1024;
export const MAILBOX_BYTES = RESP_AT + RESP_BYTES;

const TYPES: readonly ResponseType[] = ['text', 'binary', 'none'];
const SEP = '\u0000';
const INLINE = 0,
  VIA_PORT = 1;
const BODY_NONE = 0,
  BODY_TEXT = 1,
  BODY_BINARY = 2;

/** A request area: count, then each request. Returns false when it must take the port. */
export function writeRequests(w: Writer, list: readonly HttpRequestSpec[]): boolean {
  w.reset();
  w.u8(INLINE);
  w.u32(list.length);
  for (const r of list) {
    if (r.method.includes(SEP)) return false;
    let head = r.method;
    for (const k in r.headers) {
      const v = r.headers[k]!;
      if (k.includes(SEP) || v.includes(SEP)) return false;
      head += SEP + k + SEP + v;
    }
    w.str(head);
    w.str(r.url);
    if (r.body === null) w.u8(BODY_NONE);
    else if (typeof r.body === 'string') {
      w.u8(BODY_TEXT);
      w.str(r.body);
    } else {
      w.u8(BODY_BINARY);
      w.bytes(r.body);
    }
    w.f64(r.timeoutMs);
    w.u8(TYPES.indexOf(r.responseType));
  }
  return w.ok;
}

/** Marks an area whose content went through the port. */
export function writeViaPort(w: Writer): void {
  w.reset();
  w.u8(VIA_PORT);
}

/** null: the requests are on the port. */
export function readRequests(r: Reader): IoRequest[] | null {
  r.reset();
  if (r.u8() === VIA_PORT) return null;
  const n = r.u32();
  const out: IoRequest[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const head = r.str().split(SEP);
    const method = head[0]!;
    head.shift();
    const url = r.str();
    // A string body was written as UTF-8: its bytes are what goes on the wire.
    const body = r.u8() === BODY_NONE ? null : r.bytes();
    const timeoutMs = r.f64();
    out[i] = { method, url, headers: head, body, timeoutMs, responseType: TYPES[r.u8()]! };
  }
  return out;
}

/** Requests as they travel on the port when the area is too small. */
export function toIoRequest(r: HttpRequestSpec): IoRequest {
  const headers: string[] = [];
  for (const k of Object.keys(r.headers)) headers.push(k, r.headers[k]!);
  const body = r.body === null ? null : typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
  return { method: r.method, url: r.url, headers, body, timeoutMs: r.timeoutMs, responseType: r.responseType };
}

/** An answer before it is written: the headers as undici gave them, the body still in its chunks, and what the script asked for. */
export interface Answer extends Omit<IoResult, 'body' | 'headers'> {
  headers: RawHeaders;
  chunks: Buffer[] | null;
  responseType: ResponseType;
}

/** Response headers as undici hands them over (lower-case names). */
export type RawHeaders = Record<string, string | string[] | undefined>;

/** Flat canonical name/value pairs (`Content-Type`, as k6 exposes them), made when a reader needs them. */
export function headerPairs(h: RawHeaders | string[]): string[] {
  if (Array.isArray(h)) return h;
  const out: string[] = [];
  for (const k in h) {
    const v = h[k];
    out.push(canonicalHeader(k), Array.isArray(v) ? v.join(', ') : String(v ?? ''));
  }
  return out;
}

/** Returns false when the answers must take the port. */
export function writeAnswers(w: Writer, list: readonly Answer[]): boolean {
  w.reset();
  w.u8(INLINE);
  w.u32(list.length);
  for (const a of list) {
    const pairs = headerPairs(a.headers);
    for (const h of pairs) if (h.includes(SEP)) return false;
    const headers = pairs.join(SEP);
    w.u16(a.status);
    w.u32(a.errorCode);
    w.u32(a.remotePort);
    const t = a.timings;
    w.f64(t.blocked);
    w.f64(t.connecting);
    w.f64(t.tls_handshaking);
    w.f64(t.sending);
    w.f64(t.waiting);
    w.f64(t.receiving);
    w.f64(t.duration);
    w.f64(a.bytesSent);
    w.f64(a.bytesReceived);
    // The error goes last: it is the one free text, so a NUL in it stays in it.
    w.str(a.statusText + SEP + a.proto + SEP + a.remoteIp + SEP + a.error);
    w.str(headers);
    if (!a.chunks || a.responseType === 'none') w.u8(BODY_NONE);
    else {
      w.u8(a.responseType === 'binary' ? BODY_BINARY : BODY_TEXT);
      w.chunks(a.chunks);
    }
  }
  return w.ok;
}

/** An answer as it travels on the port: the body made whole. */
export function toIoResult(a: Answer): IoResult {
  const chunks = a.chunks;
  const whole = chunks && a.responseType !== 'none' ? (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)) : null;
  return {
    status: a.status,
    statusText: a.statusText,
    proto: a.proto,
    headers: headerPairs(a.headers),
    body: whole === null ? null : a.responseType === 'binary' ? new Uint8Array(whole) : whole.toString('utf8'),
    timings: a.timings,
    error: a.error,
    errorCode: a.errorCode,
    remoteIp: a.remoteIp,
    remotePort: a.remotePort,
    bytesSent: a.bytesSent,
    bytesReceived: a.bytesReceived,
  };
}

/** null: the answers are on the port. */
export function readAnswers(r: Reader): IoResult[] | null {
  r.reset();
  if (r.u8() === VIA_PORT) return null;
  const n = r.u32();
  const out: IoResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const status = r.u16();
    const errorCode = r.u32();
    const remotePort = r.u32();
    const timings = {
      blocked: r.f64(),
      connecting: r.f64(),
      tls_handshaking: r.f64(),
      sending: r.f64(),
      waiting: r.f64(),
      receiving: r.f64(),
      duration: r.f64(),
    };
    const bytesSent = r.f64();
    const bytesReceived = r.f64();
    const meta = r.str();
    const a = meta.indexOf(SEP),
      b = meta.indexOf(SEP, a + 1),
      c = meta.indexOf(SEP, b + 1);
    const head = r.str();
    const headers = head === '' ? [] : head.split(SEP);
    const kind = r.u8();
    const body = kind === BODY_NONE ? null : kind === BODY_TEXT ? r.str() : r.bytes();
    out[i] = {
      status,
      statusText: meta.slice(0, a),
      proto: meta.slice(a + 1, b),
      remoteIp: meta.slice(b + 1, c),
      error: meta.slice(c + 1),
      headers,
      body,
      timings,
      errorCode,
      remotePort,
      bytesSent,
      bytesReceived,
    };
  }
  return out;
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

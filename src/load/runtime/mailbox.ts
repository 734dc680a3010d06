/**
 * A VU's mailbox: one SharedArrayBuffer holding its control words, a request area the VU
 * writes and a response area the I/O thread writes. The two areas are apart so that a late
 * answer to an interrupted request can never overwrite a request not yet read. What does not
 * fit goes through the VU's MessagePort instead (the area then says so); the areas are sized
 * so that ordinary API calls never need that.
 */
import { CTL_WORDS, type HttpRequestSpec, type IoRequest, type IoResult, type ResponseType } from './protocol.js';
import { Reader, Writer } from './wire.js';

export const REQ_AT = CTL_WORDS * 4;
export const REQ_BYTES = 16 * 1024;
export const RESP_AT = REQ_AT + REQ_BYTES;
export const RESP_BYTES = 64 * 1024;
export const MAILBOX_BYTES = RESP_AT + RESP_BYTES;

const TYPES: readonly ResponseType[] = ['text', 'binary', 'none'];

/** A request area: count, then each request. Returns false when it did not fit. */
export function writeRequests(w: Writer, list: readonly HttpRequestSpec[]): boolean {
  w.reset();
  w.u8(0);
  w.u32(list.length);
  for (const r of list) {
    w.str(r.method);
    w.str(r.url);
    const keys = Object.keys(r.headers);
    w.u32(keys.length);
    for (const k of keys) { w.str(k); w.str(r.headers[k]!); }
    if (r.body === null) w.u8(0);
    else if (typeof r.body === 'string') { w.u8(1); w.str(r.body); }
    else { w.u8(2); w.bytes(r.body); }
    w.f64(r.timeoutMs);
    w.u8(TYPES.indexOf(r.responseType));
  }
  return w.ok;
}

/** Marks an area whose content went through the port. */
export function writeViaPort(w: Writer): void {
  w.reset();
  w.u8(1);
}

/** null: the requests are on the port. */
export function readRequests(r: Reader): IoRequest[] | null {
  r.reset();
  if (r.u8() === 1) return null;
  const n = r.u32();
  const out: IoRequest[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const method = r.str();
    const url = r.str();
    const nh = r.u32();
    const headers: string[] = new Array(nh * 2);
    for (let h = 0; h < nh * 2; h++) headers[h] = r.str();
    const kind = r.u8();
    // A string body was written as UTF-8: its bytes are what goes on the wire.
    const body = kind === 0 ? null : r.bytes();
    const timeoutMs = r.f64();
    out[i] = { method, url, headers, body, timeoutMs, responseType: TYPES[r.u8()]! };
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

/** The body of an answer before it is written: undici's chunks, and what the script asked for. */
export interface Answer extends Omit<IoResult, 'body'> {
  chunks: Buffer[] | null;
  size: number;
  responseType: ResponseType;
}

const BODY_NONE = 0, BODY_TEXT = 1, BODY_BINARY = 2;

export function writeAnswers(w: Writer, list: readonly Answer[]): boolean {
  w.reset();
  w.u8(0);
  w.u32(list.length);
  for (const a of list) {
    w.u16(a.status);
    w.str(a.statusText);
    w.str(a.proto);
    const t = a.timings;
    w.f64(t.blocked); w.f64(t.connecting); w.f64(t.tls_handshaking); w.f64(t.sending); w.f64(t.waiting); w.f64(t.receiving); w.f64(t.duration);
    w.str(a.error);
    w.u32(a.errorCode);
    w.str(a.remoteIp);
    w.u32(a.remotePort);
    w.f64(a.bytesSent);
    w.f64(a.bytesReceived);
    w.u32(a.headers.length);
    for (const h of a.headers) w.str(h);
    if (!a.chunks || a.responseType === 'none') w.u8(BODY_NONE);
    else { w.u8(a.responseType === 'binary' ? BODY_BINARY : BODY_TEXT); w.chunks(a.chunks, a.size); }
  }
  return w.ok;
}

/** An answer as it travels on the port: the body made whole. */
export function toIoResult(a: Answer): IoResult {
  const { chunks, size: _size, responseType, ...rest } = a;
  const whole = chunks && responseType !== 'none' ? Buffer.concat(chunks) : null;
  return { ...rest, body: whole === null ? null : responseType === 'binary' ? new Uint8Array(whole) : whole.toString('utf8') };
}

/** null: the answers are on the port. */
export function readAnswers(r: Reader): IoResult[] | null {
  r.reset();
  if (r.u8() === 1) return null;
  const n = r.u32();
  const out: IoResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const status = r.u16();
    const statusText = r.str();
    const proto = r.str();
    const timings = { blocked: r.f64(), connecting: r.f64(), tls_handshaking: r.f64(), sending: r.f64(), waiting: r.f64(), receiving: r.f64(), duration: r.f64() };
    const error = r.str();
    const errorCode = r.u32();
    const remoteIp = r.str();
    const remotePort = r.u32();
    const bytesSent = r.f64();
    const bytesReceived = r.f64();
    const nh = r.u32();
    const headers: string[] = new Array(nh);
    for (let h = 0; h < nh; h++) headers[h] = r.str();
    const kind = r.u8();
    const body = kind === BODY_NONE ? null : kind === BODY_TEXT ? r.str() : r.bytes();
    out[i] = { status, statusText, proto, headers, body, timings, error, errorCode, remoteIp, remotePort, bytesSent, bytesReceived };
  }
  return out;
}

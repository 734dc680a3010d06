/**
 * HTTP/1.1 over a bare socket, for requests no HTTP client sends: methods fetch refuses
 * (CONNECT, TRACE), a Content-Length that promises more than is sent, bytes that are not a
 * valid request. One request per connection (`Connection: close`); the answer is read to the
 * end of the connection and parsed as a value, never thrown.
 */
import net from 'node:net';
import type { Res } from './kit.js';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Content-Length to announce; the body's length when not given (a lie is the point of some probes). */
  contentLength?: number;
  /** Send the body as one chunk of `Transfer-Encoding: chunked`, announcing no length. */
  chunked?: boolean;
}

/** The bytes of a request: request line, headers, body. */
export function requestBytes(r: RawRequest, host: string): Buffer {
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body);
  const headers: Record<string, string> = { host, connection: 'close', ...r.headers };
  if (r.chunked) headers['transfer-encoding'] = 'chunked';
  else if (r.body !== undefined || r.contentLength !== undefined) headers['content-length'] = String(r.contentLength ?? body.length);
  const head = `${r.method} ${r.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  const framed = r.chunked ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')] : [body];
  return Buffer.concat([Buffer.from(head, 'latin1'), ...framed]);
}

/** Parse an HTTP/1.1 answer (status line, headers, body by Content-Length or to the end). */
export function parseAnswer(buf: Buffer): Res {
  const end = buf.indexOf('\r\n\r\n');
  const head = buf.subarray(0, end < 0 ? buf.length : end).toString('latin1');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = new Headers();
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  let body = end < 0 ? Buffer.alloc(0) : buf.subarray(end + 4);
  const length = Number(headers.get('content-length') ?? NaN);
  if (Number.isInteger(length)) body = body.subarray(0, length);
  const text = body.toString('utf8');
  let parsed: unknown;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
  return { status, headers, text, body: parsed };
}

/** Send `bytes` to `url`'s host and read the answer until the server closes (or `timeoutMs`). */
export function rawExchange(url: string, bytes: Buffer, timeoutMs = 10_000): Promise<Res> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(u.port), u.hostname.replace(/^\[|\]$/g, ''));
    const finish = () => { clearTimeout(timer); socket.destroy(); resolve(parseAnswer(Buffer.concat(chunks))); };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('connect', () => socket.write(bytes, () => undefined));
    socket.on('data', (c) => chunks.push(c));
    // The server may answer and close before the whole request is written (EPIPE, ECONNRESET): what it answered counts.
    socket.on('error', () => undefined);
    socket.on('close', finish);
  });
}

/** One request over a bare socket, answered as a value like `call`. */
export function rawCall(url: string, r: RawRequest, timeoutMs?: number): Promise<Res> {
  return rawExchange(url, requestBytes(r, new URL(url).host), timeoutMs);
}

/**
 * HTTP/1.1 over a bare socket (TLS for https), for requests no HTTP client sends: methods
 * fetch and undici refuse (CONNECT), a Content-Length that promises more than is sent, a
 * chunked body, bytes that are not a valid request. One request per connection
 * (`Connection: close`). The outcome is a value, never thrown: an answer (status line,
 * headers, body), or why there is none — the connection closed first (`reset`), nothing
 * arrived in time (`timeout`), or it could not be opened (`refused`, `connect-timeout`).
 */
import net from 'node:net';
import tls from 'node:tls';
import { callStarted } from '../../client/in-flight.js';
import { tlsConnectOptions } from '../../client/tls.js';
import { callTagHeader } from '../target.js';

interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Content-Length to announce; the body's length when not given (a lie is the point of some probes). */
  contentLength?: number;
  /** Send the body as one chunk of `Transfer-Encoding: chunked`, announcing no length. */
  chunked?: boolean;
}

interface RawAnswer {
  ok: true;
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
  ms: number;
}
interface RawFailure {
  ok: false;
  kind: 'reset' | 'timeout' | 'refused' | 'connect-timeout';
  message: string;
  ms: number;
}
type RawOutcome = RawAnswer | RawFailure;

interface RawLimits {
  connectMs: number;
  answerMs: number;
}
const DEFAULT_RAW_LIMITS: RawLimits = { connectMs: 5_000, answerMs: 10_000 };

/** The bytes of a request: request line, headers, body. */
function requestBytes(r: RawRequest, host: string): Buffer {
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body);
  // The selftest's coverage tag too (empty unless it records coverage): CONNECT reaches no request listener that could name the check otherwise.
  const headers: Record<string, string> = { host, connection: 'close', ...callTagHeader(), ...r.headers };
  if (r.chunked) headers['transfer-encoding'] = 'chunked';
  else if (r.body !== undefined || r.contentLength !== undefined)
    headers['content-length'] = String(r.contentLength ?? body.length);
  const head = `${r.method} ${r.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  const framed = r.chunked
    ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]
    : [body];
  return Buffer.concat([Buffer.from(head, 'latin1'), ...framed]);
}

/** The answer in `buf` once it is whole (headers, then Content-Length bytes or the last chunk); undefined while more is due. */
function complete(buf: Buffer, closed: boolean): Omit<RawAnswer, 'ok' | 'ms'> | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = new Headers();
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  let body = buf.subarray(end + 4);
  const length = Number(headers.get('content-length') ?? NaN);
  if (Number.isInteger(length)) {
    if (body.length < length && !closed) return undefined;
    body = body.subarray(0, length);
  } else if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
    if (!closed && body.indexOf('0\r\n\r\n') < 0) return undefined;
    body = dechunk(body);
  } else if (!closed && status !== 204 && status !== 304) {
    return undefined; // no length: the body ends with the connection
  }
  return { status, headers, body, text: body.toString('utf8') };
}

function dechunk(b: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const eol = b.indexOf('\r\n', at);
    const size = eol < 0 ? NaN : parseInt(b.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(b.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Send `bytes` to `url`'s host and read one answer. */
function rawExchange(url: string, bytes: Buffer, limits: RawLimits = DEFAULT_RAW_LIMITS): Promise<RawOutcome> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const secure = u.protocol === 'https:';
  const port = Number(u.port || (secure ? 443 : 80));
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const end = callStarted();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let connected = false;
    let settled = false;
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ...tlsConnectOptions() })
      : net.connect(port, host);
    const settle = (o: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(answerTimer);
      socket.destroy();
      end();
      resolve(o);
    };
    const fail = (kind: RawFailure['kind'], message: string) => settle({ ok: false, kind, message, ms: ms() });
    const connectTimer = setTimeout(
      () => fail('connect-timeout', `could not connect within ${limits.connectMs} ms`),
      limits.connectMs,
    );
    let answerTimer: NodeJS.Timeout | undefined;
    socket.on(secure ? 'secureConnect' : 'connect', () => {
      connected = true;
      clearTimeout(connectTimer);
      answerTimer = setTimeout(
        () =>
          fail(
            'timeout',
            `no whole answer within ${limits.answerMs} ms (${Buffer.concat(chunks).length} bytes arrived)`,
          ),
        limits.answerMs,
      );
      socket.write(bytes, () => undefined);
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const a = complete(Buffer.concat(chunks), false);
      if (a) settle({ ok: true, ...a, ms: ms() });
    });
    // The server may answer and close before the whole request is written (EPIPE, ECONNRESET): what it answered counts.
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (!connected) fail(e.code === 'ECONNREFUSED' ? 'refused' : 'reset', `${e.code ?? ''} ${e.message}`.trim());
    });
    socket.on('close', () => {
      const a = complete(Buffer.concat(chunks), true);
      if (a && a.status > 0) settle({ ok: true, ...a, ms: ms() });
      else
        fail('reset', `the connection closed ${chunks.length ? 'in the middle of the answer' : 'without an answer'}`);
    });
  });
}

/** One request over a bare socket, answered as a value. */
export function rawCall(url: string, r: RawRequest, limits?: RawLimits): Promise<RawOutcome> {
  return rawExchange(url, requestBytes(r, new URL(url).host), limits);
}

/**
 * The VU threads' HTTP/1.1 client: keep-alive connections (net or tls), one request in flight
 * on each (k6 does not pipeline), up to `connections` per pool and a queue beyond, responses
 * parsed by http-parser-js (the parser autocannon runs on). It replaced undici's Pool on the
 * request path: undici's general dispatch (its request object, validations, timers and
 * stream layers) cost a VU thread about 6 µs of CPU per request more (bench/README.md). It
 * speaks only what the runner asks for: a method, a path, headers and a body out; the status,
 * headers and body chunks of the answer to a handler. Errors reach the handler, never a throw,
 * except for a request that cannot be written at all (an invalid header), thrown by dispatch.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { HTTPParser } from 'http-parser-js';
import type { RawHeaders } from '../runtime/protocol.js';
import type { Lookup } from './net-options.js';

export interface Controller {
  abort(reason: Error): void;
}

/** What is told about one request, in this order: start, then the answer or an error. */
interface Handler {
  onRequestStart(c: Controller): void;
  onResponseStart(c: Controller, code: number, headers: RawHeaders, reason: string): void;
  /** A piece of the body: valid during the call only (it may lie in a buffer the next read reuses). */
  onResponseData(c: Controller, chunk: Buffer): void;
  onResponseEnd(): void;
  onResponseError(c: Controller, e: Error): void;
}

interface H1Request {
  method: string;
  path: string;
  headers: string[] | Record<string, string>;
  body: string | Uint8Array | null;
}

interface H1Options {
  connections: number;
  localAddress?: string;
  lookup?: Lookup;
  /** For https: origins. */
  tls?: { rejectUnauthorized: boolean; ca?: string[] };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Header values undici accepts (no control characters but tab). */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/** Methods that carry a body, so an empty one is sent as `content-length: 0` (as undici does). */
const PAYLOAD = new Set(['POST', 'PUT', 'PATCH', 'QUERY', 'PROPFIND', 'PROPPATCH']);

const invalid = (message: string) => Object.assign(new Error(message), { code: 'ERR_INVALID_ARG' });

/** The request line and headers; `close` when the request asks for `Connection: close`. */
function writeHead(req: H1Request, host: string): { head: Buffer; close: boolean } {
  let lines = '';
  let ownHost = false,
    close = false;
  const add = (k: string, v: string) => {
    if (!TOKEN.test(k)) throw invalid(`invalid header key "${k}"`);
    if (BAD_VALUE.test(v)) throw invalid(`invalid ${k} header`);
    const l = k.toLowerCase();
    if (l === 'host') ownHost = true;
    else if (l === 'content-length')
      return; // written from the body below
    else if (l === 'connection') {
      const c = v.toLowerCase();
      if (c !== 'close' && c !== 'keep-alive') throw invalid('invalid connection header');
      close = c === 'close';
      return;
    } else if (l === 'transfer-encoding' || l === 'keep-alive' || l === 'upgrade' || l === 'expect')
      throw invalid(`invalid ${l} header`);
    lines += `${k}: ${v}\r\n`;
  };
  const h = req.headers;
  if (Array.isArray(h)) for (let i = 0; i < h.length; i += 2) add(h[i]!, h[i + 1]!);
  else for (const k in h) add(k, h[k]!);
  const b = req.body;
  const length =
    b === null ? (PAYLOAD.has(req.method) ? 0 : -1) : typeof b === 'string' ? Buffer.byteLength(b) : b.byteLength;
  const head =
    `${req.method} ${req.path} HTTP/1.1\r\n${ownHost ? '' : `host: ${host}\r\n`}` +
    // HTTP/1.1 keeps the connection by default: only a close is said (as Go's client, k6's, does).
    `${close ? 'connection: close\r\n' : ''}${lines}${length >= 0 ? `content-length: ${length}\r\n` : ''}\r\n`;
  return { head: Buffer.from(head, 'latin1'), close };
}

/** The server's keep-alive hint (`Keep-Alive: timeout=N`) in seconds, or -1. */
function keepAliveSeconds(flat: RawHeaders): number {
  for (let i = 0; i < flat.length; i += 2) {
    const k = flat[i]!;
    if (k.length === 10 && k.toLowerCase() === 'keep-alive') {
      const m = KEEP_ALIVE_TIMEOUT.exec(flat[i + 1]!);
      if (m) return Number(m[1]);
    }
  }
  return -1;
}

interface Queued {
  head: Buffer;
  close: boolean;
  body: string | Uint8Array | null;
  handler: Handler;
  method: string;
  /** Sent again once already: a kept-alive connection the server had closed. */
  retried: boolean;
}

/** Requests sent again when a reused connection turns out closed before any answer (as Go's client, k6's, does). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
/** A connection the server said it keeps for N seconds is not reused in its last 2 (undici's margin). */
const KEEP_ALIVE_MARGIN_MS = 2000;
const KEEP_ALIVE_TIMEOUT = /timeout=(\d+)/i;
const socketClosed = () => Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });

export class H1Pool {
  private readonly idle: Conn[] = [];
  private readonly queue: Queued[] = [];
  private readonly all = new Set<Conn>();
  readonly host: string;
  readonly hostname: string;
  readonly port: number;
  closed = false;
  /** The last head written, reused while the same request repeats (most scripts repeat theirs). */
  private last:
    { method: string; path: string; headers: H1Request['headers']; head: Buffer; close: boolean } | undefined;

  constructor(
    readonly origin: URL,
    readonly opts: H1Options,
  ) {
    this.host = origin.host;
    this.hostname = origin.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(origin.port || (origin.protocol === 'https:' ? 443 : 80));
  }

  /** Sends a request, or queues it while every connection is busy; throws only when it cannot be written. */
  dispatch(req: H1Request, handler: Handler): void {
    if (this.closed) throw Object.assign(new Error('the client is closed'), { code: 'UND_ERR_DESTROYED' });
    let l = this.last;
    if (!l || l.method !== req.method || l.path !== req.path || l.headers !== req.headers) {
      const w = writeHead(req, this.host);
      l = this.last = { method: req.method, path: req.path, headers: req.headers, head: w.head, close: w.close };
    }
    this.run({ head: l.head, close: l.close, body: req.body, handler, method: req.method, retried: false });
  }

  run(q: Queued): void {
    let c = this.idle.pop();
    while (c && (c.dead || c.expired())) {
      c.fail(null);
      c = this.idle.pop();
    }
    if (c) c.send(q);
    else if (this.all.size < this.opts.connections) {
      c = new Conn(this);
      this.all.add(c);
      c.send(q);
    } else this.queue.push(q);
  }

  /** A connection finished its request and can take another. */
  free(c: Conn): void {
    const q = this.queue.shift();
    if (q) c.send(q);
    else this.idle.push(c);
  }

  /** A connection closed: a queued request gets a new one. */
  gone(c: Conn): void {
    this.all.delete(c);
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    const q = !this.closed && this.queue.shift();
    if (q) this.run(q);
  }

  async destroy(): Promise<void> {
    this.closed = true;
    const err = Object.assign(new Error('the client is closed'), { code: 'UND_ERR_DESTROYED' });
    for (const q of this.queue.splice(0)) q.handler.onResponseError(NOOP, err);
    await Promise.all(
      [...this.all].map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.socket.destroyed) resolve();
            else {
              c.socket.once('close', () => resolve());
              c.fail(err);
            }
          }),
      ),
    );
  }
}

const NOOP: Controller = { abort: () => undefined };

/**
 * What plain sockets read into (net's `onread`), shared by every connection of the thread:
 * each read is parsed before the next one, so no Buffer is allocated per read (the
 * default read path's allocation and its stream layers cost more than parsing the answer).
 * Body chunks handed on are views of it: a handler that keeps one copies it.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

class Conn implements Controller {
  readonly socket: Socket;
  private readonly parser = new HTTPParser(HTTPParser.RESPONSE);
  private connected = false;
  private cur: Queued | null = null;
  /** The answer being read is a 1xx interim one, not the request's own. */
  private interim = false;
  private keep = true;
  /** It answered a request before (a kept-alive connection the server may have closed since). */
  private reused = false;
  /** Bytes of the current request's answer arrived. */
  private answered = false;
  /** When the server's keep-alive hint runs out (performance.now()). */
  private expires = Infinity;
  dead = false;

  constructor(private readonly pool: H1Pool) {
    const o = pool.opts;
    const common = {
      host: pool.hostname,
      port: pool.port,
      ...(o.localAddress ? { localAddress: o.localAddress } : {}),
      ...(o.lookup ? { lookup: o.lookup } : {}),
    };
    this.socket = o.tls
      ? tlsConnect({
          ...common,
          ...(isIP(pool.hostname) ? {} : { servername: pool.hostname }),
          rejectUnauthorized: o.tls.rejectUnauthorized,
          ...(o.tls.ca ? { ca: o.tls.ca } : {}),
          ALPNProtocols: ['http/1.1'],
        })
      : // Plain sockets read into one buffer of the thread's (no Buffer made per read): see READ_BUFFER.
        netConnect({ ...common, onread: { buffer: READ_BUFFER, callback: (n, buf) => this.data(buf, n) } });
    this.socket.setNoDelay(true);
    this.socket.once(o.tls ? 'secureConnect' : 'connect', () => {
      this.connected = true;
      if (this.cur) this.write(this.cur);
    });
    if (o.tls) this.socket.on('data', (d: Buffer) => this.data(d, d.length));
    this.socket.on('error', (e) => this.fail(e));
    this.socket.on('close', () => this.closed());
    const p = this.parser;
    p[HTTPParser.kOnHeadersComplete] = (info) => {
      const q = this.cur;
      if (!q) return 1;
      const code = info.statusCode;
      this.interim = code < 200 && code !== 101;
      if (this.interim) return 1;
      this.keep = info.shouldKeepAlive && !q.close;
      const headers = info.headers;
      const ka = keepAliveSeconds(headers);
      if (ka >= 0) this.expires = performance.now() + ka * 1000 - KEEP_ALIVE_MARGIN_MS;
      q.handler.onResponseStart(this, code, headers, info.statusMessage ?? '');
      return q.method === 'HEAD' ? 1 : 0;
    };
    p[HTTPParser.kOnBody] = (chunk: Buffer, offset: number, length: number) => {
      const q = this.cur;
      if (q)
        q.handler.onResponseData(
          this,
          offset === 0 && length === chunk.length ? chunk : chunk.subarray(offset, offset + length),
        );
    };
    p[HTTPParser.kOnMessageComplete] = () => {
      const q = this.cur;
      if (!q || this.interim) {
        this.interim = false;
        return;
      }
      this.cur = null;
      this.reused = true;
      q.handler.onResponseEnd();
      if (this.keep && !this.dead) this.pool.free(this);
      else this.fail(null);
    };
  }

  expired(): boolean {
    return performance.now() >= this.expires;
  }

  send(q: Queued): void {
    this.cur = q;
    this.interim = false;
    this.answered = false;
    if (this.connected) this.write(q);
  }

  private write(q: Queued): void {
    q.handler.onRequestStart(this);
    if (this.cur !== q) return; // aborted at its start
    const b = q.body;
    if (b === null) this.socket.write(q.head);
    else {
      this.socket.cork();
      this.socket.write(q.head);
      this.socket.write(b);
      this.socket.uncork();
    }
  }

  /** Bytes read (true: keep reading). */
  private data(d: Uint8Array, n: number): true {
    if (!this.cur) {
      // Bytes nobody asked for on an idle connection: it cannot be trusted any more.
      this.fail(null);
      return true;
    }
    this.answered = true;
    const r = this.parser.execute(d as Buffer, 0, n);
    if (r instanceof Error)
      this.fail(Object.assign(new Error(`invalid HTTP response: ${r.message}`), { code: 'HPE_INVALID' }));
    return true;
  }

  private closed(): void {
    if (this.dead) return; // closed by fail()
    this.dead = true;
    this.pool.gone(this);
    const q = this.cur;
    if (!q) return;
    // A body delimited by the end of the connection ends here (the parser completes the message).
    this.parser.finish();
    if (this.cur === q) this.end(q, socketClosed(), false);
  }

  /** The controller of the current request: ends it with `reason` and drops the connection. */
  abort(reason: Error): void {
    this.fail(reason, true);
  }

  /** Ends the connection; the request on it, if any, ends with `e` (or a socket error). */
  fail(e: Error | null, aborted = false): void {
    const q = this.cur;
    if (!this.dead) {
      this.dead = true;
      this.socket.destroy();
      this.pool.gone(this);
    }
    if (q) this.end(q, e ?? socketClosed(), aborted);
  }

  /** The request on this dead connection failed: sent once more if the connection was a reused one that had closed. */
  private end(q: Queued, e: Error, aborted: boolean): void {
    this.cur = null;
    if (!aborted && this.reused && !this.answered && !q.retried && !this.pool.closed && IDEMPOTENT.has(q.method)) {
      q.retried = true;
      this.pool.run(q);
    } else q.handler.onResponseError(this, e);
  }
}

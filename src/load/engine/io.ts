/**
 * HTTP for the built-in runner: its own HTTP/1.1 pools (h1.ts), one per origin and VU (or
 * source address) so VUs can be bound to distinct local IPs (k6's --local-ips). Never throws at a caller: timeouts, resets, refused connections and
 * oversized bodies come back as an answer with status 0 and k6's error code. Runs on each
 * VU thread (runtime/worker.ts); the body stays in the socket's chunks until the script reads it.
 */
import { createServer, type AddressInfo } from 'node:net';
import type { Answer, IoRequest, RawHeaders, Timings } from '../runtime/protocol.js';
import { lookupFor, type Lookup, type NetOptions } from './net-options.js';
import { H1Pool, type Controller } from './h1.js';

interface IoOptions {
  /** Cap on a response body; larger ones are an error (k6 code 1000), not an unbounded buffer. */
  maxBodyBytes?: number;
  /** TLS verification and name overrides (net-options.ts). */
  net?: NetOptions;
}

interface Target {
  url: URL;
  origin: string;
  path: string;
  remoteIp: string;
  remotePort: number;
  /** Its pools by owning VU (or by source address, for the warm-up): found without a key string per request. */
  pools: Map<number | string, H1Pool>;
}

const NO_HEADERS: RawHeaders = [];
const ZERO: Timings = {
  blocked: 0,
  connecting: 0,
  tls_handshaking: 0,
  sending: 0,
  waiting: 0,
  receiving: 0,
  duration: 0,
};

export class HttpIo {
  private readonly pools: H1Pool[] = [];
  private readonly targets = new Map<string, Target>();
  /** The pools of an origin, shared by the URLs on it. */
  private readonly byOrigin = new Map<string, Map<number | string, H1Pool>>();
  readonly maxBody: number;
  /**
   * The exchanges in flight, for the deadline sweeper: an array each exchange knows its slot
   * in (removal swaps the last one in). A Set churned by one add and one delete per request
   * kept its deleted entries reachable long enough for V8 to promote every request's objects
   * to the old generation, which tripled the garbage collector's work.
   */
  private readonly inflight: Exchange[] = [];
  private readonly sweeper: NodeJS.Timeout;
  private net: NetOptions = {};
  private lookup: Lookup | undefined;

  constructor(opts: IoOptions = {}) {
    this.maxBody = opts.maxBodyBytes ?? 64 * 1024 * 1024;
    this.configure(opts.net ?? {});
    // One timer sweeps request deadlines: cheaper than a timer per request.
    this.sweeper = setInterval(() => {
      const now = performance.now();
      // Downwards: an exchange that ends leaves its slot to one already looked at.
      for (let i = this.inflight.length - 1; i >= 0; i--) {
        const r = this.inflight[i];
        if (r && now >= r.deadline) r.abort(Object.assign(new Error('request timeout'), { code: 'K6_TIMEOUT' }));
      }
    }, 50);
    this.sweeper.unref();
  }

  /** New connection settings; pools made before keep theirs (they are made before any request of the run). */
  configure(net: NetOptions): void {
    this.net = net;
    this.lookup = lookupFor(net);
  }

  /**
   * The pool a request goes out on. A VU given as `owner` gets connections of its own, as in
   * k6 (one in use per request in flight, up to k6's batchPerHost of 6 for http.batch): a
   * shared pool would open a new connection for every request of a burst and then look
   * through all of them for a free one on every call. Without an owner (the warm-up), one
   * pool per origin and source address.
   */
  private pool(target: Target, localAddress: string | undefined, owner: number | undefined): H1Pool {
    // A VU's source address never changes: its number names its pool.
    const key = owner ?? `|${localAddress ?? ''}`;
    let p = target.pools.get(key);
    if (!p) {
      p = new H1Pool(target.url, {
        connections: owner !== undefined ? 6 : Infinity,
        ...(localAddress ? { localAddress } : {}),
        ...(this.lookup ? { lookup: this.lookup } : {}),
        ...(target.url.protocol === 'https:'
          ? {
              tls: {
                rejectUnauthorized: !this.net.insecure,
                ...(this.net.ca && !this.net.insecure ? { ca: this.net.ca } : {}),
              },
            }
          : {}),
      });
      target.pools.set(key, p);
      this.pools.push(p);
    }
    return p;
  }

  /** Scripts repeat their URLs: parse each once (bounded, so unique query strings cannot grow it). */
  private target(href: string): Target | string {
    let t = this.targets.get(href);
    if (t) return t;
    try {
      const url = new URL(href);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`unsupported protocol ${url.protocol}`);
      t = {
        url,
        origin: url.origin,
        path: url.pathname + url.search,
        remoteIp: url.hostname.replace(/^\[|\]$/g, ''),
        remotePort: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
        pools: this.byOrigin.get(url.origin) ?? new Map(),
      };
      this.byOrigin.set(url.origin, t.pools);
    } catch (e) {
      return `invalid URL: ${(e as Error).message}`;
    }
    if (this.targets.size < 2000) this.targets.set(href, t);
    return t;
  }

  send(req: IoRequest, localAddress: string | undefined, done: (a: Answer) => void, owner?: number): void {
    const t0 = performance.now();
    const target = this.target(req.url);
    if (typeof target === 'string') {
      done(failure(target, 1020, ZERO, 0, 0, req));
      return;
    }
    let sent = req.method.length + req.url.length + 12;
    const h = req.headers;
    if (Array.isArray(h)) for (let i = 0; i < h.length; i += 2) sent += h[i]!.length + h[i + 1]!.length + 4;
    else for (const k in h) sent += k.length + h[k]!.length + 4;
    if (req.body) sent += typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.byteLength;
    const x = new Exchange(this, req, target, sent, t0, done);
    x.slot = this.inflight.length;
    this.inflight.push(x);
    try {
      this.pool(target, localAddress, owner).dispatch(
        { path: target.path, method: req.method, headers: req.headers, body: req.body },
        x,
      );
    } catch (e) {
      x.finish(e as Error);
    }
  }

  /** An exchange is over: it no longer needs its deadline watched. */
  settled(x: Exchange): void {
    const i = x.slot;
    if (i < 0) return;
    x.slot = -1;
    const last = this.inflight.pop()!;
    if (last !== x) {
      this.inflight[i] = last;
      last.slot = i;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled(this.pools.map((p) => p.destroy()));
    this.pools.length = 0;
    this.targets.clear();
    this.byOrigin.clear();
  }
}

/**
 * One request through an H1Pool (h1.ts). The handler is this object (its methods on the
 * prototype): no closures per request, and it is also the entry the deadline sweeper aborts.
 */
class Exchange {
  readonly deadline: number;
  /** Its index in HttpIo's in-flight list, -1 once settled. */
  slot = -1;
  private tStart: number;
  private tFirst = 0;
  private status = 0;
  private statusText = '';
  private size = 0;
  private finished = false;
  private headers: RawHeaders = NO_HEADERS;
  private readonly chunks: Buffer[] | null;
  private controller: Controller | undefined;
  private pendingAbort: Error | undefined;

  constructor(
    private readonly io: HttpIo,
    private readonly req: IoRequest,
    private readonly target: Target,
    private readonly sent: number,
    private readonly t0: number,
    private readonly done: (a: Answer) => void,
  ) {
    this.deadline = t0 + req.timeoutMs;
    this.tStart = t0;
    this.chunks = req.responseType !== 'none' ? [] : null;
  }

  abort(e: Error): void {
    if (this.controller) this.controller.abort(e);
    else this.pendingAbort = e;
    this.finish(e);
  }

  onRequestStart(c: Controller): void {
    this.controller = c;
    this.tStart = performance.now();
    if (this.pendingAbort) c.abort(this.pendingAbort);
  }

  onResponseStart(_c: unknown, code: number, hs: RawHeaders, msg?: string): void {
    this.tFirst = performance.now();
    this.status = code;
    this.statusText = msg ?? '';
    // Kept as the client gave them (a flat list); canonical names are made only if the script reads them (k6-response.ts).
    for (let i = 0; i < hs.length; i++) this.size += hs[i]!.length + 2;
    this.headers = hs;
  }

  onResponseData(c: Controller, chunk: Buffer): void {
    this.size += chunk.length;
    const max = this.io.maxBody;
    if (this.size > max) {
      c.abort(Object.assign(new Error(`response body larger than ${max} bytes`), { code: 'K6_TOO_LARGE' }));
      return;
    }
    // The chunk is a view of the client's read buffer, reused by its next read: kept as a copy.
    if (this.chunks) this.chunks.push(Buffer.from(chunk));
  }

  onResponseEnd(): void {
    this.finish();
  }
  onResponseError(_c: unknown, e: Error): void {
    this.finish(e);
  }

  finish(err?: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.io.settled(this);
    const end = performance.now();
    const first = this.tFirst || end;
    const timings: Timings = {
      blocked: this.tStart - this.t0,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0,
      waiting: first - this.tStart,
      receiving: end - first,
      duration: end - this.tStart,
    };
    if (err) {
      this.done(failure(err.message, errorCode(err), timings, this.sent, this.size, this.req));
      return;
    }
    this.done({
      status: this.status,
      statusText: statusLine(this.status, this.statusText),
      proto: 'HTTP/1.1',
      headers: this.headers,
      chunks: this.chunks,
      responseType: this.req.responseType,
      timings,
      error: '',
      errorCode: 0,
      remoteIp: this.target.remoteIp,
      remotePort: this.target.remotePort,
      bytesSent: this.sent,
      bytesReceived: this.size + 64,
    });
  }
}

/** k6's status_text (`200 OK`), kept per status code while its reason phrase stays the same. */
const statusLines = new Map<number, { reason: string; line: string }>();
function statusLine(code: number, reason: string): string {
  const c = statusLines.get(code);
  if (c && c.reason === reason) return c.line;
  const line = reason ? `${code} ${reason}` : String(code);
  if (statusLines.size < 100) statusLines.set(code, { reason, line });
  return line;
}

function failure(
  message: string,
  code: number,
  timings: Timings,
  sent: number,
  received: number,
  req: IoRequest,
): Answer {
  return {
    status: 0,
    statusText: '',
    proto: '',
    headers: NO_HEADERS,
    chunks: null,
    responseType: req.responseType,
    timings,
    error: message,
    errorCode: code,
    remoteIp: '',
    remotePort: 0,
    bytesSent: sent,
    bytesReceived: received,
  };
}

/** k6's error codes (https://grafana.com/docs/k6/latest/javascript-api/error-codes/). */
function errorCode(e: Error & { code?: string }): number {
  switch (e.code) {
    case 'K6_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 1050;
    case 'ECONNREFUSED':
      return 1212;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 1220;
    case 'EPIPE':
      return 1201;
    case 'ETIMEDOUT':
      return 1211;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 1101;
    case 'EADDRNOTAVAIL':
      return 1210;
    default:
      return e.code?.startsWith('E') ? 1200 : 1000;
  }
}

const HEAD_END = '\r\n\r\n';
/** What the warm-up server answers: the headers node:http sends, so the client's parser warms on a usual head. */
const WARM_ANSWER = Buffer.from(
  'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nDate: Sat, 28 Nov 2026 00:00:00 GMT\r\n' +
    'Connection: keep-alive\r\nKeep-Alive: timeout=5\r\ncontent-length: 2\r\n\r\nok',
  'latin1',
);

interface WarmServer {
  port: number;
  close(): void;
}

/**
 * Compile the HTTP path before any VU calls: a cold thread takes milliseconds per request
 * where a warm one takes microseconds, and an arrival-rate scenario would count the
 * difference as dropped iterations. The requests go to a loopback server of the thread's
 * own, never to the target; it stays up for the VUs' own warm-up (worker.ts). null when no
 * server could start.
 */
export async function warmHttp(io: HttpIo): Promise<WarmServer | null> {
  try {
    // A socket that answers each request head with the same bytes (the client never pipelines):
    // node:http's server would cost the thread as much as the client it warms, and compile
    // its own code on the thread's isolate for nothing.
    const srv = createServer((sock) => {
      sock.setNoDelay(true);
      let seen = ''; // the end of what came before, should a head's blank line be split between reads
      sock.on('data', (d: Buffer) => {
        const text = seen + d.toString('latin1');
        for (let i = text.indexOf(HEAD_END); i >= 0; i = text.indexOf(HEAD_END, i + 4)) sock.write(WARM_ANSWER);
        seen = text.slice(-3);
      });
      sock.on('error', () => undefined);
    });
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = srv.address() as AddressInfo;
    const req: IoRequest = {
      method: 'GET',
      url: `http://127.0.0.1:${port}/`,
      headers: ['user-agent', 'warm-up'],
      body: null,
      timeoutMs: 5000,
      responseType: 'text',
    };
    for (let round = 0; round < 40; round++) {
      await Promise.all(Array.from({ length: 10 }, () => new Promise<void>((r) => io.send(req, undefined, () => r()))));
    }
    return { port, close: () => srv.close() };
  } catch {
    return null;
  }
}

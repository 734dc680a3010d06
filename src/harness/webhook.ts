/**
 * The run's webhook receiver (HOOK-1): a node:http server on the run's listen address that
 * keeps what the target POSTs to one path, and the signature rule of the real service
 * (api-shapes §6): `X-SeaTable-Signature: sha256=<hex HMAC-SHA256(secret, body)>`, where the
 * signed bytes are the raw body or Python's `json.dumps` of it with its default formatting.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackUrl } from '../common/net.js';
import { Undecided } from './outcome.js';
import type { RunState } from './state.js';

export interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  at: number;
}

/** Deliveries kept at most (other checks write to the same base while a check waits). */
const MAX_KEPT = 2_000;
const MAX_BODY = 1024 * 1024;

export class Receiver {
  readonly deliveries: Delivery[] = [];
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly path: string | undefined,
  ) {}

  /**
   * Start a receiver; the URL the target must call is `publicUrl` when the run has one (any
   * path is then accepted), else `http://<listen host>:<port>/<random path>` for a loopback
   * target. Returns a skip reason when the target cannot reach the run.
   */
  static async start(state: RunState): Promise<Receiver | string> {
    const { listenHost, listenPort, publicUrl } = state.webhook;
    if (!publicUrl && !isLoopbackUrl(state.target.url)) return 'needs --webhook-url reachable from the target';
    const path = publicUrl ? undefined : `/conformance-hook-${randomBytes(8).toString('hex')}`;
    let receiver: Receiver | undefined;
    const server = createServer((req, res) => {
      const parts: Buffer[] = [];
      let size = 0;
      req.on('data', (d: Buffer) => {
        size += d.length;
        if (size <= MAX_BODY) parts.push(d);
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        const r = receiver;
        if (!r || req.method !== 'POST' || (r.path && req.url !== r.path)) return;
        if (r.deliveries.length < MAX_KEPT)
          r.deliveries.push({
            path: req.url ?? '',
            headers: req.headers as Record<string, string>,
            body: Buffer.concat(parts),
            at: Date.now(),
          });
        for (const w of r.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listenPort, listenHost, () => resolve());
    }).catch((e: Error) => {
      throw new Undecided('fixture', `the webhook receiver cannot listen on ${listenHost}:${listenPort}: ${e.message}`);
    });
    const port = (server.address() as AddressInfo).port;
    const host = /^(0\.0\.0\.0|::|\[::\])$/.test(listenHost)
      ? '127.0.0.1'
      : listenHost.includes(':')
        ? `[${listenHost}]`
        : listenHost;
    receiver = new Receiver(server, publicUrl ?? `http://${host}:${port}${path}`, path);
    return receiver;
  }

  /** The first delivery (past or future) that `match` accepts, or undefined after `timeoutMs`. */
  async waitFor(match: (d: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.deliveries.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** Python's `json.dumps(value)` with its defaults: `", "` and `": "` separators, non-ASCII escaped. */
function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return pythonNumber(value);
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`)
    .join(', ')}}`;
}

/** Python's float repr differs from JavaScript's in exponents (`1e-07`, `1e+21`). */
function pythonNumber(n: number): string {
  const s = String(n);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

const hmac = (secret: string, data: string | Buffer) => createHmac('sha256', secret).update(data).digest();

/**
 * Is `header` a valid signature of `body` under `secret`? Accepts HMAC-SHA256 over the raw
 * body or over Python's `json.dumps` of the parsed body (api-shapes §6, [inferred]).
 */
export function signatureMatches(header: string | undefined, secret: string, body: Buffer): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!.toLowerCase(), 'hex');
  const candidates: (string | Buffer)[] = [body];
  try {
    candidates.push(pythonJsonDumps(JSON.parse(body.toString('utf8'))));
  } catch {
    /* not JSON: raw bytes only */
  }
  return candidates.some((c) => timingSafeEqual(hmac(secret, c), given));
}

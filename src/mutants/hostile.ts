/**
 * A hostile target: a loopback HTTP server that misbehaves at the transport level on chosen
 * routes and otherwise proxies to a real reference server, so unaffected checks still pass.
 * It proves the harness stays sound when a target hangs, trickles, resets, lies about its
 * body or redirects forever: the affected checks end as `error` naming the cause, and the
 * run finishes in its time budget.
 */
import { createServer, request as upstreamRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const BEHAVIOURS = ['hang', 'slow-headers', 'reset', 'bad-json', 'huge', 'wrong-type', 'redirect-loop'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface Rule {
  behaviour: Behaviour;
  /** Path prefix (query ignored); every method unless `method` is given. */
  path: string;
  method?: string;
}

export interface HostileServer {
  url: string;
  /** Requests each rule caught, by behaviour. */
  hits: Record<Behaviour, number>;
  close(): Promise<void>;
}

/** 50 MB: above the client's default 32 MiB cap. */
const HUGE_BYTES = 50 * 1024 * 1024;
const TRICKLE_MS = 250;
/** A trickle gives up after this many bytes (bounded loop; the client has long timed out). */
const TRICKLE_MAX = 400;

function ruleFor(rules: readonly Rule[], req: IncomingMessage): Rule | undefined {
  const path = (req.url ?? '/').split('?')[0]!;
  return rules.find((r) => path.startsWith(r.path) && (!r.method || r.method === req.method));
}

/** Headers one byte at a time, never finished. */
function trickle(socket: Socket): void {
  const head = Buffer.from(
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-padding: ' + 'a'.repeat(TRICKLE_MAX),
  );
  let i = 0;
  const t = setInterval(() => {
    if (socket.destroyed || i >= head.length) {
      clearInterval(t);
      socket.destroy();
      return;
    }
    socket.write(head.subarray(i, ++i));
  }, TRICKLE_MS);
  socket.once('close', () => clearInterval(t));
}

/** Announce 100 kB, send a third, then reset the connection. */
function resetMidBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100_000) });
  res.write(`{"rows": [${'"x",'.repeat(8000)}`, () => {
    setTimeout(() => (res.socket as Socket | null)?.resetAndDestroy(), 50);
  });
}

/** 50 MB of a JSON array, chunked (no content-length), respecting back-pressure. */
function huge(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < HUGE_BYTES && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.write('[');
  pump();
}

function misbehave(rule: Rule, req: IncomingMessage, res: ServerResponse, held: Set<Socket>): void {
  req.resume();
  switch (rule.behaviour) {
    case 'hang':
      held.add(req.socket); // answered never; destroyed on close
      return;
    case 'slow-headers':
      held.add(req.socket);
      trickle(req.socket);
      return;
    case 'reset':
      return resetMidBody(res);
    case 'bad-json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"token": "abc", "rows": [1, 2,');
      return;
    case 'huge':
      return huge(res);
    case 'wrong-type':
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><body><h1>Welcome</h1><p>Please sign in.</p></body></html>');
      return;
    case 'redirect-loop': {
      // Two hops that point at each other: a client that follows redirects never ends.
      const here = req.url ?? '/';
      const next = here.includes('hop=1')
        ? here.replace(/[?&]hop=1/, '')
        : `${here}${here.includes('?') ? '&' : '?'}hop=1`;
      res.writeHead(302, { location: next, 'content-length': '0' }).end();
      return;
    }
  }
}

function proxy(upstream: URL, agent: Agent, req: IncomingMessage, res: ServerResponse): void {
  const out = upstreamRequest(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      agent,
      headers: { ...req.headers, host: upstream.host },
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  out.on('error', (e) => {
    if (!res.headersSent)
      res
        .writeHead(502, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error_msg: `hostile proxy: upstream ${e.message}` }));
    else res.destroy();
  });
  req.pipe(out);
}

/** Start on 127.0.0.1:0 in front of `upstream` (a reference server's URL). */
export async function startHostile(upstream: string, rules: readonly Rule[]): Promise<HostileServer> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const held = new Set<Socket>();
  const sockets = new Set<Socket>();
  const hits = Object.fromEntries(BEHAVIOURS.map((b) => [b, 0])) as Record<Behaviour, number>;
  const server = createServer((req, res) => {
    const rule = ruleFor(rules, req);
    if (!rule) return proxy(target, agent, req, res);
    hits[rule.behaviour]++;
    misbehave(rule, req, res, held);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => {
      sockets.delete(s);
      held.delete(s);
    });
  });
  // A hostile target must not crash on a client that hangs up first.
  server.on('clientError', (_e, s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

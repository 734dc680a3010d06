/**
 * A target that varies as a correct real server legitimately may: a loopback proxy in front
 * of a reference server that answers some requests its own way (refuses a column type the
 * deployment does not offer, words a missing view as a 404, leaves out fields of features it
 * has not configured) and passes everything else through unchanged.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Buffer;
  json: () => unknown;
}
export type Answer = { status: number; body: unknown };
/** Answer a request yourself, or rewrite the upstream's JSON answer (return undefined to leave it). */
export interface Variation {
  answer?: (req: Seen) => Answer | undefined;
  rewrite?: (req: Seen, status: number, body: unknown) => unknown;
}

interface VaryingTarget {
  url: string;
  close(): Promise<void>;
}

const read = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts)));
  });

export async function startVaryingTarget(upstream: string, v: Variation): Promise<VaryingTarget> {
  const up = new URL(upstream);
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      const url = new URL(req.url ?? '/', upstream);
      const seen: Seen = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body,
        json: () => {
          try {
            return JSON.parse(body.toString('utf8'));
          } catch {
            return undefined;
          }
        },
      };
      const own = v.answer?.(seen);
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json' }).end(JSON.stringify(own.body));
        return;
      }
      const fwd = request(
        {
          host: up.hostname,
          port: up.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: up.host },
        },
        (r) => {
          void read(r).then((answer) => {
            const type = String(r.headers['content-type'] ?? '');
            let out = answer;
            if (v.rewrite && /json/.test(type)) {
              try {
                const changed = v.rewrite(seen, r.statusCode ?? 500, JSON.parse(answer.toString('utf8')));
                if (changed !== undefined) out = Buffer.from(JSON.stringify(changed));
              } catch {
                /* not JSON after all: pass it through */
              }
            }
            const headers = { ...r.headers, 'content-length': String(out.length) };
            delete headers['transfer-encoding'];
            res.writeHead(r.statusCode ?? 502, headers).end(out);
          });
        },
      );
      fwd.on('error', () => res.writeHead(502).end());
      fwd.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

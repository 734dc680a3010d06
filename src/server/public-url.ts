/**
 * The server's root URL as its clients reach it, for the links its answers carry (upload and
 * download links, asset folders, the gateway a base token names, app links). Behind a reverse
 * proxy the request's own Host is the proxy's upstream name, often without the public port:
 * `--public-url` names the root outright, as the real service's configured URL does; else,
 * with `--trust-proxy`, the proxy's X-Forwarded-Proto, -Host and -Port say it; only then the
 * Host header the request came with.
 */
import type { FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import type { ServerContext } from './context.js';

/** The first value of a header a proxy chain may have appended to (`a, b`). */
function first(v: string | string[] | undefined): string | undefined {
  const s = (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
  return s ? s : undefined;
}

/** A host[:port] as a URL may carry it: names, IPv4 and bracketed IPv6 only, so a header cannot smuggle a path or a scheme into a link. */
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

/** `host` with `port` in place of any port it has; none when the port is the scheme's default. */
function withPort(host: string, port: string, proto: string): string {
  const bare = host.replace(/:\d+$/, '');
  return port === DEFAULT_PORT[proto] ? bare : `${bare}:${port}`;
}

export function rootOf(ctx: ServerContext, req: FastifyRequest): string {
  if (ctx.opts.publicUrl) return ctx.opts.publicUrl;
  let proto = (req.raw.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  const given = first(req.headers.host);
  let host = given && HOST.test(given) ? given : 'localhost';
  if (ctx.opts.trustProxy) {
    const fp = first(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (fp === 'http' || fp === 'https') proto = fp;
    const fh = first(req.headers['x-forwarded-host']);
    if (fh && HOST.test(fh)) host = fh;
    const port = first(req.headers['x-forwarded-port']);
    if (port && /^\d{1,5}$/.test(port)) host = withPort(host, port, proto);
  }
  return `${proto}://${host}`;
}

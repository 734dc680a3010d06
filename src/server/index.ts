/**
 * The reference server: implements the whole API as specified; the harness's self-test
 * target and `conformance run`'s embedded default.
 */
import type { FastifyInstance } from 'fastify';
import type { TargetDescriptor } from '../spec/index.js';
import { isLoopbackHost } from '../common/net.js';
import { buildApp } from './app.js';
import { createContext, type ServerContext } from './context.js';
import { ServerOptions, type ServerOptionsInput } from './options.js';

export interface RunningServer {
  url: string;
  port: number;
  descriptor: TargetDescriptor;
  ctx: ServerContext;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startServer(
  input: ServerOptionsInput & { clock?: () => number; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningServer> {
  const opts: ServerOptions = { ...ServerOptions.parse(input), clock: input.clock, env: input.env };
  if (!isLoopbackHost(opts.host))
    throw new Error(`the reference server listens on loopback only (127.0.0.0/8, ::1), not ${opts.host}`);
  const ctx = createContext(opts);
  const app = await buildApp(ctx);
  await app.listen({ host: opts.host, port: opts.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${host}:${port}`;
  const c = ctx.creds;
  const descriptor: TargetDescriptor = {
    // Behind a proxy, clients reach the server at its public URL.
    url: opts.publicUrl ?? url,
    edition: opts.edition,
    api_version: opts.apiVersion,
    username: c.admin.email,
    password: c.admin.password,
    account_token: c.admin.token,
    admin: true,
    org_id: c.orgId,
    workspace_id: c.workspaceId,
    bases: c.bases.map((b) => ({ name: b.name, uuid: b.uuid, api_token: b.api_token })),
    rate_window_seconds: opts.rateWindowSeconds,
  };
  let closed = false;
  return {
    url,
    port,
    descriptor,
    ctx,
    app,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      for (const close of ctx.closers) await close();
      ctx.store.close();
    },
  };
}

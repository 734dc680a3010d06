/**
 * How the server refuses: every refusal is a 4xx with the component's error body (api-shapes
 * §8: `error_message` on the gateway, `error_msg` elsewhere), logged nowhere. Only an error no
 * check recognises is a 500, and that one is logged with its stack: it is a server fault.
 * Covers the handler's errors, unknown routes and methods, requests the HTTP parser cannot
 * read, bad URLs, and CONNECT (which Node hands to a `connect` listener, not to fastify).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { issuesLine } from '../../common/json-file.js';
import { answeredByBaseComponent, baseComponentPath } from '../../spec/index.js';
import { HttpError, type ErrorStyle } from '../errors.js';
import type { ServerContext } from '../context.js';
import { drainThenClose } from './drain.js';

const styleOfUrl = (url: string): ErrorStyle => (baseComponentPath(url) ? 'gateway' : 'web');

/** The error style of the component answering: the route's family, or the URL's for unknown routes. */
export function styleOf(req: FastifyRequest): ErrorStyle {
  const family = req.routeOptions?.config?.endpoint?.family;
  return family ? (answeredByBaseComponent(family) ? 'gateway' : 'web') : styleOfUrl(req.url ?? '');
}

/** Methods the API serves (fastify adds HEAD to GET routes); any other is refused with 405. */
const SERVED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
const ALLOW = SERVED_METHODS.join(', ');
const methodRefused = (method: string) => `Method ${method.slice(0, 32)} is not allowed.`;

/** Fastify's and its plugins' wording of body errors, reworded for a client that has to fix its request. */
const REWORDED: Record<string, (req: FastifyRequest, err: FastifyError) => string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (req) => `Request body is too large: at most ${req.routeOptions.bodyLimit ?? 0} bytes`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (req) =>
    `Content-Type ${String(req.headers['content-type']).split(';')[0]} is not supported`,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Content-Length does not match the body',
};

/** The refusal an error stands for, or undefined when it is a server fault. */
function refusalOf(err: unknown, req: FastifyRequest): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof z.ZodError) return new HttpError(400, issuesLine(err), styleOf(req));
  const e = err as Partial<FastifyError> | undefined;
  // Fastify's own and its plugins' errors carry the 4xx they mean (body parsing, limits, validation).
  if (e && typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new HttpError(
      e.statusCode,
      (e.code && REWORDED[e.code]?.(req, e as FastifyError)) || e.message || 'Bad request',
      styleOf(req),
    );
  }
  return undefined;
}

function refuseUnrouted(ctx: ServerContext, req: FastifyRequest, reply: FastifyReply) {
  // Fault unknown-method-501 (no mutant: RFC 9110 §15.6.2 allows it; the harness's acceptance tests use it).
  if (!SERVED_METHODS.includes(req.method) && ctx.faults.has('unknown-method-501'))
    return reply
      .code(501)
      .send(new HttpError(501, `The method ${req.method} is not implemented.`, styleOf(req)).body());
  if (!SERVED_METHODS.includes(req.method))
    return reply
      .code(405)
      .header('allow', ALLOW)
      .send(new HttpError(405, methodRefused(req.method), styleOf(req)).body());
  return reply.code(404).send(new HttpError(404, 'Not found.', styleOf(req)).body());
}

/** A server fault: one line naming the call, then the stack. */
function logFault(req: FastifyRequest, err: unknown) {
  const e = err as Error | undefined;
  process.stderr.write(
    `reference server: ${req.method} ${req.url.split('?')[0]}: ${e?.stack ?? e?.message ?? String(err)}\n`,
  );
}

export function installRefusals(app: FastifyInstance, ctx: ServerContext): void {
  app.setErrorHandler((err: unknown, req, reply) => {
    // An unknown route is a 404 whatever its body: a parse error of a body nobody reads is no answer.
    if (req.is404) return refuseUnrouted(ctx, req, reply);
    // Refused before its body was all read: the rest is read and dropped before the connection closes (drain.ts).
    drainThenClose(req.raw);
    const refusal = refusalOf(err, req);
    if (refusal) return reply.code(refusal.status).send(refusal.body());
    logFault(req, err);
    return reply.code(500).send(new HttpError(500, 'Internal Server Error', styleOf(req)).body());
  });
  app.setNotFoundHandler((req, reply) => refuseUnrouted(ctx, req, reply));
}

/** Fastify's `frameworkErrors`: a URL it cannot decode, a path parameter over its length limit. */
export function refuseFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const style = styleOfUrl(req.raw.url ?? '');
  if (!(typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)) {
    logFault(req, err); // an async route constraint failing: ours, not the client's
    void reply.code(500).send(new HttpError(500, 'Internal Server Error', style).body());
    return;
  }
  const message =
    err.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: a percent-encoding does not decode'
      : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path segment of the URL is too long'
        : err.message;
  void reply.code(err.statusCode).send(new HttpError(err.statusCode, message, style).body());
}

/** A raw answer on a socket fastify does not own (unparseable requests, CONNECT), then close. */
function answerRaw(socket: Duplex, status: number, reason: string, body: Record<string, unknown>, extra = ''): void {
  const text = JSON.stringify(body);
  socket.on('error', () => undefined); // the client may be gone already; nothing to tell it then
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n${extra}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** Style from what the HTTP parser read of the request line, when it got that far. */
const styleOfPacket = (packet: unknown): ErrorStyle =>
  styleOfUrl(/^\S+ (\S+)/.exec(Buffer.isBuffer(packet) ? packet.subarray(0, 512).toString('latin1') : '')?.[1] ?? '');

/** Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (bad method, header, framing). */
export function refuseClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const body = (status: number, message: string) => new HttpError(status, message, styleOfPacket(err.rawPacket)).body();
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return answerRaw(socket, 431, 'Request Header Fields Too Large', body(431, 'Request headers are too large.'));
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return answerRaw(socket, 408, 'Request Timeout', body(408, 'The request took too long to arrive.'));
  if (err.code === 'HPE_INVALID_METHOD')
    return answerRaw(
      socket,
      405,
      'Method Not Allowed',
      body(405, 'The request method is not allowed.'),
      `Allow: ${ALLOW}\r\n`,
    );
  return answerRaw(socket, 400, 'Bad Request', body(400, `Malformed HTTP request${err.code ? ` (${err.code})` : ''}.`));
}

/** Node's `connect` event: this server is no proxy; without a listener Node would drop the socket unanswered. */
export function refuseConnect(req: IncomingMessage, socket: Duplex, notImplemented = false): void {
  if (notImplemented)
    return answerRaw(
      socket,
      501,
      'Not Implemented',
      new HttpError(501, 'The method CONNECT is not implemented.', styleOfUrl(req.url ?? '')).body(),
    );
  answerRaw(
    socket,
    405,
    'Method Not Allowed',
    new HttpError(405, methodRefused('CONNECT'), styleOfUrl(req.url ?? '')).body(),
    `Allow: ${ALLOW}\r\n`,
  );
}

/** Mutant connect-hangs: CONNECT is never answered; the socket is held open until the client gives up or the server closes (`held` is destroyed before it does: a held socket would keep close() waiting). */
export function holdOpen(held: Set<Duplex>, socket: Duplex): void {
  socket.on('error', () => undefined);
  held.add(socket);
  socket.on('close', () => held.delete(socket));
}

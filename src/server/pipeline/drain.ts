/**
 * A refusal sent before the request's body was all read (too large, a form or upload refused
 * midway) says `Connection: close`, and Node would then close the socket as soon as the
 * answer is written. Bytes of the body still arriving on a closed socket make the kernel
 * reset the connection: a client may lose the answer, and a reverse proxy still forwarding
 * the body answers 502 instead of the 4xx. So the rest of the body is read and dropped, up to
 * a bound in bytes and in time, and only then is the connection closed; past the bound it is
 * closed at once (a client may not make the server read without end).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** Past nginx's usual `client_max_body_size` of 100 MB, and as long as a proxy takes to pass that on over loopback. */
export const DRAIN_BOUND = { bytes: 128 * 1024 * 1024, ms: 30_000 };

type ClosingSocket = Socket & { destroySoon?: () => void };

export function drainThenClose(req: IncomingMessage, bound = DRAIN_BOUND): void {
  if (req.complete || req.destroyed) return;
  const socket = req.socket as ClosingSocket;
  const close = socket.destroySoon;
  if (typeof close !== 'function') return;
  let closeAsked = false;
  let seen = 0;
  const done = (graceful: boolean) => {
    clearTimeout(timer);
    req.off('data', count);
    socket.destroySoon = close;
    if (!graceful) socket.destroy();
    else if (closeAsked) close.call(socket);
  };
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > bound.bytes) done(false);
  };
  const timer = setTimeout(() => done(false), bound.ms);
  timer.unref();
  // Node asks the socket to close once the answer is written: deferred until the body has ended.
  socket.destroySoon = () => {
    closeAsked = true;
  };
  req.on('data', count);
  req.once('end', () => done(true));
  req.once('error', () => done(false));
  socket.once('close', () => {
    clearTimeout(timer);
    socket.destroySoon = close;
  });
  req.resume();
}

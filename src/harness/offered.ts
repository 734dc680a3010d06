/**
 * One absence, one verdict. An operation the target does not offer — a 405 for its method, or
 * the target's generic 404 (the answer of a path that never existed) also with the
 * operation's own credential — fails ROUTE-1, ROUTE-2 or ROUTE-8 only. Every other check
 * that needs the operation records it as skipped for that operation with NOT_OFFERED and
 * judges the rest, so one missing route is counted once.
 */
import type { Endpoint } from '../spec/index.js';
import { isGenericNotFound } from './notfound.js';
import { probeCall } from './probe.js';
import type { RunState } from './state.js';
import type { CallOptions, Reply, Target } from './target.js';
import { test } from './test.js';

/** Why such an operation is not judged by the other checks. */
const NOT_OFFERED = 'not offered (ROUTE-8 judges it)';

const sameAuth = (a: CallOptions['auth'], b: CallOptions['auth']) =>
  JSON.stringify(a ?? 'account') === JSON.stringify(b ?? 'account');

/**
 * Why `ep` is not offered, judged from `reply`, the answer to `call` (a call of `ep` with any
 * credential): undefined when it is offered, or when the answer cannot tell. A generic 404 to
 * a call without the operation's own credential may be a route that hides itself from
 * strangers: the harmless authorised probe (src/harness/probe.ts) decides.
 */
export async function notOffered(
  target: Target,
  state: RunState,
  ep: Endpoint,
  reply: Reply,
  call: Pick<CallOptions, 'path' | 'auth' | 'localAddress'>,
): Promise<string | undefined> {
  const what = `${ep.method} ${ep.path}`;
  if (reply.status === 405) return `${what} answered 405: ${NOT_OFFERED}`;
  if (reply.status !== 404) return undefined;
  const at = { auth: call.auth, localAddress: call.localAddress, template: ep.path };
  if ((await isGenericNotFound(target, reply, call.path, at)) !== true) return undefined;
  const own = probeCall(ep, state, { localAddress: call.localAddress });
  if (!sameAuth(own.auth, call.auth)) {
    const authorised = await target.call({ ...own, raw429: true, expect: [400, 401, 403, 404, 405, 429] });
    if (authorised.status === 405) return `${what} answered 405 with its credential: ${NOT_OFFERED}`;
    if (
      authorised.status !== 404 ||
      (await isGenericNotFound(target, authorised, own.path, {
        auth: own.auth,
        localAddress: call.localAddress,
        template: ep.path,
      })) !== true
    )
      return undefined;
  }
  return `${what} answered the target's generic 404 with its credential, as a path that never existed does: ${NOT_OFFERED}`;
}

/** In a check of one operation: skip it when the target does not offer `ep` (see notOffered). */
export async function skipNotOffered(
  target: Target,
  state: RunState,
  ep: Endpoint,
  reply: Reply,
  call: Pick<CallOptions, 'path' | 'auth' | 'localAddress'>,
): Promise<void> {
  const why = await notOffered(target, state, ep, reply, call);
  test.skip(why !== undefined, why ?? '');
}

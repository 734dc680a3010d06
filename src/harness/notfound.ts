/**
 * Telling "this route does not exist" from "this resource does not exist": both are 404s, but
 * a missing route answers exactly as a path that never existed does (the server's generic
 * 404), while a route's handler answers its own 404 ("table … not found").
 */
import { randomBytes } from 'node:crypto';
import type { CallOptions, Reply, Target } from './target.js';

/** A path beside `path` that never existed: its last segment replaced. */
export function controlPath(path: string): string {
  const [p] = path.split('?');
  return p!.replace(/[^/]+\/?$/, `no-such-endpoint-${randomBytes(4).toString('hex')}/`);
}

/** Two bodies are the same once each path (a server may echo it) is blanked out. */
export function sameBody(a: string, pathA: string, b: string, pathB: string): boolean {
  const blank = (text: string, path: string) => [path, path.split('?')[0]!, encodeURI(path.split('?')[0]!)].reduce((t, p) => t.split(p).join('<path>'), text);
  return blank(a, pathA) === blank(b, pathB);
}

/**
 * Is this 404 the server's generic one (the route is not there)? Asks the control path with
 * the same credentials and source address. `undefined` when the control did not answer 404
 * (e.g. the target rate-limits unknown paths too and answered 429).
 */
export async function isGenericNotFound(target: Target, reply: Reply, path: string, o: Pick<CallOptions, 'auth' | 'localAddress'> = {}): Promise<boolean | undefined> {
  const control = controlPath(path);
  const c = await target.call({ ...o, path: control, raw429: true, expect: [401, 403, 404, 429] });
  if (c.status !== 404) return undefined;
  return sameBody(reply.text, path, c.text, control);
}

/**
 * Telling "this route does not exist" from "this resource does not exist": both are 404s, but
 * a missing route answers exactly as a path that never existed does (the server's generic
 * 404), while a route's handler answers its own 404 ("table … not found").
 */
import { randomBytes } from 'node:crypto';
import { Undecided } from './outcome.js';
import type { CallOptions, Reply, Target } from './target.js';

/**
 * A path beside `path` that never existed: its last segment replaced — or, given the route's
 * template, its last literal segment (`rows/{row_id}/` → `no-such-endpoint-…/{row_id}/`), since
 * replacing a parameter's value would still name the same route.
 */
export function controlPath(path: string, template?: string): string {
  const [p] = path.split('?');
  const bogus = `no-such-endpoint-${randomBytes(4).toString('hex')}`;
  const segs = p!.split('/');
  const tpl = template?.split('/');
  if (tpl && tpl.length === segs.length && /\{\w+\}/.test(tpl.filter(Boolean).at(-1) ?? '')) {
    const i = tpl.findLastIndex((s) => s !== '' && !/^\{\w+\}$/.test(s));
    if (i > 0) return segs.map((s, k) => (k === i ? bogus : s)).join('/');
  }
  return p!.replace(/[^/]+\/?$/, `${bogus}/`);
}

/** Two bodies are the same once each path (a server may echo it) is blanked out. */
export function sameBody(a: string, pathA: string, b: string, pathB: string): boolean {
  const blank = (text: string, path: string) =>
    [path, path.split('?')[0]!, encodeURI(path.split('?')[0]!)].reduce((t, p) => t.split(p).join('<path>'), text);
  return blank(a, pathA) === blank(b, pathB);
}

/**
 * Is this 404 the server's generic one (the route is not there)? Asks the control path with
 * the same credentials and source address. `undefined` when the control did not answer 404
 * (e.g. the target rate-limits unknown paths too and answered 429).
 */
export async function isGenericNotFound(
  target: Target,
  reply: Reply,
  path: string,
  o: Pick<CallOptions, 'auth' | 'localAddress'> & { template?: string } = {},
): Promise<boolean | undefined> {
  const { template, ...call } = o;
  const control = controlPath(path, template);
  const c = await target.call({ ...call, path: control, raw429: true, expect: [401, 403, 404, 429] });
  if (c.status !== 404) return undefined;
  return sameBody(reply.text, path, c.text, control);
}

/**
 * Why the route behind `reply` is not there: a 405 (the method is not offered), or the
 * target's generic 404. A 404 of the route's own (a view, table or row that does not exist)
 * is the answer of an existing route. Undefined when the route answered.
 */
export async function routeMissing(
  target: Target,
  reply: Reply,
  path: string,
  auth: CallOptions['auth'],
  template?: string,
): Promise<string | undefined> {
  if (reply.status === 405) return 'answered 405: the method is not offered';
  if (reply.status !== 404) return undefined;
  const generic = await isGenericNotFound(target, reply, path, { auth, template });
  if (generic === undefined)
    throw new Undecided(
      'not-found-control',
      `${path} answered 404, and a path that never existed did not answer 404 either: cannot tell a missing route from a missing resource`,
    );
  return generic
    ? `answered the target's generic 404 (${reply.text.slice(0, 120)}), as a path that never existed does`
    : undefined;
}

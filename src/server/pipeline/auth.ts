/**
 * Credentials (§5, api-shapes §1): `Authorization: Token <t>` always, `Bearer <t>` from 4.0.
 * Each endpoint names the credential it needs; the answer to a missing or wrong one is the
 * real service's (api-shapes §1.7).
 */
import type { Credential, Endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { ApiToken, BaseToken, User } from '../store/store.js';

export type Principal =
  | { kind: 'none' }
  | { kind: 'user'; user: User }
  | { kind: 'api'; token: ApiToken }
  | { kind: 'base'; token: BaseToken };

function presented(ctx: ServerContext, header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^(Token|Bearer)\s+(\S+)\s*$/i.exec(header);
  if (!m) return undefined;
  const bearer = m[1]!.toLowerCase() === 'bearer';
  if (bearer && (!ctx.behaviour.bearerAuth || ctx.faults.has('refuse-bearer'))) return undefined;
  return m[2];
}

function accountUser(ctx: ServerContext, token: string | undefined, raw: string | undefined): User {
  if (!raw) throw new HttpError(403, 'Authentication credentials were not provided.', 'auth');
  const user = token ? ctx.store.userByAccountToken(token) : undefined;
  if (!user) throw new HttpError(401, 'Invalid token', 'auth');
  if (!user.is_active) throw new HttpError(401, 'User inactive or deleted.', 'auth');
  return user;
}

export function authenticate(
  ctx: ServerContext,
  ep: Endpoint,
  header: string | undefined,
  params: Record<string, string>,
): Principal {
  const need: Credential = ep.credential;
  // A token in the path (external link, upload link) is the handler's to check.
  if (need === 'none' || need === 'external-link' || need === 'upload-link') return { kind: 'none' };
  // Mutant: Bearer added to the gateway only, account operations still want `Token`.
  const bearerRefused =
    need !== 'base-token' && /^Bearer\s/i.test(header ?? '') && ctx.faults.has('bearer-base-tokens-only');
  let token = bearerRefused ? undefined : presented(ctx, header);
  if (ctx.faults.has('accept-garbage-token') || ctx.faults.has('anonymous-access'))
    ({ token, header } = standIn(ctx, need, token, header, params));
  switch (need) {
    case 'account':
      return { kind: 'user', user: accountUser(ctx, token, header) };
    case 'admin': {
      const user = accountUser(ctx, token, header);
      if (!user.is_staff) throw new HttpError(403, 'Permission denied.');
      return { kind: 'user', user };
    }
    case 'team-admin': {
      const user = accountUser(ctx, token, header);
      const orgId = params.org_id === undefined ? user.org_id : Number(params.org_id);
      if (!user.is_org_admin || user.org_id === null || user.org_id !== orgId)
        throw new HttpError(403, 'Permission denied.');
      return { kind: 'user', user };
    }
    case 'api-token': {
      const api = token ? ctx.store.apiToken(token) : undefined;
      if (!api) throw new HttpError(403, 'Permission denied.');
      return { kind: 'api', token: api };
    }
    case 'base-token': {
      const bt = token ? ctx.store.baseToken(token) : undefined;
      // Worded as the real gateway words them (api-shapes §1.7, §8): a bad token `error_message`,
      // an expired one and a read-only one `error_msg` — clients look for those fields.
      if (!bt) throw new HttpError(403, 'invalid token', 'gateway');
      if (bt.expires_at <= ctx.now()) throw new HttpError(403, 'Token expired.', 'web');
      if (
        params.base_uuid !== undefined &&
        bt.base_uuid !== params.base_uuid &&
        !ctx.faults.has('base-token-any-base')
      ) {
        throw new HttpError(403, "You don't have permission to access this base.", 'gateway');
      }
      if (bt.permission === 'r' && ep.method !== 'GET')
        throw new HttpError(403, "You don't have permission to perform this operation on this base.", 'web');
      return { kind: 'base', token: bt };
    }
  }
}

/**
 * Mutants: a credential the server does not know (`accept-garbage-token`) or none at all
 * (`anonymous-access`) is taken as the seeded admin's — a development-mode fallback left on.
 */
function standIn(
  ctx: ServerContext,
  need: Credential,
  token: string | undefined,
  header: string | undefined,
  params: Record<string, string>,
): { token?: string; header?: string } {
  const known =
    token !== undefined &&
    (need === 'base-token'
      ? !!ctx.store.baseToken(token)
      : need === 'api-token'
        ? !!ctx.store.apiToken(token)
        : !!ctx.store.userByAccountToken(token));
  const take = header ? !known && ctx.faults.has('accept-garbage-token') : ctx.faults.has('anonymous-access');
  if (!take) return { token, header };
  const base = ctx.creds.bases.find((b) => b.uuid === params.base_uuid) ?? ctx.creds.bases[0]!;
  const stand =
    need === 'base-token'
      ? ctx.store.issueBaseToken(params.base_uuid ?? base.uuid, 3600, 'rw', 'stand-in', null).token
      : need === 'api-token'
        ? base.api_token
        : ctx.creds.admin.token;
  return { token: stand, header: `Token ${stand}` };
}

/** Who a write is attributed to (`_creator`, `_last_modifier`, webhook `op_user`). */
export function actorOf(p: Principal): string {
  if (p.kind === 'user') return p.user.id;
  if (p.kind === 'base') return p.token.username ?? p.token.app_name ?? 'api';
  if (p.kind === 'api') return p.token.app_name;
  return 'anonymous';
}

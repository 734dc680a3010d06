/**
 * The rest of an API token's life cycle (AUTH-5; authentication.yaml): Update API-Token (its
 * permission, multipart `permission`) and Create API-Token (temporary), a token of the
 * calling user valid one hour — how the Python client's Account.get_base opens a base.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { route } from '../pipeline/hooks.js';
import type { ApiToken } from '../store/store.js';
import { formOf } from './account/common.js';
import { userOf, workspaceBase } from './auth.js';

export const TEMP_API_TOKEN_SECONDS = 3600;

type Params = { workspace_id: string; base_name: string; app_name: string };

export function registerApiTokens(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('updateApiToken'), (req) => {
    const p = req.params as Params;
    const base = workspaceBase(ctx, userOf(req), p.workspace_id, p.base_name);
    const permission = formOf(req).fields.permission;
    if (permission !== 'r' && permission !== 'rw') throw badRequest('permission invalid: r or rw is expected.', 'web');
    const token = ctx.db
      .prepare('SELECT * FROM api_tokens WHERE base_uuid = ? AND app_name = ?')
      .get(base.uuid, p.app_name) as ApiToken | undefined;
    if (!token) throw notFound(`api token ${p.app_name} not found.`, 'web');
    // Mutant api-token-permission-ignored: the answer shows the new permission, the token keeps its old one.
    if (!ctx.faults.has('api-token-permission-ignored'))
      ctx.db.prepare('UPDATE api_tokens SET permission = ? WHERE token = ?').run(permission, token.token);
    const { token: apiToken, base_uuid: _base, ...rest } = { ...token, permission };
    return { ...rest, api_token: apiToken };
  });

  route(app, ctx, endpoint('createTempApiToken'), (req) => {
    const user = userOf(req);
    const p = req.params as Params;
    const base = workspaceBase(ctx, user, p.workspace_id, p.base_name);
    // Mutant temp-api-token-expires-at-once: the expiry is the moment of issue (a unit mix-up rounded to 0).
    const seconds = ctx.faults.has('temp-api-token-expires-at-once') ? 0 : TEMP_API_TOKEN_SECONDS;
    return { api_token: ctx.store.issueTempApiToken(base.uuid, user.id, seconds) };
  });
}

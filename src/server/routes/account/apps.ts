/**
 * External app status (ACCT-6) and universal apps with their users and invite links
 * (api-shapes §7). A user manages the apps of the bases they may use.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonTextDepth } from '../../../common/json-depth.js';
import { endpoint, INPUT_LIMITS } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import {
  addAppUsers,
  appByToken,
  appUsers,
  externalAppJson,
  inviteLinks,
  rolesOf,
  setInactive,
  type App,
  type AppUserInput,
} from '../../store/account/apps.js';
import { canUseBase, orgOfBase, workspacesOf } from '../../store/account/orgs.js';
import { bool, formOf, int, paging, userOf } from './common.js';
import { rootOf } from '../../public-url.js';
import { logOperation } from './services.js';
import { prep } from '../../store/account/prepared.js';

/** The app of the path, if the caller manages it. */
function managedApp(ctx: ServerContext, req: FastifyRequest): App {
  const token = (req.params as { app_token: string }).app_token;
  const app = appByToken(ctx.db, token);
  if (!app) throw notFound('App not found.', 'web');
  const base = ctx.store.base(app.dtable_uuid);
  if (!base || !canUseBase(ctx.db, userOf(req), base)) throw forbidden();
  return app;
}

function usersInfo(ctx: ServerContext, v: unknown): AppUserInput[] {
  let list = v;
  if (typeof v === 'string') {
    if (jsonTextDepth(v, INPUT_LIMITS.jsonDepth) > INPUT_LIMITS.jsonDepth)
      throw badRequest(`users_info invalid: nested deeper than ${INPUT_LIMITS.jsonDepth} levels.`, 'web');
    try {
      list = JSON.parse(v);
    } catch {
      throw badRequest('users_info invalid: a JSON array is expected.', 'web');
    }
  }
  if (!Array.isArray(list) || list.length === 0)
    throw badRequest('users_info invalid: a non-empty array of {email, role_id} is expected.', 'web');
  if (list.length > 100) throw badRequest('users_info invalid: at most 100 users per call.', 'web');
  return list.map((item, i) => {
    if (
      !item ||
      typeof item !== 'object' ||
      typeof (item as { email?: unknown }).email !== 'string' ||
      !(item as { email: string }).email
    ) {
      throw badRequest(`users_info[${i}] invalid: {email, role_id} is expected.`, 'web');
    }
    const { email, role_id } = item as { email: string; role_id?: unknown };
    return {
      given: email,
      userId: ctx.store.userByEmail(email)?.id,
      roleId: int(role_id, `users_info[${i}].role_id`, { min: 1 }),
    };
  });
}

export function registerApps(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('externalAppStatus'), (req) => {
    const a = managedApp(ctx, req);
    const inactive = bool(formOf(req).fields.is_inactive, 'is_inactive');
    if (inactive === undefined) throw badRequest('is_inactive invalid: true or false is expected.', 'web');
    const updated = ctx.faults.has('app-status-ignored') ? a : setInactive(ctx.db, a, inactive);
    logOperation(
      ctx,
      userOf(req),
      orgOfBase(ctx.db, a.dtable_uuid),
      'base',
      inactive ? 'app_deactivate' : 'app_activate',
      { app_name: a.app_name },
    );
    return { external_app: externalAppJson(updated, rootOf(ctx, req)) };
  });

  route(app, ctx, endpoint('listUniversalApps'), (req) => {
    const user = userOf(req);
    const root = rootOf(ctx, req);
    const mine = new Set(workspacesOf(ctx.db, user).map((w) => w.id));
    const all = prep(ctx.db, "SELECT * FROM apps WHERE app_type = 'universal-app' ORDER BY id").all() as App[];
    const joined = new Map(
      (
        prep(
          ctx.db,
          'SELECT au.id, au.app_id, au.created_at, r.name AS role_name, r.permission FROM app_users au LEFT JOIN app_roles r ON r.id = au.role_id WHERE au.user_id = ?',
        ).all(user.id) as { id: number; app_id: number; created_at: string; role_name: string; permission: string }[]
      ).map((j) => [j.app_id, j]),
    );
    const entry = (a: App) => {
      const base = ctx.store.base(a.dtable_uuid);
      const j = joined.get(a.id);
      return {
        app_user_id: j?.id ?? null,
        app_id: a.id,
        app_name: a.app_name,
        app_token: a.token,
        app_config: a.app_config,
        role_name: j?.role_name ?? 'admin',
        permission: j?.permission ?? 'rw',
        dtable_uuid: a.dtable_uuid,
        dtable_name: base?.name ?? '',
        workspace_id: base?.workspaceId ?? null,
        link: `${root}/dtable/app/${a.token}/`,
        edit_link: `${root}/dtable/app/${a.token}/edit/`,
        joined_at: j?.created_at ?? a.created_at,
      };
    };
    const managed = all.filter((a) => {
      const b = ctx.store.base(a.dtable_uuid);
      return b && mine.has(b.workspaceId);
    });
    const usable = all.filter((a) => joined.has(a.id) && !managed.includes(a));
    return { my_managed_apps: managed.map(entry), can_use_apps: usable.map(entry) };
  });

  route(app, ctx, endpoint('addAppUsers'), (req) => {
    const a = managedApp(ctx, req);
    const inputs = usersInfo(ctx, formOf(req).fields.users_info);
    const result = addAppUsers(ctx.db, a, inputs, ctx.now());
    if (result.success.length)
      logOperation(ctx, userOf(req), orgOfBase(ctx.db, a.dtable_uuid), 'base', 'app_user_add', {
        app_name: a.app_name,
        count: result.success.length,
      });
    return {
      ...result,
      roles: rolesOf(ctx.db, a.id).map((r) => ({ role_id: r.id, role_name: r.name, role_permission: r.permission })),
    };
  });

  route(app, ctx, endpoint('listAppUsers'), (req) => {
    const a = managedApp(ctx, req);
    const p = paging(req.query as Record<string, unknown>, 100);
    return appUsers(ctx.db, a, p.page, p.perPage);
  });

  route(app, ctx, endpoint('listAppInviteLinks'), (req) => {
    const a = managedApp(ctx, req);
    return { app_share_links: inviteLinks(ctx.db, a, rootOf(ctx, req)) };
  });
}

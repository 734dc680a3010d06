/**
 * Users (ACCT-2, ACCT-3): Get/Update User as team admin, Add User as team admin (raises the
 * monthly quota at once, RATE-8), Update User as system admin, add a user to several groups,
 * search users of a team.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, HttpError, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { memberCount, orgById } from '../../store/account/orgs.js';
import {
  adminUserJson,
  teamUserJson,
  teamUserUpdatedJson,
  updateUser,
  userCard,
  type UserPatch,
} from '../../store/account/users.js';
import type { User } from '../../store/store.js';
import { bool, formOf, int, orgOf, str, userOf } from './common.js';
import { logOperation, type AccountServices } from './services.js';
import { prep } from '../../store/account/prepared.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function email(v: unknown, name: string, required = false): string | undefined {
  const s = str(v, name, { required });
  if (s !== undefined && !EMAIL.test(s)) throw badRequest(`${name} invalid: an email address is expected.`, 'web');
  return s;
}

function automation(ctx: ServerContext, v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (!ctx.behaviour.monthlyAutomationLimitOption || ctx.faults.has('no-automation-limit-option'))
    throw badRequest('monthly_automation_limit_per_user is not supported by this version.', 'web');
  return int(v, 'monthly_automation_limit_per_user', { min: -1, max: 1_000_000 });
}

const defined = (p: UserPatch): UserPatch =>
  Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as UserPatch;

function teamMember(ctx: ServerContext, orgId: number, id: string): User {
  const u = ctx.store.userByEmail(id);
  if (!u || u.org_id !== orgId) throw notFound(`User ${id} not found.`, 'web');
  return u;
}

/**
 * `group_ids` as a JSON array, repeated form fields or a comma list; or `group_id`, one id.
 * A lone number as `group_ids` is a list of the wrong type, refused like any other.
 */
function groupIds(list: unknown, one: unknown): number[] {
  if (list !== undefined && list !== null && !Array.isArray(list) && typeof list !== 'string')
    throw badRequest('group_ids invalid: a list of group ids is expected.', 'web');
  const v = list ?? one;
  const raw = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : v === undefined || v === null ? [] : [v];
  if (!raw.length) throw badRequest('group_ids invalid.', 'web');
  if (raw.length > 100) throw badRequest('group_ids invalid: at most 100 groups per call.', 'web');
  return raw.map((g) => int(typeof g === 'string' ? g.trim() : g, 'group_ids', { required: true, min: 1 })!);
}

export function registerUsers(app: FastifyInstance, ctx: ServerContext, s: AccountServices): void {
  route(app, ctx, endpoint('getTeamUser'), (req) => {
    const p = req.params as { org_id: string; user_id: string };
    return teamUserJson(ctx.db, teamMember(ctx, Number(p.org_id), p.user_id), ctx.behaviour, ctx.faults);
  });

  route(app, ctx, endpoint('updateTeamUser'), (req) => {
    const admin = userOf(req);
    const p = req.params as { org_id: string; user_id: string };
    const orgId = Number(p.org_id);
    const u = teamMember(ctx, orgId, p.user_id);
    const f = formOf(req).fields;
    const patch = defined({
      name: str(f.name, 'name'),
      contact_email: email(f.contact_email, 'contact_email'),
      is_org_admin: bool(f.is_staff, 'is_staff'),
      is_active: bool(f.is_active, 'is_active'),
      quota_total: int(f.quota_total, 'quota_total', { min: -1 }),
      id_in_org: str(f.id_in_org, 'id_in_org'),
      monthly_automation_limit_per_user: automation(ctx, f.monthly_automation_limit_per_user),
    });
    if (!Object.keys(patch).length) throw badRequest('Nothing to update.', 'web');
    updateUser(ctx.db, u.id, patch);
    if (patch.is_active !== undefined) s.quota?.invalidate(orgId);
    logOperation(ctx, admin, orgId, 'user', 'user_update', { email: u.id, fields: Object.keys(patch) });
    return teamUserUpdatedJson(ctx.db, ctx.store.userById(u.id)!, ctx.behaviour);
  });

  route(app, ctx, endpoint('addTeamUser'), (req) => {
    const admin = userOf(req);
    const orgId = Number((req.params as { org_id: string }).org_id);
    const f = formOf(req).fields;
    const address = email(f.email, 'email', true)!;
    const password = str(f.password, 'password', { required: true, max: 256 })!;
    const name = str(f.name, 'name') ?? address.split('@')[0]!;
    if (ctx.store.userByEmail(address)) throw badRequest(`User ${address} already exists.`, 'web');
    const org = orgById(ctx.db, orgId)!;
    if (org.max_user_number !== null && memberCount(ctx.db, orgId) >= org.max_user_number)
      throw new HttpError(403, 'The number of users exceeds the limit.');
    const u = ctx.store.createUser({ email: address, name, password, orgId });
    s.quota?.invalidate(orgId);
    logOperation(ctx, admin, orgId, 'user', 'user_add', { email: u.id });
    return teamUserUpdatedJson(ctx.db, u, ctx.behaviour);
  });

  route(app, ctx, endpoint('updateUser'), (req) => {
    const id = (req.params as { user_id: string }).user_id;
    const u = ctx.store.userByEmail(id);
    if (!u) throw notFound(`User ${id} not found.`, 'web');
    const f = formOf(req).fields;
    const patch = defined({
      is_staff: bool(f.is_staff, 'is_staff'),
      is_active: bool(f.is_active, 'is_active'),
      role: str(f.role, 'role', { max: 64 }),
      name: str(f.name, 'name'),
      login_id: str(f.login_id, 'login_id'),
      contact_email: email(f.contact_email, 'contact_email'),
      id_in_org: str(f.id_in_org, 'id_in_org'),
      unit: str(f.unit, 'unit'),
      password: str(f.password, 'password', { max: 256 }),
      institution: str(f.institution, 'institution'),
      row_limit: int(f.row_limit, 'row_limit', { min: -1 }),
      quota_total: int(f.quota_total, 'quota_total', { min: -1 }),
      asset_quota_mb: int(f.asset_quota_mb, 'asset_quota_mb', { min: -1 }),
      monthly_automation_limit_per_user: automation(ctx, f.monthly_automation_limit_per_user),
    });
    if (!Object.keys(patch).length) throw badRequest('Nothing to update.', 'web');
    updateUser(ctx.db, u.id, patch);
    if (patch.is_active !== undefined && u.org_id !== null) s.quota?.invalidate(u.org_id);
    logOperation(ctx, userOf(req), u.org_id, 'user', 'user_update', {
      email: u.id,
      fields: Object.keys(patch).filter((k) => k !== 'password'),
    });
    return adminUserJson(ctx.db, ctx.store.userById(u.id)!, ctx.behaviour);
  });

  route(app, ctx, endpoint('addUserToGroups'), (req) => {
    const id = (req.params as { username: string }).username;
    const u = ctx.store.userByEmail(id);
    if (!u) throw notFound(`User ${id} not found.`, 'web');
    const f = formOf(req).fields;
    const ids = groupIds(f.group_ids, f.group_id);
    const success: { group_id: number; group_name: string }[] = [];
    const failed: { group_id: number; error_msg: string }[] = [];
    for (const gid of ids) {
      const g = prep(ctx.db, 'SELECT id, name, org_id FROM groups_ WHERE id = ?').get(gid) as
        { id: number; name: string; org_id: number | null } | undefined;
      if (!g) {
        failed.push({ group_id: gid, error_msg: `Group ${gid} not found.` });
        continue;
      }
      if (
        prep(ctx.db, 'INSERT OR IGNORE INTO group_members (group_id, user_id) VALUES (?, ?)').run(gid, u.id).changes ===
        0
      ) {
        failed.push({ group_id: gid, error_msg: 'User is already a group member.' });
        continue;
      }
      success.push({ group_id: g.id, group_name: g.name });
      logOperation(ctx, userOf(req), g.org_id, 'group', 'group_member_add', { group_name: g.name, email: u.id });
    }
    return { success, failed };
  });

  route(app, ctx, endpoint('searchUserByOrgId'), (req) => {
    const q = req.query as Record<string, unknown>;
    const org = orgOf(ctx, q.org_id);
    const text = typeof q.query === 'string' ? q.query.trim() : '';
    const limit = int(q.limit, 'limit', { min: 1, max: 1000 }) ?? 10;
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const users = prep(
      ctx.db,
      `SELECT * FROM users WHERE org_id = ? AND (name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR coalesce(contact_email, '') LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\') ORDER BY ctime LIMIT ?`,
    ).all(org.id, like, like, like, like, limit) as User[];
    return { users: users.map(userCard) };
  });
}

/**
 * Finding bases (ACCT-8): Get Account Info (`/api2/account/info/`, the Python client reads
 * `email` from it to name a base's owner) and List Workspaces, with the bases of each unless
 * `detail=false`. The starred and shared pseudo-workspaces come first, as the OpenAPI shows.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { route } from '../../pipeline/hooks.js';
import { orgById, rowUsage } from '../../store/account/orgs.js';
import { prep } from '../../store/account/prepared.js';
import { quotaUsage } from '../../store/account/users.js';
import { ownWorkspaces, workspaceEntry } from '../../store/bases/entries.js';
import type { User } from '../../store/store.js';
import { bool, userOf } from './common.js';
import { rootOf } from '../../public-url.js';

const percent = (used: number, total: number) =>
  total > 0 ? `${Number(((used / total) * 100).toPrecision(10))}%` : '0%';

function accountInfo(ctx: ServerContext, user: User, root: string) {
  const profile = prep(ctx.db, 'SELECT login_id, institution FROM user_profiles WHERE user_id = ?').get(user.id) as
    { login_id: string | null; institution: string | null } | undefined;
  const org = user.org_id === null ? undefined : orgById(ctx.db, user.org_id);
  const usage = quotaUsage(ctx.db, user.id);
  const total = user.quota_total === null ? -1 : user.quota_total * 1_000_000; // -1: unlimited, as Get User (team admin) writes it
  const mine = (prep(ctx.db, 'SELECT uuid FROM bases WHERE creator = ?').all(user.id) as { uuid: string }[])
    .map((b) => ctx.store.base(b.uuid))
    .filter((b) => b !== undefined);
  const rows = rowUsage(mine);
  const rowTotal = user.row_limit ?? org?.row_limit ?? -1;
  return {
    ...(org ? { org_id: org.id, is_org_staff: user.is_org_admin } : {}),
    space_usage: percent(usage, total),
    total,
    usage,
    row_usage_rate: percent(rows, rowTotal),
    row_total: rowTotal,
    row_usage: rows,
    avatar_url: `${root}/media/avatars/default.png`,
    email: user.id,
    name: user.name,
    login_id: profile?.login_id ?? '',
    contact_email: user.contact_email ?? user.email,
    institution: profile?.institution ?? '',
    is_staff: user.is_staff === 1,
    enable_chargebee: false,
    enable_subscription: false,
    dtable_updates_email_interval: 0,
    dtable_collaborate_email_interval: 0,
  };
}

export function registerWorkspaces(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('getAccountInfo'), (req) => accountInfo(ctx, userOf(req), rootOf(ctx, req)));

  route(app, ctx, endpoint('listWorkspaces'), (req) => {
    const detail = bool((req.query as Record<string, unknown>).detail, 'detail') ?? true;
    const starred = { id: '', name: 'starred', type: 'starred', ...(detail ? { table_list: [] } : {}) };
    const shared = {
      id: '',
      name: 'shared',
      type: 'shared',
      ...(detail ? { shared_table_list: [], shared_view_list: [] } : {}),
    };
    const own = ownWorkspaces(ctx.db, userOf(req)).map((w) => workspaceEntry(ctx.db, w, detail));
    return { workspace_list: [starred, shared, ...own] };
  });
}

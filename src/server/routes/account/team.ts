/**
 * Get Team Info and Update Team (ACCT-1, ACCT-2, RATE-8): the team's usage and limits,
 * including the monthly API calls; renaming by the team admin; plan and limits by the
 * system admin (a plan change raises the quota at once).
 */
import type { FastifyInstance } from 'fastify';
import { endpoint, PLANS, type Plan } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, forbidden } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { assetUsage, memberCount, orgBases, orgById, planOf, rowUsage, type Org } from '../../store/account/orgs.js';
import { countBigRows } from '../../store/big-data/store.js';
import { formOf, int, oneOf, orgOf, str, userOf } from './common.js';
import type { AccountServices } from './services.js';
import { prep } from '../../store/account/prepared.js';

/** Running scripts per month by plan (-1 = unlimited); the real numbers are not published. */
const SCRIPTS_LIMIT: Record<Plan, number> = { org_default: 100, org_plus: 2_000, org_enterprise: -1 };

function automationOption(ctx: ServerContext, v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (!ctx.behaviour.monthlyAutomationLimitOption || ctx.faults.has('no-automation-limit-option')) {
    throw badRequest('monthly_automation_limit_per_user is not supported by this version.', 'web');
  }
  return int(v, 'monthly_automation_limit_per_user', { min: -1, max: 1_000_000 });
}

function teamInfo(ctx: ServerContext, s: AccountServices, org: Org) {
  const bases = orgBases(ctx.db, ctx.store.allBases(), org.id);
  const active = memberCount(ctx.db, org.id, true);
  const usage = s.quota?.usage(org.id) ?? { count: 0, limit: null };
  const bigDataRows = bases.reduce((n, b) => n + b.meta.tables.reduce((m, t) => m + countBigRows(ctx.db, t), 0), 0);
  const scriptsField = ctx.faults.has('scripts-total-on-6.2')
    ? 'scripts_running_total'
    : ctx.behaviour.scriptsRunningField;
  const perUser = org.monthly_automation_limit_per_user;
  return {
    org_id: org.id,
    org_name: org.name,
    storage_quota: org.asset_quota_mb === null ? -1 : org.asset_quota_mb * 1_000_000,
    storage_usage: assetUsage(ctx.db, bases),
    member_quota: org.max_user_number ?? -1,
    member_usage: memberCount(ctx.db, org.id),
    active_members: active,
    row_usage: rowUsage(bases),
    row_total: org.row_limit ?? -1,
    role: org.role,
    big_data_row_limit: -1,
    big_data_storage_quota: -1,
    big_data_total_rows: bigDataRows,
    big_data_total_storage: 0,
    api_calls_count: usage.count,
    api_calls_limit: usage.limit ?? -1,
    automation_count: 0,
    automation_limit: perUser === null || perUser < 0 ? -1 : perUser * active,
    [scriptsField]: SCRIPTS_LIMIT[planOf(org)],
    scripts_running_count: 0,
    ai_cost: 0,
    ai_credit: -1,
  };
}

function adminTeamJson(ctx: ServerContext, org: Org) {
  const creator = prep(
    ctx.db,
    'SELECT id, name, contact_email, email FROM users WHERE org_id = ? AND is_org_admin = 1 ORDER BY ctime LIMIT 1',
  ).get(org.id) as { id: string; name: string; contact_email: string | null; email: string } | undefined;
  const bases = orgBases(ctx.db, ctx.store.allBases(), org.id);
  const quota = org.asset_quota_mb === null ? -1 : org.asset_quota_mb * 1_000_000;
  return {
    org_id: org.id,
    org_name: org.name,
    ctime: org.ctime,
    org_url_prefix: org.url_prefix ?? '',
    role: org.role,
    creator_email: creator?.id ?? '',
    creator_name: creator?.name ?? '',
    creator_contact_email: creator?.contact_email ?? creator?.email ?? '',
    quota,
    storage_usage: assetUsage(ctx.db, bases),
    storage_quota: quota,
    max_user_number: org.max_user_number ?? -1,
    rows_count: rowUsage(bases),
    row_limit: org.row_limit ?? -1,
    ...(ctx.behaviour.monthlyAutomationLimitOption
      ? { monthly_automation_limit_per_user: org.monthly_automation_limit_per_user ?? -1 }
      : {}),
  };
}

export function registerTeam(app: FastifyInstance, ctx: ServerContext, s: AccountServices): void {
  route(app, ctx, endpoint('getTeamInfo'), (req) => {
    const org = orgById(ctx.db, userOf(req).org_id ?? -1);
    if (!org) throw forbidden();
    return teamInfo(ctx, s, org);
  });

  route(app, ctx, endpoint('updateTeamInfo'), (req) => {
    const org = orgById(ctx.db, userOf(req).org_id ?? -1);
    if (!org) throw forbidden();
    const f = formOf(req).fields;
    const name = str(f.new_org_name ?? f.org_name, 'new_org_name');
    const automation = automationOption(ctx, f.monthly_automation_limit_per_user);
    if (name === undefined && automation === undefined) throw badRequest('new_org_name invalid.', 'web');
    if (name !== undefined) prep(ctx.db, 'UPDATE orgs SET name = ? WHERE id = ?').run(name, org.id);
    if (automation !== undefined)
      prep(ctx.db, 'UPDATE orgs SET monthly_automation_limit_per_user = ? WHERE id = ?').run(automation, org.id);
    return { success: true };
  });

  route(app, ctx, endpoint('updateTeam'), (req) => {
    const org = orgOf(ctx, (req.params as { org_id: string }).org_id);
    const f = formOf(req).fields;
    const patch: [string, unknown][] = [
      ['name', str(f.org_name, 'org_name')],
      ['role', oneOf(f.role, 'role', PLANS)],
      ['row_limit', int(f.row_limit, 'row_limit', { min: -1 })],
      ['max_user_number', int(f.max_user_number, 'max_user_number', { min: 1, max: 1_000_000 })],
      ['asset_quota_mb', int(f.asset_quota_mb, 'asset_quota_mb', { min: -1 })],
      ['monthly_automation_limit_per_user', automationOption(ctx, f.monthly_automation_limit_per_user)],
    ];
    const set = patch.filter(([, v]) => v !== undefined);
    if (!set.length)
      throw badRequest(
        'Nothing to update: give org_name, role, row_limit, max_user_number, asset_quota_mb or monthly_automation_limit_per_user.',
        'web',
      );
    prep(ctx.db, `UPDATE orgs SET ${set.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
      ...set.map(([, v]) => v),
      org.id,
    );
    s.quota?.invalidate(org.id);
    return adminTeamJson(ctx, orgById(ctx.db, org.id)!);
  });
}

/**
 * Users as the account endpoints show and change them (api-shapes §7). The user's `email`
 * in responses is the real service's user id (`<32 hex>@auth.local`); the address a user
 * logs in with is `contact_email`.
 */
import type { Behaviour } from '../../../spec/index.js';
import type { Db } from '../db.js';
import { hashPassword, type User } from '../store.js';
import { prep } from './prepared.js';
import type { Faults } from '../../faults.js';

export interface UserPatch {
  name?: string;
  contact_email?: string;
  is_staff?: boolean;
  is_active?: boolean;
  is_org_admin?: boolean;
  role?: string;
  id_in_org?: string;
  quota_total?: number;
  row_limit?: number;
  asset_quota_mb?: number;
  monthly_automation_limit_per_user?: number;
  password?: string;
  login_id?: string;
  unit?: string;
  institution?: string;
}

const USER_COLUMNS = [
  'name',
  'contact_email',
  'is_staff',
  'is_active',
  'is_org_admin',
  'role',
  'id_in_org',
  'quota_total',
  'row_limit',
  'asset_quota_mb',
  'monthly_automation_limit_per_user',
] as const;
const PROFILE_COLUMNS = ['login_id', 'unit', 'institution'] as const;

export function updateUser(db: Db, userId: string, patch: UserPatch): void {
  db.transaction(() => {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const k of USER_COLUMNS) {
      const v = patch[k];
      if (v === undefined) continue;
      sets.push(`${k} = ?`);
      params.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
    }
    if (patch.password !== undefined) {
      sets.push('password_hash = ?');
      params.push(hashPassword(patch.password));
    }
    if (sets.length) prep(db, `UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...params, userId);
    const profile = PROFILE_COLUMNS.filter((k) => patch[k] !== undefined);
    if (profile.length) {
      prep(db, 'INSERT INTO user_profiles (user_id) VALUES (?) ON CONFLICT DO NOTHING').run(userId);
      prep(db, `UPDATE user_profiles SET ${profile.map((k) => `${k} = ?`).join(', ')} WHERE user_id = ?`).run(
        ...profile.map((k) => patch[k]),
        userId,
      );
    }
  })();
}

/** Bytes of assets in the bases a user created (the service's "space used"). */
export function quotaUsage(db: Db, userId: string): number {
  return (
    prep(
      db,
      'SELECT coalesce(sum(length(a.data)), 0) AS n FROM assets a JOIN bases b ON b.uuid = a.base_uuid WHERE b.creator = ?',
    ).get(userId) as { n: number }
  ).n;
}

const quotaTotal = (u: User) => (u.quota_total === null ? -1 : u.quota_total * 1_000_000);
const contact = (u: User) => u.contact_email ?? u.email;

/** Get User (team admin): `is_active` and `is_org_admin` from 6.1 (ACCT-3). */
export function teamUserJson(db: Db, u: User, b: Readonly<Behaviour>, faults: Faults) {
  const base = {
    email: u.id,
    name: u.name,
    contact_email: contact(u),
    quota_usage: quotaUsage(db, u.id),
    quota_total: quotaTotal(u),
    avatar_url: '',
    id_in_org: u.id_in_org ?? '',
    has_default_device: false,
    is_force_2fa: false,
  };
  if (!b.teamAdminUserFlags || faults.has('team-user-no-flags')) return base;
  return { ...base, is_active: u.is_active === 1, is_org_admin: u.is_org_admin === 1 };
}

const automation = (u: User, b: Readonly<Behaviour>) =>
  b.monthlyAutomationLimitOption
    ? { monthly_automation_limit_per_user: u.monthly_automation_limit_per_user ?? -1 }
    : {};

/** Update User (team admin) answer. */
export function teamUserUpdatedJson(db: Db, u: User, b: Readonly<Behaviour>) {
  const usage = quotaUsage(db, u.id);
  return {
    email: u.id,
    name: u.name,
    contact_email: contact(u),
    quota_usage: usage,
    quota_total: quotaTotal(u),
    is_active: u.is_active === 1,
    id: u.id,
    ctime: u.ctime,
    id_in_org: u.id_in_org ?? '',
    last_login: u.last_login,
    self_usage: usage,
    quota: quotaTotal(u),
    ...automation(u, b),
  };
}

/** A user as the system admin sees it. */
export function adminUserJson(db: Db, u: User, b: Readonly<Behaviour>) {
  const p = (prep(db, 'SELECT * FROM user_profiles WHERE user_id = ?').get(u.id) ?? {}) as {
    login_id?: string;
    unit?: string;
    institution?: string;
  };
  return {
    email: u.id,
    name: u.name,
    contact_email: contact(u),
    login_id: p.login_id ?? '',
    unit: p.unit ?? '',
    institution: p.institution ?? '',
    is_staff: u.is_staff === 1,
    is_active: u.is_active === 1,
    role: u.role ?? 'default',
    org_id: u.org_id ?? -1,
    quota_usage: quotaUsage(db, u.id),
    quota_total: quotaTotal(u),
    row_limit: u.row_limit ?? -1,
    asset_quota_mb: u.asset_quota_mb ?? -1,
    id_in_org: u.id_in_org ?? '',
    ctime: u.ctime,
    create_time: u.ctime,
    last_login: u.last_login,
    ...automation(u, b),
    // Update User's answer (system_admin_account_operations.yaml) also names these; the reference keeps no phone.
    phone: '',
    update_status_tip: '',
  };
}

/** Short user card (search results). */
export const userCard = (u: User) => ({ email: u.id, avatar_url: '', name: u.name, contact_email: contact(u) });

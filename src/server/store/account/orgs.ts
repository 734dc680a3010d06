/**
 * Teams ("orgs"), their workspaces and who may use a base. A team admin sees only their
 * own team; a base belongs to the team of its workspace.
 */
import { PLANS, type Plan } from '../../../spec/index.js';
import type { Db } from '../db.js';
import type { Base } from '../model.js';
import { countRows } from '../rows.js';
import type { User } from '../store.js';
import { prep } from './prepared.js';

export interface Org {
  id: number;
  name: string;
  role: string;
  max_user_number: number | null;
  row_limit: number | null;
  asset_quota_mb: number | null;
  monthly_automation_limit_per_user: number | null;
  logo: Buffer | null;
  logo_type: string | null;
  logo_path: string | null;
  ctime: string;
  url_prefix: string | null;
}
export interface Workspace {
  id: number;
  org_id: number | null;
  owner: string;
  group_id: number | null;
  name: string;
}

export const orgById = (db: Db, id: number): Org | undefined =>
  prep(db, 'SELECT * FROM orgs WHERE id = ?').get(id) as Org | undefined;
export const workspaceById = (db: Db, id: number): Workspace | undefined =>
  prep(db, 'SELECT * FROM workspaces WHERE id = ?').get(id) as Workspace | undefined;

/** An unknown role counts as the smallest plan, so a typo never grants a bigger quota. */
export const planOf = (org: Org): Plan =>
  (PLANS as readonly string[]).includes(org.role) ? (org.role as Plan) : 'org_default';

export function memberCount(db: Db, orgId: number, activeOnly = false): number {
  const sql = `SELECT count(*) AS n FROM users WHERE org_id = ?${activeOnly ? ' AND is_active = 1' : ''}`;
  return (prep(db, sql).get(orgId) as { n: number }).n;
}

/** The team a base counts against (the org of its workspace), or null for a personal workspace. */
export function orgOfBase(db: Db, baseUuid: string): number | null {
  const r = prep(db, 'SELECT w.org_id FROM bases b JOIN workspaces w ON w.id = b.workspace_id WHERE b.uuid = ?').get(
    baseUuid,
  ) as { org_id: number | null } | undefined;
  return r?.org_id ?? null;
}

export function orgBases(db: Db, all: Base[], orgId: number): Base[] {
  const ws = new Set(
    (prep(db, 'SELECT id FROM workspaces WHERE org_id = ?').all(orgId) as { id: number }[]).map((w) => w.id),
  );
  return all.filter((b) => ws.has(b.workspaceId));
}

export function rowUsage(bases: Base[]): number {
  return bases.reduce((n, b) => n + b.meta.tables.reduce((m, t) => m + countRows(b.db, t), 0), 0);
}

export function assetUsage(db: Db, bases: Base[]): number {
  if (!bases.length) return 0;
  const r = prep(
    db,
    'SELECT coalesce(sum(length(data)), 0) AS n FROM assets WHERE base_uuid IN (SELECT value FROM json_each(?))',
  ).get(JSON.stringify(bases.map((b) => b.uuid))) as { n: number };
  return r.n;
}

/** Workspaces a user may use: owned, shared with one of their groups, or (team admins, system admins) in their team. */
export function workspacesOf(db: Db, user: User): Workspace[] {
  return prep(
    db,
    `SELECT * FROM workspaces w WHERE w.owner = ?
      OR w.group_id IN (SELECT group_id FROM group_members WHERE user_id = ?)
      OR (? = 1 AND w.org_id = ?) OR ? = 1 ORDER BY w.id`,
  ).all(user.id, user.id, user.is_org_admin, user.org_id, user.is_staff) as Workspace[];
}

export function canUseBase(db: Db, user: User, base: Base): boolean {
  return workspacesOf(db, user).some((w) => w.id === base.workspaceId);
}

/** The name of a workspace's group (items search's `group_name`). */
export function groupName(db: Db, groupId: number | null): string {
  if (groupId === null) return '';
  return (prep(db, 'SELECT name FROM groups_ WHERE id = ?').get(groupId) as { name: string } | undefined)?.name ?? '';
}

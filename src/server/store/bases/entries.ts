/**
 * Bases and workspaces as the account listings show them (List Workspaces, Create Base, Copy
 * Base; user_account_operations.yaml): a base entry carries the creator's name, its style,
 * and `id`, the row number of the base in the service's database.
 */
import { prep } from '../account/prepared.js';
import type { Db } from '../db.js';
import type { User } from '../store.js';

interface BaseEntry {
  id: number;
  workspace_id: number;
  uuid: string;
  name: string;
  creator: string;
  modifier: string;
  created_at: string;
  updated_at: string;
  color: string | null;
  text_color: string | null;
  icon: string | null;
  starred: boolean;
}

const ENTRY_SQL = `SELECT b.rowid AS id, b.workspace_id, b.uuid, b.name, coalesce(u.name, b.creator, '') AS creator, b.created_at, b.updated_at,
    s.color, s.text_color, s.icon
  FROM bases b LEFT JOIN base_styles s ON s.base_uuid = b.uuid LEFT JOIN users u ON u.id = b.creator`;

type Raw = Omit<BaseEntry, 'modifier' | 'starred'>;
const entry = (r: Raw): BaseEntry => ({ ...r, modifier: r.creator, starred: false });

export function baseEntry(db: Db, uuid: string): BaseEntry | undefined {
  const r = prep(db, `${ENTRY_SQL} WHERE b.uuid = ?`).get(uuid) as Raw | undefined;
  return r && entry(r);
}

function workspaceEntries(db: Db, workspaceId: number): BaseEntry[] {
  return (prep(db, `${ENTRY_SQL} WHERE b.workspace_id = ? ORDER BY b.name`).all(workspaceId) as Raw[]).map(entry);
}

interface WorkspaceRow {
  id: number;
  org_id: number | null;
  owner: string;
  group_id: number | null;
  name: string;
  group_name: string | null;
  group_owner: string | null;
}

/** The workspaces a user works in: their own and those of groups they own or belong to (not every workspace an admin may reach). */
export function ownWorkspaces(db: Db, user: User): WorkspaceRow[] {
  return prep(
    db,
    `SELECT w.*, g.name AS group_name, g.owner AS group_owner FROM workspaces w LEFT JOIN groups_ g ON g.id = w.group_id
      WHERE (w.group_id IS NULL AND w.owner = ?) OR g.owner = ? OR w.group_id IN (SELECT group_id FROM group_members WHERE user_id = ?) ORDER BY w.id`,
  ).all(user.id, user.id, user.id) as WorkspaceRow[];
}

/** One entry of List Workspaces; with `detail`, its bases and the group's facts. */
export function workspaceEntry(db: Db, w: WorkspaceRow, detail: boolean): Record<string, unknown> {
  const group = w.group_id !== null;
  const head = { id: w.id, name: group ? (w.group_name ?? w.name) : 'personal', type: group ? 'group' : 'personal' };
  if (!detail) return head;
  // `owner_type` and `group_id`: the Python client's add_base finds the owner of a workspace by them.
  if (!group) return { ...head, owner_type: 'Personal', table_list: workspaceEntries(db, w.id) };
  const members = (
    prep(db, 'SELECT count(*) AS n FROM group_members WHERE group_id = ?').get(w.group_id) as { n: number }
  ).n;
  return {
    ...head,
    owner_type: 'Group',
    group_id: w.group_id,
    group_owner: w.group_owner ?? w.owner,
    group_admins: [w.group_owner ?? w.owner],
    group_member_count: members,
    table_list: workspaceEntries(db, w.id),
    group_shared_dtables: [],
    group_shared_views: [],
  };
}

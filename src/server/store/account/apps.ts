/**
 * Universal apps (external apps): one per seeded base, with roles, app users and invite
 * links (api-shapes §7). An app's token is also its external-app token (ACCT-6).
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db.js';
import { isoNow } from '../model.js';
import { prep } from './prepared.js';

export interface App {
  id: number;
  token: string;
  dtable_uuid: string;
  app_name: string;
  app_type: string;
  app_config: string;
  creator: string;
  created_at: string;
  visit_times: number;
  can_anonymous_access: number;
  inactive: number;
}
interface AppRole {
  id: number;
  app_id: number;
  name: string;
  permission: string;
}

export const appByToken = (db: Db, token: string): App | undefined =>
  prep(db, 'SELECT * FROM apps WHERE token = ?').get(token) as App | undefined;
export const rolesOf = (db: Db, appId: number): AppRole[] =>
  prep(db, 'SELECT * FROM app_roles WHERE app_id = ? ORDER BY id').all(appId) as AppRole[];

export function createApp(db: Db, a: { baseUuid: string; name: string; creator: string; at: number }): App {
  const token = randomBytes(16).toString('hex');
  const config = JSON.stringify({
    version: 1,
    settings: { title: a.name },
    pages: [{ id: '0000', name: 'Page 1', type: 'table' }],
  });
  const id = Number(
    prep(
      db,
      'INSERT INTO apps (token, dtable_uuid, app_name, app_config, creator, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(token, a.baseUuid, a.name, config, a.creator, isoNow(a.at)).lastInsertRowid,
  );
  const role = prep(db, 'INSERT INTO app_roles (app_id, name, permission) VALUES (?, ?, ?)');
  role.run(id, 'default', 'r');
  role.run(id, 'editor', 'rw');
  return prep(db, 'SELECT * FROM apps WHERE id = ?').get(id) as App;
}

/** The `external_app` object of the status endpoint. */
export function externalAppJson(app: App, root: string) {
  return {
    id: app.id,
    token: app.token,
    dtable_uuid: app.dtable_uuid,
    app_type: app.app_type,
    app_config: app.app_config,
    created_at: app.created_at,
    external_app_url: `${root}/dtable/external-apps/${app.token}/`,
    visit_times: app.visit_times,
    creator: app.creator,
    can_anonymous_access: app.can_anonymous_access === 1,
    inactive: app.inactive === 1,
  };
}

export function setInactive(db: Db, app: App, inactive: boolean): App {
  prep(db, 'UPDATE apps SET inactive = ? WHERE id = ?').run(inactive ? 1 : 0, app.id);
  return { ...app, inactive: inactive ? 1 : 0 };
}

interface AppUserRow {
  id: number;
  user_id: string;
  created_at: string;
  is_active: number;
  role_id: number;
  name: string | null;
  role_name: string | null;
  permission: string | null;
}

const appUserJson = (app: App) => (r: AppUserRow) => ({
  id: r.id,
  email: r.user_id,
  created_at: r.created_at,
  is_active: r.is_active === 1,
  name: r.name ?? '',
  app_name: app.app_name,
  role_id: r.role_id,
  role_name: r.role_name ?? '',
  role_permission: r.permission ?? '',
  avatar_url: '',
});

const USER_SELECT = `SELECT au.id, au.user_id, au.created_at, au.is_active, au.role_id, u.name, r.name AS role_name, r.permission
  FROM app_users au LEFT JOIN users u ON u.id = au.user_id LEFT JOIN app_roles r ON r.id = au.role_id`;

export function appUsers(db: Db, app: App, page: number, perPage: number) {
  const total = (prep(db, 'SELECT count(*) AS n FROM app_users WHERE app_id = ?').get(app.id) as { n: number }).n;
  const rows = prep(db, `${USER_SELECT} WHERE au.app_id = ? ORDER BY au.id LIMIT ? OFFSET ?`).all(
    app.id,
    perPage,
    (page - 1) * perPage,
  ) as AppUserRow[];
  return { app_users: rows.map(appUserJson(app)), total_count: total };
}

export interface AppUserInput {
  userId: string | undefined;
  given: string;
  roleId: number | undefined;
}

/** Add users to an app; each entry succeeds or fails on its own, as batch endpoints of the real service do. */
export function addAppUsers(db: Db, app: App, inputs: AppUserInput[], at: number) {
  const roles = new Map(rolesOf(db, app.id).map((r) => [r.id, r]));
  const success: ReturnType<ReturnType<typeof appUserJson>>[] = [];
  const failed: { email: string; error_msg: string }[] = [];
  const insert = prep(db, 'INSERT INTO app_users (app_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const i of inputs) {
      const roleId = i.roleId ?? roles.keys().next().value!;
      if (!i.userId) {
        failed.push({ email: i.given, error_msg: 'User not found.' });
        continue;
      }
      if (!roles.has(roleId)) {
        failed.push({ email: i.given, error_msg: `Role ${roleId} not found.` });
        continue;
      }
      if (prep(db, 'SELECT 1 FROM app_users WHERE app_id = ? AND user_id = ?').get(app.id, i.userId)) {
        failed.push({ email: i.given, error_msg: 'User is already an app user.' });
        continue;
      }
      const id = Number(insert.run(app.id, i.userId, roleId, isoNow(at)).lastInsertRowid);
      success.push(appUserJson(app)(prep(db, `${USER_SELECT} WHERE au.id = ?`).get(id) as AppUserRow));
    }
  })();
  return { success, failed };
}

export function createInviteLink(db: Db, app: App, username: string, roleId: number, at: number): void {
  prep(db, 'INSERT INTO app_invite_links (app_id, token, username, role_id, ctime) VALUES (?, ?, ?, ?, ?)').run(
    app.id,
    randomBytes(10).toString('hex'),
    username,
    roleId,
    isoNow(at),
  );
}

export function inviteLinks(db: Db, app: App, root: string) {
  const rows = prep(
    db,
    `SELECT l.*, r.name AS role_name, r.permission FROM app_invite_links l LEFT JOIN app_roles r ON r.id = l.role_id WHERE l.app_id = ? ORDER BY l.id`,
  ).all(app.id) as {
    token: string;
    username: string;
    role_id: number;
    expire_date: string | null;
    ctime: string;
    is_protected: number;
    role_name: string | null;
    permission: string | null;
  }[];
  return rows.map((l) => ({
    username: l.username,
    token: l.token,
    link: `${root}/dtable/app-share-links/${l.token}/`,
    app_name: app.app_name,
    app_id: app.id,
    expire_date: l.expire_date,
    ctime: l.ctime,
    is_protected: l.is_protected === 1,
    role_name: l.role_name ?? '',
    role_permission: l.permission ?? '',
    role_id: l.role_id,
  }));
}

/**
 * The reference server's data: users, teams, workspaces, bases and credentials in SQLite,
 * with the hot lookups (tokens, base structure) cached in memory.
 */
import { randomBytes, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Statement } from './sqlite.js';
import { BaseFiles, readMeta, writeMeta } from './base-db.js';
import { openDb, type Db } from './db.js';
import { isoNow, type Base, type BaseMeta } from './model.js';

export interface User {
  id: string;
  email: string;
  name: string;
  contact_email: string | null;
  is_staff: number;
  is_active: number;
  org_id: number | null;
  is_org_admin: number;
  id_in_org: string | null;
  quota_total: number | null;
  monthly_automation_limit_per_user: number | null;
  ctime: string;
  last_login: string | null;
  role: string | null;
  row_limit: number | null;
  asset_quota_mb: number | null;
}
export interface ApiToken {
  token: string;
  base_uuid: string;
  app_name: string;
  permission: 'r' | 'rw';
  generated_by: string | null;
  generated_at: string;
  last_access: string | null;
}
export interface BaseToken {
  token: string;
  base_uuid: string;
  permission: 'r' | 'rw';
  app_name: string | null;
  username: string | null;
  expires_at: number;
}

export const newToken = () => randomBytes(20).toString('hex');
const newUserId = () => `${randomBytes(16).toString('hex')}@auth.local`;

/**
 * scrypt's cost N. The reference server is a test double on loopback, started and seeded
 * dozens of times per test run: 2^10 (≈ 1 ms a hash) instead of Node's default 2^14
 * (≈ 30 ms). A hash names its cost, so a data file written with the default still verifies.
 */
const SCRYPT_COST = 1024;
const DEFAULT_COST = 16384;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt-${SCRYPT_COST}$${salt.toString('hex')}$${scryptSync(password, salt, 32, { N: SCRYPT_COST }).toString('hex')}`;
}

function checkPassword(password: string, hash: string): boolean {
  const [kind, salt, digest] = hash.split('$');
  const cost = kind === 'scrypt' ? DEFAULT_COST : Number(/^scrypt-(\d+)$/.exec(kind ?? '')?.[1]);
  if (!salt || !digest || !Number.isInteger(cost)) return false;
  const got = scryptSync(password, Buffer.from(salt, 'hex'), 32, { N: cost });
  return timingSafeEqual(got, Buffer.from(digest, 'hex'));
}

export class Store {
  readonly db: Db;
  private readonly baseFiles: BaseFiles;
  private readonly bases = new Map<string, Base>();
  private readonly accountTokens = new Map<string, string>();
  private readonly baseTokens = new Map<string, BaseToken>();

  /** `now` is the server's clock, so token expiry follows a test's fake clock too. */
  constructor(
    file?: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = openDb(file);
    this.baseFiles = new BaseFiles(file);
    for (const r of this.db.prepare('SELECT uuid, workspace_id, name FROM bases').all() as {
      uuid: string;
      workspace_id: number;
      name: string;
    }[]) {
      const db = this.baseFiles.open(r.uuid);
      const meta = readMeta(db);
      if (!meta) throw new Error(`the database of base ${r.uuid} holds no structure (${file ?? 'in memory'})`);
      this.bases.set(r.uuid, { uuid: r.uuid, workspaceId: r.workspace_id, name: r.name, meta, version: 1, db });
    }
    for (const r of this.db.prepare('SELECT token, user_id FROM account_tokens').all() as {
      token: string;
      user_id: string;
    }[])
      this.accountTokens.set(r.token, r.user_id);
    for (const r of this.db.prepare('SELECT * FROM base_tokens WHERE expires_at > ?').all(this.now()) as BaseToken[])
      this.baseTokens.set(r.token, r);
  }

  close(): void {
    for (const b of this.bases.values()) b.db.close();
    this.db.close();
  }

  setting(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)
      ?.value;
  }
  setSetting(key: string, value: string): void {
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  }

  // Users and account tokens
  private userByIdStmt: Statement | undefined;
  /** On every account-token call: compiled once (SQLite compiles on each prepare). */
  userById(id: string): User | undefined {
    this.userByIdStmt ??= this.db.prepare('SELECT * FROM users WHERE id = ?');
    return this.userByIdStmt.get(id) as User | undefined;
  }
  userByEmail(email: string): User | undefined {
    return this.db.prepare('SELECT * FROM users WHERE email = ? OR id = ?').get(email, email) as User | undefined;
  }
  userByAccountToken(token: string): User | undefined {
    const id = this.accountTokens.get(token);
    return id ? this.userById(id) : undefined;
  }
  login(email: string, password: string): User | undefined {
    const row = this.db.prepare('SELECT * FROM users WHERE email = ?').get(email) as
      (User & { password_hash: string }) | undefined;
    if (!row || !row.is_active || !checkPassword(password, row.password_hash)) return undefined;
    this.db.prepare('UPDATE users SET last_login = ? WHERE id = ?').run(new Date().toISOString(), row.id);
    return row;
  }
  /** The user's account token (one per user, as the real service keeps it). */
  accountToken(userId: string): string {
    for (const [t, u] of this.accountTokens) if (u === userId) return t;
    const token = newToken();
    this.db.prepare('INSERT INTO account_tokens (token, user_id) VALUES (?, ?)').run(token, userId);
    this.accountTokens.set(token, userId);
    return token;
  }
  createUser(u: {
    email: string;
    name: string;
    password: string;
    orgId: number | null;
    isStaff?: boolean;
    isOrgAdmin?: boolean;
  }): User {
    const id = newUserId();
    this.db
      .prepare(
        'INSERT INTO users (id, email, name, contact_email, password_hash, is_staff, org_id, is_org_admin, ctime) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        id,
        u.email,
        u.name,
        u.email,
        hashPassword(u.password),
        u.isStaff ? 1 : 0,
        u.orgId,
        u.isOrgAdmin ? 1 : 0,
        new Date().toISOString(),
      );
    return this.userById(id)!;
  }

  // Bases
  base(uuid: string): Base | undefined {
    return this.bases.get(uuid);
  }
  baseByName(workspaceId: number, name: string): Base | undefined {
    for (const b of this.bases.values()) if (b.workspaceId === workspaceId && b.name === name) return b;
    return undefined;
  }
  allBases(): Base[] {
    return [...this.bases.values()];
  }
  /** Drop a deleted base (its entry in SQLite already gone): its database closed and removed, its base tokens forgotten. */
  forgetBase(uuid: string): void {
    const base = this.bases.get(uuid);
    if (base) this.baseFiles.remove(uuid, base.db);
    this.bases.delete(uuid);
    for (const [token, t] of this.baseTokens) if (t.base_uuid === uuid) this.baseTokens.delete(token);
  }
  /** A new base, empty or (`copyOf`) starting as a copy of another base's database: rows, links and structure. */
  createBase(workspaceId: number, name: string, creator: string, copyOf?: Base): Base {
    const uuid = randomUUID();
    const meta: BaseMeta = copyOf
      ? (structuredClone(copyOf.meta) as BaseMeta)
      : { tables: [], nextPhys: 1, format_version: 9 };
    const now = isoNow();
    this.db
      .prepare(
        'INSERT INTO bases (uuid, workspace_id, name, creator, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(uuid, workspaceId, name, creator, now, now);
    const db = this.baseFiles.open(uuid, copyOf?.db);
    const base: Base = { uuid, workspaceId, name, meta, version: 1, db };
    this.bases.set(uuid, base);
    try {
      writeMeta(db, meta);
    } catch (e) {
      this.forgetBase(uuid);
      throw e;
    }
    return base;
  }

  // API tokens and base tokens
  /** An API token of a base, or a temporary one (Create API-Token (temporary)) while it lasts. */
  apiToken(token: string): ApiToken | undefined {
    return (
      (this.db.prepare('SELECT * FROM api_tokens WHERE token = ?').get(token) as ApiToken | undefined) ??
      this.tempApiToken(token)
    );
  }
  /** A temporary API token acts for its user: read-write, named after the user. */
  private tempApiToken(token: string): ApiToken | undefined {
    const t = this.db
      .prepare('SELECT * FROM temp_api_tokens WHERE token = ? AND expires_at > ?')
      .get(token, this.now()) as { base_uuid: string; user_id: string; created_at: string } | undefined;
    return (
      t && {
        token,
        base_uuid: t.base_uuid,
        app_name: t.user_id,
        permission: 'rw',
        generated_by: t.user_id,
        generated_at: t.created_at,
        last_access: null,
      }
    );
  }
  issueTempApiToken(baseUuid: string, userId: string, seconds: number): string {
    const token = newToken();
    this.db.prepare('DELETE FROM temp_api_tokens WHERE expires_at <= ?').run(this.now());
    this.db
      .prepare('INSERT INTO temp_api_tokens (token, base_uuid, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(token, baseUuid, userId, isoNow(this.now()), this.now() + seconds * 1000);
    return token;
  }
  createApiToken(baseUuid: string, appName: string, permission: 'r' | 'rw', by: string | null): ApiToken {
    const token = newToken();
    this.db
      .prepare(
        'INSERT INTO api_tokens (token, base_uuid, app_name, permission, generated_by, generated_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(token, baseUuid, appName, permission, by, isoNow());
    return this.apiToken(token)!;
  }
  issueBaseToken(
    baseUuid: string,
    seconds: number,
    permission: 'r' | 'rw',
    appName: string | null,
    username: string | null,
  ): BaseToken {
    const t: BaseToken = {
      token: randomBytes(32).toString('base64url'),
      base_uuid: baseUuid,
      permission,
      app_name: appName,
      username,
      expires_at: this.now() + seconds * 1000,
    };
    this.db
      .prepare(
        'INSERT INTO base_tokens (token, base_uuid, permission, app_name, username, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(t.token, t.base_uuid, t.permission, t.app_name, t.username, t.expires_at);
    this.baseTokens.set(t.token, t);
    return t;
  }
  baseToken(token: string): BaseToken | undefined {
    return this.baseTokens.get(token);
  }
}

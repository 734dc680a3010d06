/**
 * The seeded world of a fresh reference server: two teams, an admin who is system and
 * team admin, a member, a second team's admin (for isolation checks), one workspace with
 * two bases and their API tokens. Credentials are random per database and kept in it, so
 * a server restarted on the same `--data` file prints the same descriptor.
 */
import { randomBytes } from 'node:crypto';
import { newToken, type Store } from './store.js';

export interface SeedCredentials {
  admin: { email: string; password: string; token: string; id: string };
  member: { email: string; password: string; token: string; id: string };
  otherAdmin: { email: string; password: string; token: string; id: string };
  orgId: number;
  otherOrgId: number;
  workspaceId: number;
  bases: { name: string; uuid: string; api_token: string; external_link: string }[];
}

const password = () => randomBytes(12).toString('base64url');
// Four or more let the rate family run beside the others in bases of its own (src/runner/rate-alongside.ts).
const BASE_NAMES = ['Conformance A', 'Conformance B', 'Conformance C', 'Conformance D', 'Conformance E'] as const;

export function seed(store: Store): SeedCredentials {
  const saved = store.setting('seed');
  if (saved) return JSON.parse(saved) as SeedCredentials;
  const db = store.db;
  let creds!: SeedCredentials;
  db.transaction(() => {
    const now = new Date().toISOString();
    db.prepare(
      "INSERT INTO orgs (id, name, role, max_user_number, row_limit, ctime, url_prefix) VALUES (1, 'Conformance Team', 'org_enterprise', 100, 1000000, ?, 'conformance')",
    ).run(now);
    db.prepare(
      "INSERT INTO orgs (id, name, role, max_user_number, row_limit, ctime, url_prefix) VALUES (2, 'Other Team', 'org_default', 10, 10000, ?, 'other')",
    ).run(now);
    const mk = (email: string, name: string, orgId: number, isStaff: boolean, isOrgAdmin: boolean) => {
      const pw = password();
      const u = store.createUser({ email, name, password: pw, orgId, isStaff, isOrgAdmin });
      return { email, password: pw, token: store.accountToken(u.id), id: u.id };
    };
    const admin = mk('admin@example.com', 'Conformance Admin', 1, true, true);
    const member = mk('member@example.com', 'Conformance Member', 1, false, false);
    const otherAdmin = mk('other-admin@example.com', 'Other Admin', 2, false, true);
    db.prepare(
      "INSERT INTO groups_ (id, name, org_id, owner) VALUES (1, 'Conformance Group', 1, ?), (2, 'Reviewers', 1, ?), (3, 'Other Group', 2, ?)",
    ).run(admin.id, admin.id, otherAdmin.id);
    db.prepare('INSERT INTO group_members (group_id, user_id) VALUES (1, ?), (1, ?)').run(admin.id, member.id);
    db.prepare(
      "INSERT INTO workspaces (id, org_id, owner, group_id, name) VALUES (1, 1, ?, 1, 'Conformance Group'), (2, 2, ?, 3, 'Other Group')",
    ).run(admin.id, otherAdmin.id);
    const bases = BASE_NAMES.map((name) => {
      const base = store.createBase(1, name, admin.id);
      const api = store.createApiToken(base.uuid, 'conformance', 'rw', admin.id);
      const external = newToken().slice(0, 20);
      db.prepare('INSERT INTO external_links (token, base_uuid) VALUES (?, ?)').run(external, base.uuid);
      return { name, uuid: base.uuid, api_token: api.token, external_link: external };
    });
    store.createBase(2, 'Other Team Base', otherAdmin.id);
    creds = { admin, member, otherAdmin, orgId: 1, otherOrgId: 2, workspaceId: 1, bases };
    for (const hook of seedHooks) hook(store, creds);
    store.setSetting('seed', JSON.stringify(creds));
  })();
  return creds;
}

/** Further seeding by other families (apps, logs, webhooks); run once inside the seed transaction. */
export const seedHooks: ((store: Store, creds: SeedCredentials) => void)[] = [];

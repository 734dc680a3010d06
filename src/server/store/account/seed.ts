/**
 * The account family's part of the seeded world (a seed hook, run once inside the seed
 * transaction): a universal app with an invite link per base, an asset file per base,
 * operation and login logs spread over three months and groups, and plugin counts.
 */
import { seedHooks, type SeedCredentials } from '../seed.js';
import type { Store } from '../store.js';
import { createApp, createInviteLink, rolesOf } from './apps.js';
import { putAsset } from './assets.js';
import { recordLogin, recordOperation, type OperationGroup } from './logs.js';
import { ensureAccountSchema } from './schema.js';
import { prep } from './prepared.js';

/** A 1×1 transparent PNG: a real image, so a client can check what it downloads. */
export const SEED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const SEED_ASSET_PATH = 'images/2024-01/seed.png';

const at = (iso: string) => Date.parse(iso);

function seedAccount(store: Store, creds: SeedCredentials): void {
  const db = store.db;
  ensureAccountSchema(db);
  const now = Date.now();
  for (const b of creds.bases) {
    const app = createApp(db, { baseUuid: b.uuid, name: `${b.name} App`, creator: creds.admin.id, at: now });
    createInviteLink(db, app, creds.admin.id, rolesOf(db, app.id)[0]!.id, now);
    putAsset(db, b.uuid, SEED_ASSET_PATH, SEED_PNG, now);
  }
  const admin = { id: creds.admin.id, name: 'Conformance Admin' };
  const ops: [string, OperationGroup, string, Record<string, unknown>][] = [
    ['2025-01-10T09:00:00Z', 'user', 'user_add', { email: creds.member.id }],
    ['2025-01-20T09:00:00Z', 'group', 'group_create', { group_name: 'Reviewers' }],
    ['2025-02-15T12:00:00Z', 'base', 'base_create', { base_name: creds.bases[0]!.name }],
    ['2025-02-16T12:00:00Z', 'group', 'group_member_add', { group_name: 'Conformance Group', email: creds.member.id }],
    ['2025-03-20T18:30:00Z', 'user', 'user_update', { email: creds.member.id }],
    ['2025-03-21T18:30:00Z', 'base', 'base_transfer', { base_name: creds.bases[1]!.name }],
  ];
  for (const [when, group, operation, detail] of ops)
    recordOperation(db, { orgId: creds.orgId, actor: admin, operation, group, detail, at: at(when) });
  recordOperation(db, {
    orgId: creds.otherOrgId,
    actor: { id: creds.otherAdmin.id, name: 'Other Admin' },
    operation: 'user_add',
    group: 'user',
    detail: {},
    at: at('2025-02-01T00:00:00Z'),
  });
  const logins: [string, string, boolean][] = [
    ['2025-01-11T08:00:00Z', creds.admin.id, true],
    ['2025-02-12T08:00:00Z', creds.member.id, false],
    ['2025-02-12T08:01:00Z', creds.member.id, true],
    ['2025-03-13T08:00:00Z', creds.admin.id, false],
  ];
  for (const [when, id, ok] of logins) recordLogin(db, { id, org_id: creds.orgId }, '192.0.2.10', ok, at(when));
  recordLogin(
    db,
    { id: creds.otherAdmin.id, org_id: creds.otherOrgId },
    '192.0.2.20',
    true,
    at('2025-02-02T00:00:00Z'),
  );
  const plugin = prep(db, 'INSERT INTO plugins (plugin_name, count, created_at, updated_at) VALUES (?, ?, ?, ?)');
  for (const [name, count] of [
    ['gallery', 12],
    ['kanban', 7],
    ['timeline', 3],
  ] as const)
    plugin.run(name, count, '2024-05-01T00:00:00+00:00', '2025-03-01T00:00:00+00:00');
}

seedHooks.push(seedAccount);

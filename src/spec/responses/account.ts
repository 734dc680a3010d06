/**
 * 200/201 answers of the account operations in the table (user_, team_admin_ and
 * system_admin_account_operations.yaml). Disagreements, accepted both ways:
 * - items search: `results` (4.4+ OpenAPI) or `result` (4.3);
 * - external app status: the OpenAPI example spells the key `app_config:` (sic), so
 *   `app_config` is optional;
 * - List Workspaces: `id` is `""` for the starred and shared pseudo-workspaces;
 * - Get Team Info: `scripts_running_limit` from 6.2, `scripts_running_total` before (ACCT-1
 *   checks which); the API-call, automation and AI fields only where the team has them.
 * The two base exports answer a zip file, not JSON (NOT_JSON in index.ts).
 */
import { z } from 'zod';
import { anyId, baseEntry, success, time, user } from './common.js';

const found = baseEntry.extend({ group_name: z.string(), type: z.string(), starred: z.boolean() });
const appUser = z.looseObject({
  id: anyId, email: user, created_at: time, is_active: z.boolean(), name: z.string(), app_name: z.string(),
  role_id: anyId, role_name: z.string(), role_permission: z.string(), avatar_url: z.string(),
});
const webhook = z.looseObject({ id: anyId, dtable_uuid: z.string(), url: z.string(), creator: user, created_at: time, settings: z.record(z.string(), z.unknown()) });
const workspace = z.looseObject({
  id: anyId, name: z.string(), type: z.string(),
  // With detail=true (the default): the bases of each workspace, by kind.
  table_list: z.array(baseEntry).optional(),
  shared_table_list: z.array(baseEntry).optional(),
  group_id: z.number().int().optional(),
});
const teamUser = { email: user, name: z.string(), contact_email: z.string() };

export const ACCOUNT_RESPONSES = {
  itemsSearch: z.union([z.looseObject({ results: z.array(found) }), z.looseObject({ result: z.array(found) })]),
  externalAppStatus: z.looseObject({
    external_app: z.looseObject({
      id: anyId, token: z.string(), dtable_uuid: z.string(), app_type: z.string(), app_config: z.unknown().optional(), created_at: time,
      external_app_url: z.string(), visit_times: z.number().int(), creator: z.string(), can_anonymous_access: z.boolean(), inactive: z.boolean(),
    }),
  }),
  convertBigDataViewToExcel: z.looseObject({ task_id: anyId }),
  appendExcelCsvToTable: success,
  listUniversalApps: z.looseObject({
    my_managed_apps: z.array(z.looseObject({
      // null where the manager is not also a user of the app.
      app_user_id: anyId.nullable(), app_id: anyId, app_name: z.string(), app_token: z.string(), app_config: z.unknown(), role_name: z.string(), permission: z.string(),
      dtable_uuid: z.string(), dtable_name: z.string(), workspace_id: z.number().int(), link: z.string(), edit_link: z.string(), joined_at: time,
    })),
    can_use_apps: z.array(z.unknown()),
  }),
  addAppUsers: z.looseObject({ success: z.array(appUser) }),
  listAppUsers: z.looseObject({ app_users: z.array(appUser), total_count: z.number().int() }),
  listAppInviteLinks: z.looseObject({
    app_share_links: z.array(z.looseObject({
      username: user, token: z.string(), link: z.string(), app_name: z.string(), app_id: anyId, expire_date: z.string().nullable() /* a link that never expires */, ctime: time,
      is_protected: z.boolean(), role_name: z.string(), role_permission: z.string(), role_id: anyId,
    })),
  }),
  listWebhooks: z.looseObject({ webhook_list: z.array(webhook) }),
  createWebhook: z.looseObject({ webhook }),
  updateWebhook: z.looseObject({ webhook }),
  deleteWebhook: success,
  listWorkspaces: z.looseObject({ workspace_list: z.array(workspace) }),
  // The Python client reads `table` (create) and `dtable` (copy).
  createBase: z.looseObject({ table: baseEntry }),
  copyBaseFromWorkspace: z.looseObject({ dtable: baseEntry }),
  deleteBase: success,
  // Administration named by §4.2 / §4.3
  searchUserByOrgId: z.looseObject({ users: z.array(z.looseObject({ ...teamUser, avatar_url: z.string() })) }),
  pluginsInstallCount: z.looseObject({
    plugins_install_count_list: z.array(z.looseObject({ id: anyId, plugin_name: z.string(), count: z.number().int(), updated_at: time, created_at: time })),
    count: z.number().int(),
  }),
  listTeamOperations: z.looseObject({ logs: z.array(z.looseObject({ email: user, name: z.string(), operation: z.string(), detail: z.unknown(), datetime: time })), total_count: z.number().int() }),
  setTeamLogo: z.looseObject({ logo_path: z.string() }),
  // null while the team has no logo.
  getTeamLogo: z.looseObject({ logo_path: z.string().nullable() }),
  deleteTeamLogo: success,
  getTeamInfo: z.looseObject({
    org_id: z.number().int(), org_name: z.string(), role: z.string(),
    storage_quota: z.number().int(), storage_usage: z.number().int(), member_quota: z.number().int(), member_usage: z.number().int(), active_members: z.number().int(),
    row_usage: z.number().int(), row_total: z.number().int(),
    big_data_row_limit: z.number().int(), big_data_total_rows: z.number().int(), big_data_total_storage: z.number().int(), big_data_storage_quota: z.number().int().optional(),
    scripts_running_count: z.number().int(), scripts_running_limit: z.number().int().optional(), scripts_running_total: z.number().int().optional(),
    api_calls_count: z.number().int().optional(), api_calls_limit: z.number().int().optional(),
    automation_count: z.number().int().optional(), automation_limit: z.number().int().optional(),
    ai_cost: z.number().optional(), ai_credit: z.number().optional(),
  }),
  updateTeamInfo: success,
  updateTeam: z.looseObject({
    org_id: z.number().int(), org_name: z.string(), ctime: time, org_url_prefix: z.string(), role: z.string(),
    creator_email: user, creator_name: z.string(), creator_contact_email: z.string(),
    quota: z.number().int(), storage_usage: z.number().int(), storage_quota: z.number().int(), max_user_number: z.number().int(),
    rows_count: z.number().int(), row_limit: z.number().int(),
    monthly_automation_limit_per_user: z.number().int().optional(),
  }),
  // `is_active` and `is_org_admin` came with 6.1 (ACCT-3 checks them); the two-factor fields
  // where two-factor authentication is enabled.
  getTeamUser: z.looseObject({
    ...teamUser, quota_usage: z.number().int(), quota_total: z.number().int(), avatar_url: z.string(), id_in_org: z.string(),
    has_default_device: z.boolean().optional(), is_force_2fa: z.boolean().optional(), is_active: z.boolean().optional(), is_org_admin: z.boolean().optional(),
  }),
  updateTeamUser: z.looseObject({
    ...teamUser, quota_usage: z.number().int(), quota_total: z.number().int(), is_active: z.boolean(), id: anyId, ctime: time, id_in_org: z.string(),
    last_login: time.nullable(), self_usage: z.number().int(), quota: z.number().int(),
  }),
  addTeamUser: z.looseObject({
    ...teamUser, id: anyId, is_active: z.boolean(), ctime: time, last_login: time.nullable(), self_usage: z.number().int(), quota: z.number().int(),
    // Only when the user was created with a workspace.
    workspace_id: z.number().int().optional(),
  }),
  updateUser: z.looseObject({
    ...teamUser, login_id: z.string(), id_in_org: z.string(), is_staff: z.boolean(), is_active: z.boolean(), create_time: time, role: z.string(),
    unit: z.string(), phone: z.string(), update_status_tip: z.string(),
    // Team fields for a member of a team; the automation limit from 6.1.
    org_id: z.number().int().optional(), org_name: z.string().optional(), monthly_automation_limit_per_user: z.number().int().optional(),
  }),
  listTeamLogins: z.looseObject({
    login_list: z.array(z.looseObject({ login_time: time, login_ip: z.string(), login_success: z.boolean(), ...teamUser })),
    total_count: z.number().int(),
  }),
} satisfies Record<string, z.ZodType>;

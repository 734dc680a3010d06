/**
 * System-admin and team-admin operations that §4.2 and §4.3 name (system_admin_ and
 * team_admin_account_operations.yaml). The other admin operations are out of scope
 * (out-of-scope.ts): a base client never calls them.
 */
import { BASE_UUID, family, oa, ORG_ID, p, type Endpoint } from './types.js';

const USER_ID = p.path('user_id', 'string', '<32 hex>@auth.local, not the e-mail');
const LOG_FILTERS = [p.query('page', 'integer'), p.query('per_page', 'integer'), p.query('start', 'string', false, 'ISO date'), p.query('end', 'string', false, 'ISO date')];

export const ADMIN: readonly Endpoint[] = [
  ...family('account', 'account', 'spec', [
    {
      id: 'exportBase', method: 'GET', path: '/api/v2.1/admin/dtables/{base_uuid}/synchronous-export/export-dtable/', credential: 'admin', since: '4.2', clauses: ['ROUTE-1', 'ACCT-7'], operation: 'Export Base',
      params: [BASE_UUID, p.query('ignore_asset', 'boolean')], openapi: oa('admin', 'exportBase'),
    },
    {
      // §4.2 and the 4.1 changelog only: no 6.2 OpenAPI file documents it, nor its body.
      id: 'addUserToGroups', method: 'POST', path: '/api/v2.1/admin/users/{username}/groups/', credential: 'admin', since: '4.1', clauses: ['ROUTE-2'], operation: 'Add User to Groups',
    },
    {
      id: 'searchUserByOrgId', method: 'GET', path: '/api/v2.1/admin/search-user-by-org-id/', credential: 'admin', clauses: ['ROUTE-2'], operation: 'Search User by Team',
      params: [p.query('query', 'string'), p.query('org_id', 'integer'), p.query('limit', 'integer')], openapi: oa('admin', 'searchUserByOrgId'),
    },
    { id: 'pluginsInstallCount', method: 'GET', path: '/api/v2.1/admin/plugins-install-count/', credential: 'admin', clauses: ['ROUTE-2'], operation: 'List Plugin Installations', params: [], openapi: oa('admin', 'listPluginsInstallCount') },
    {
      id: 'listTeamOperations', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/admin-logs/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-4'], operation: 'List Team Operations',
      params: [ORG_ID, p.query('operation_group', 'string', false, 'user, group or base'), ...LOG_FILTERS], openapi: oa('team', 'listTeamOperationLog'),
    },
    { id: 'setTeamLogo', method: 'POST', path: '/api/v2.1/org/{org_id}/admin/org-logo/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-5'], operation: 'Update Team Logo', params: [ORG_ID, p.multipart('file', 'file')], openapi: oa('team', 'updateTeamLogo') },
    { id: 'getTeamLogo', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/org-logo/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-5'], operation: 'Get Team Logo', params: [ORG_ID], openapi: oa('team', 'getTeamLogo') },
    { id: 'deleteTeamLogo', method: 'DELETE', path: '/api/v2.1/org/{org_id}/admin/org-logo/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-5'], operation: 'Delete Team Logo', params: [ORG_ID], openapi: oa('team', 'deleteTeamLogo') },
  ]),
  // Operations the specification names without a path: paths from api-shapes §7.
  ...family('account', 'account', 'compat', [
    { id: 'getTeamInfo', method: 'GET', path: '/api/v2.1/org/admin/info/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-1', 'RATE-8'], operation: 'Get Team Info', params: [], openapi: oa('team', 'getTeamInfo') },
    { id: 'updateTeamInfo', method: 'PUT', path: '/api/v2.1/org/admin/info/', credential: 'team-admin', clauses: [], operation: 'Update Team (team admin)', params: [p.multipart('new_org_name', 'string')], openapi: oa('team', 'updateTeam') },
    {
      id: 'updateTeam', method: 'PUT', path: '/api/v2.1/admin/organizations/{org_id}/', credential: 'admin', clauses: ['ROUTE-2', 'ACCT-2', 'RATE-8'], operation: 'Update Team',
      params: [
        ORG_ID, p.json('org_name', 'string'), p.json('role', 'string', false, 'org_default, org_plus or org_enterprise'), p.json('row_limit', 'integer'), p.json('max_user_number', 'integer', false, 'a string of digits in the OpenAPI form'),
        p.json('asset_quota_mb', 'integer', false, 'a string of digits in the OpenAPI form'), p.json('monthly_automation_limit_per_user', 'integer', false, '6.1+'),
      ],
      openapi: oa('admin', 'updateTeam'),
    },
    { id: 'getTeamUser', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/users/{user_id}/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-3'], operation: 'Get User (Team Admin)', params: [ORG_ID, USER_ID], openapi: oa('team', 'getUser') },
    {
      id: 'updateTeamUser', method: 'PUT', path: '/api/v2.1/org/{org_id}/admin/users/{user_id}/', credential: 'team-admin', clauses: [], operation: 'Update User (Team Admin)',
      params: [
        ORG_ID, USER_ID, p.multipart('name', 'string'), p.multipart('contact_email', 'string'), p.multipart('is_staff', 'boolean'), p.multipart('is_active', 'boolean'),
        p.multipart('quota_total', 'integer', false, 'MB'), p.multipart('id_in_org', 'string'),
      ],
      openapi: oa('team', 'updateUser'),
    },
    {
      id: 'addTeamUser', method: 'POST', path: '/api/v2.1/org/{org_id}/admin/users/', credential: 'team-admin', clauses: ['RATE-8'], operation: 'Add User (Team Admin)',
      params: [ORG_ID, p.multipart('email', 'string'), p.multipart('name', 'string'), p.multipart('password', 'string'), p.multipart('with_workspace', 'boolean')], openapi: oa('team', 'addUser'),
    },
    {
      id: 'updateUser', method: 'PUT', path: '/api/v2.1/admin/users/{user_id}/', credential: 'admin', clauses: ['ROUTE-2', 'ACCT-2'], operation: 'Update User',
      params: [
        USER_ID, p.json('is_staff', 'boolean'), p.json('is_active', 'boolean'), p.json('role', 'string'), p.json('name', 'string'), p.json('login_id', 'string'), p.json('contact_email', 'string'),
        p.json('id_in_org', 'string'), p.json('unit', 'string'), p.json('password', 'string'), p.json('institution', 'string'), p.json('row_limit', 'integer'), p.json('quota_total', 'integer', false, 'a string of digits in the OpenAPI form'),
        p.json('asset_quota_mb', 'integer', false, 'a string of digits in the OpenAPI form'), p.json('monthly_automation_limit_per_user', 'integer', false, '6.1+'),
      ],
      openapi: oa('admin', 'updateUser'),
    },
    {
      // §4.3 calls the filter `login_status`; the OpenAPI's query parameter is `status`.
      id: 'listTeamLogins', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/login-logs/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-4'], operation: 'List Team Logins',
      params: [ORG_ID, p.query('status', 'string', false, 'success or failure (the spec: login_status)'), ...LOG_FILTERS], openapi: oa('team', 'listTeamLogins'),
    },
  ]),
];

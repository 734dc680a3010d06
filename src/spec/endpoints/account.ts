/**
 * A user's account operations under /api/v2.1/ (§4.2, api-shapes §6, §7;
 * user_account_operations.yaml): the ones §4.2 names, webhooks (§6), and what the official
 * clients call to find, create, copy and delete bases (the Python client's Account class:
 * list_workspaces, add_base, copy_base; get_base goes through Create API-Token (temporary)).
 */
import { family, oa, p, WS, WS_BASE, type Endpoint } from './types.js';

const WS_ID = p.path('workspace_id', 'integer');
const APP = p.path('app_token');
const HOOK = [p.multipart('url', 'string'), p.multipart('secret', 'string', false, 'the OpenAPI says integer; any string in practice, as the Python client sends it')];

export const ACCOUNT: readonly Endpoint[] = [
  ...family('account', 'account', 'spec', [
    {
      id: 'itemsSearch', method: 'GET', path: '/api/v2.1/dtable/items-search/', credential: 'account', since: '4.2', clauses: ['ROUTE-2'], operation: 'Search Bases and Apps',
      params: [p.query('query_str', 'string'), p.query('query_type', 'string', false, 'empty, base or app')], openapi: oa('user', 'searchBaseOrApps'),
    },
    {
      id: 'externalAppStatus', method: 'PUT', path: '/api/v2.1/external-apps/{app_token}/status/', credential: 'account', since: '4.2', clauses: ['ROUTE-2', 'ACCT-6'], operation: 'Update App Status',
      params: [APP, p.json('is_inactive', 'boolean', true)], openapi: oa('user', 'changeAppStatus'),
    },
    {
      id: 'convertBigDataViewToExcel', method: 'GET', path: `${WS}/convert-big-data-view-to-excel/`, credential: 'account', clauses: ['ROUTE-2'], operation: 'Convert Big Data View to Excel',
      params: [...WS_BASE, p.query('table_id', 'string', true), p.query('view_id', 'string', true)], openapi: oa('user', 'exportBigDataView'),
    },
    {
      id: 'appendExcelCsvToTable', method: 'POST', path: '/api/v2.1/workspace/{workspace_id}/synchronous-import/append-excel-csv-to-table/', credential: 'account', clauses: ['ROUTE-2'], operation: 'Append Excel/CSV to Table',
      params: [WS_ID, p.multipart('file', 'file'), p.multipart('dtable_uuid', 'string'), p.multipart('table_name', 'string')], openapi: oa('user', 'appendToTableFromFile'),
    },
    { id: 'listUniversalApps', method: 'GET', path: '/api/v2.1/universal-apps/', credential: 'account', clauses: ['ROUTE-2'], operation: 'List Universal Apps', params: [], openapi: oa('user', 'listApps') },
    {
      id: 'addAppUsers', method: 'POST', path: '/api/v2.1/universal-apps/{app_token}/app-users/batch/', credential: 'account', clauses: ['ROUTE-2'], operation: 'Add App Users',
      params: [APP, p.json('users_info', 'array', false, '[{email, role_id}]')], openapi: oa('user', 'importUsersToApp'),
    },
    { id: 'listAppUsers', method: 'GET', path: '/api/v2.1/universal-apps/{app_token}/app-users/', credential: 'account', clauses: ['ROUTE-2'], operation: 'List App Users', params: [APP], openapi: oa('user', 'listUniversalAppUsers') },
    { id: 'listAppInviteLinks', method: 'GET', path: '/api/v2.1/universal-apps/{app_token}/invite-links/', credential: 'account', clauses: ['ROUTE-2'], operation: 'List App Invite Links', params: [APP], openapi: oa('user', 'listAppInviteLinks') },
  ]),
  ...family('account', 'account', 'compat', [
    {
      id: 'exportBaseUser', method: 'GET', path: '/api/v2.1/workspace/{workspace_id}/synchronous-export/export-dtable/', credential: 'account', clauses: ['ACCT-7'], operation: 'Export Base (user)',
      params: [WS_ID, p.query('dtable_name', 'string', true), p.query('password', 'string'), p.query('ignore_asset', 'boolean')], openapi: oa('user', 'exportBase'),
    },
    { id: 'listWebhooks', method: 'GET', path: `${WS}/webhooks/`, credential: 'account', clauses: ['HOOK-1'], operation: 'List Webhooks', params: [...WS_BASE], openapi: oa('user', 'listWebhooks') },
    { id: 'createWebhook', method: 'POST', path: `${WS}/webhooks/`, credential: 'account', clauses: ['HOOK-1'], operation: 'Create Webhook', params: [...WS_BASE, ...HOOK], openapi: oa('user', 'createWebhook') },
    {
      id: 'updateWebhook', method: 'PUT', path: `${WS}/webhooks/{webhook_id}/`, credential: 'account', clauses: ['HOOK-1'], operation: 'Update Webhook',
      params: [...WS_BASE, p.path('webhook_id', 'integer'), ...HOOK], openapi: oa('user', 'updateWebhook'),
    },
    {
      id: 'deleteWebhook', method: 'DELETE', path: `${WS}/webhooks/{webhook_id}/`, credential: 'account', clauses: ['HOOK-1'], operation: 'Delete Webhook',
      params: [...WS_BASE, p.path('webhook_id', 'integer')], openapi: oa('user', 'deleteWebhook'),
    },
    // Finding and managing bases, as the official clients do.
    {
      id: 'listWorkspaces', method: 'GET', path: '/api/v2.1/workspaces/', credential: 'account', clauses: ['ACCT-8'], operation: 'List Workspaces',
      params: [p.query('detail', 'boolean', false, 'true by default: with the bases of each workspace')], openapi: oa('user', 'listWorkspaces'),
    },
    {
      // The Python client sends form fields `name` and `owner` (the user, or
      // `<group_id>@seafile_group`); the OpenAPI documents `workspace_id` instead of `owner`.
      id: 'createBase', method: 'POST', path: '/api/v2.1/dtables/', credential: 'account', clauses: ['ACCT-8'], operation: 'Create Base',
      params: [p.multipart('name', 'string'), p.multipart('workspace_id', 'string'), p.multipart('icon', 'string'), p.multipart('color', 'string')],
      openapi: oa('user', 'createBase'),
    },
    {
      id: 'copyBaseFromWorkspace', method: 'POST', path: '/api/v2.1/dtable-copy/', credential: 'account', clauses: ['ACCT-8'], operation: 'Copy Base from Workspace',
      params: [p.multipart('src_workspace_id', 'integer', true), p.multipart('name', 'string', true), p.multipart('dst_workspace_id', 'integer', true), p.multipart('is_copy_dataset_syncs', 'boolean')],
      openapi: oa('user', 'copyBaseFromWorkspace'),
    },
    {
      // The base is named in the body of the DELETE, not in the path.
      id: 'deleteBase', method: 'DELETE', path: '/api/v2.1/workspace/{workspace_id}/dtable/', credential: 'account', clauses: ['ACCT-8'], operation: 'Delete Base',
      params: [WS_ID, p.multipart('name', 'string')], openapi: oa('user', 'deleteBase'),
    },
  ]),
];

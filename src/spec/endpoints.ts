/**
 * The endpoint table: every route the reference server registers and the suites probe.
 * `basis: 'spec'` rows are named by the specification itself; `compat` rows come from
 * api-shapes.md (the real service's paths for operations the specification names only).
 */
import type { ClauseId } from './clauses.js';
import type { RateClass } from './limits.js';
import { compareVersions } from './versions.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type EndpointFamily = 'public' | 'auth' | 'gateway' | 'base-v1' | 'account' | 'legacy';
/** What credential a call needs. `admin` = system admin; `team-admin` = admin of the team in the path. */
export type Credential = 'none' | 'account' | 'admin' | 'team-admin' | 'api-token' | 'base-token' | 'external-link';
export type Basis = 'spec' | 'compat';

export interface Endpoint {
  /** Stable name, also the handler's name in the reference server. */
  readonly id: string;
  readonly method: Method;
  /** Path template; `{param}` segments. Always with the trailing slash the real service uses. */
  readonly path: string;
  readonly family: EndpointFamily;
  readonly credential: Credential;
  /** Rate-limit class (§8.1), or `exempt` (§8.1.1). */
  readonly rate: RateClass | 'exempt';
  /** Release that introduced it (undefined = before the oldest release in §9). */
  readonly since?: string;
  /** Release that removed it. */
  readonly removed?: string;
  readonly clauses: readonly ClauseId[];
  readonly basis: Basis;
  /** The specification's or the real service's name for the operation. */
  readonly operation: string;
}

const GW = '/api-gateway/api/v2/dtables/{base_uuid}';
const WS = '/api/v2.1/workspace/{workspace_id}/dtable/{base_name}';

type Row = Omit<Endpoint, 'family' | 'rate' | 'basis'> & Partial<Pick<Endpoint, 'rate' | 'basis'>>;

const family = (fam: EndpointFamily, rate: Endpoint['rate'], basis: Basis, rows: Row[]): Endpoint[] =>
  rows.map((r) => ({ rate, basis, ...r, family: fam }));

export const ENDPOINTS: readonly Endpoint[] = [
  ...family('public', 'exempt', 'spec', [
    { id: 'ping', method: 'GET', path: '/ping/', credential: 'none', clauses: ['ROUTE-4', 'RATE-1'], operation: 'Ping' },
    { id: 'api2Ping', method: 'GET', path: '/api2/ping/', credential: 'none', clauses: ['ROUTE-4'], operation: 'Ping (api2)', basis: 'compat' },
    { id: 'serverInfo', method: 'GET', path: '/server-info/', credential: 'none', clauses: ['ROUTE-4', 'RATE-1'], operation: 'Get Server Info' },
  ]),
  ...family('auth', 'account', 'compat', [
    { id: 'authToken', method: 'POST', path: '/api2/auth-token/', credential: 'none', rate: 'auth-token', clauses: ['ROUTE-5', 'AUTH-1'], operation: 'Get Account-Token', basis: 'spec' },
    { id: 'appAccessToken', method: 'GET', path: '/api/v2.1/dtable/app-access-token/', credential: 'api-token', clauses: ['AUTH-3'], operation: 'Get Base-Token with API-Token' },
    { id: 'accountAccessToken', method: 'GET', path: `${WS}/access-token/`, credential: 'account', clauses: ['AUTH-3'], operation: 'Get Base-Token with Account-Token' },
    { id: 'externalLinkAccessToken', method: 'GET', path: '/api/v2.1/external-link-tokens/{external_link_token}/access-token/', credential: 'external-link', removed: '6.1', clauses: ['GONE-1', 'GONE-8'], operation: 'Get Base-Token with External-Link' },
    { id: 'listApiTokens', method: 'GET', path: `${WS}/api-tokens/`, credential: 'account', clauses: ['AUTH-3'], operation: 'List API-Tokens' },
    { id: 'createApiToken', method: 'POST', path: `${WS}/api-tokens/`, credential: 'account', clauses: ['AUTH-3'], operation: 'Create API-Token' },
    { id: 'deleteApiToken', method: 'DELETE', path: `${WS}/api-tokens/{app_name}/`, credential: 'account', clauses: ['AUTH-3'], operation: 'Delete API-Token' },
  ]),
  ...family('gateway', 'gateway', 'spec', [
    { id: 'listRows', method: 'GET', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-1', 'SHAPE-1'], operation: 'List Rows' },
    { id: 'appendRows', method: 'POST', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-2'], operation: 'Append Rows' },
    { id: 'updateRows', method: 'PUT', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-3', 'SHAPE-6'], operation: 'Update Rows' },
    { id: 'deleteRows', method: 'DELETE', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-4'], operation: 'Delete Rows' },
    { id: 'querySql', method: 'POST', path: `${GW}/sql/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-5', 'SIZE-6', 'SQL-1', 'SQL-2'], operation: 'Query Base with SQL' },
    { id: 'getRow', method: 'GET', path: `${GW}/rows/{row_id}/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-1', 'SHAPE-5'], operation: 'Get Row', basis: 'compat' },
    { id: 'getMetadata', method: 'GET', path: `${GW}/metadata/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-3'], operation: 'Get Metadata', basis: 'compat' },
    { id: 'createTable', method: 'POST', path: `${GW}/tables/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Create Table', basis: 'compat' },
    { id: 'deleteTable', method: 'DELETE', path: `${GW}/tables/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Delete Table', basis: 'compat' },
    { id: 'appendColumn', method: 'POST', path: `${GW}/columns/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Insert Column', basis: 'compat' },
    { id: 'createView', method: 'POST', path: `${GW}/views/`, credential: 'base-token', since: '4.4', clauses: ['ACCT-7'], operation: 'Create View', basis: 'compat' },
    { id: 'createLinks', method: 'POST', path: `${GW}/links/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-2'], operation: 'Create Row Links', basis: 'compat' },
    { id: 'updateLinks', method: 'PUT', path: `${GW}/links/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-2'], operation: 'Update Row Links', basis: 'compat' },
    { id: 'deleteLinks', method: 'DELETE', path: `${GW}/links/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-2'], operation: 'Delete Row Links', basis: 'compat' },
    { id: 'archiveViewGateway', method: 'POST', path: `${GW}/archive-view/`, credential: 'base-token', since: '4.4', clauses: ['ACCT-7'], operation: 'Move Rows to Big Data (gateway path)', basis: 'compat' },
  ]),
  ...family('base-v1', 'gateway', 'spec', [
    { id: 'archiveView', method: 'POST', path: '/api/v1/dtables/{base_uuid}/archive-view/', credential: 'base-token', since: '4.0', clauses: ['ROUTE-1', 'ACCT-7'], operation: 'Move Rows to Big Data' },
  ]),
  ...family('account', 'account', 'spec', [
    { id: 'exportBase', method: 'GET', path: '/api/v2.1/admin/dtables/{base_uuid}/synchronous-export/export-dtable/', credential: 'admin', since: '4.2', clauses: ['ROUTE-1', 'ACCT-7'], operation: 'Export Base' },
    { id: 'addUserToGroups', method: 'POST', path: '/api/v2.1/admin/users/{username}/groups/', credential: 'admin', since: '4.1', clauses: ['ROUTE-2'], operation: 'Add User to Groups' },
    { id: 'itemsSearch', method: 'GET', path: '/api/v2.1/dtable/items-search/', credential: 'account', since: '4.2', clauses: ['ROUTE-2'], operation: 'Search Bases and Apps' },
    { id: 'externalAppStatus', method: 'PUT', path: '/api/v2.1/external-apps/{app_token}/status/', credential: 'account', since: '4.2', clauses: ['ROUTE-2', 'ACCT-6'], operation: 'Update App Status' },
    { id: 'searchUserByOrgId', method: 'GET', path: '/api/v2.1/admin/search-user-by-org-id/', credential: 'admin', clauses: ['ROUTE-2'], operation: 'Search User by Team' },
    { id: 'pluginsInstallCount', method: 'GET', path: '/api/v2.1/admin/plugins-install-count/', credential: 'admin', clauses: ['ROUTE-2'], operation: 'List Plugin Installations' },
    { id: 'listTeamOperations', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/admin-logs/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-4'], operation: 'List Team Operations' },
    { id: 'setTeamLogo', method: 'POST', path: '/api/v2.1/org/{org_id}/admin/org-logo/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-5'], operation: 'Update Team Logo' },
    { id: 'getTeamLogo', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/org-logo/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-5'], operation: 'Get Team Logo' },
    { id: 'deleteTeamLogo', method: 'DELETE', path: '/api/v2.1/org/{org_id}/admin/org-logo/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-5'], operation: 'Delete Team Logo' },
    { id: 'convertBigDataViewToExcel', method: 'GET', path: `${WS}/convert-big-data-view-to-excel/`, credential: 'account', clauses: ['ROUTE-2'], operation: 'Convert Big Data View to Excel' },
    { id: 'appendExcelCsvToTable', method: 'POST', path: '/api/v2.1/workspace/{workspace_id}/synchronous-import/append-excel-csv-to-table/', credential: 'account', clauses: ['ROUTE-2'], operation: 'Append Excel/CSV to Table' },
    { id: 'listUniversalApps', method: 'GET', path: '/api/v2.1/universal-apps/', credential: 'account', clauses: ['ROUTE-2'], operation: 'List Universal Apps' },
    { id: 'addAppUsers', method: 'POST', path: '/api/v2.1/universal-apps/{app_token}/app-users/batch/', credential: 'account', clauses: ['ROUTE-2'], operation: 'Add App Users' },
    { id: 'listAppUsers', method: 'GET', path: '/api/v2.1/universal-apps/{app_token}/app-users/', credential: 'account', clauses: ['ROUTE-2'], operation: 'List App Users' },
    { id: 'listAppInviteLinks', method: 'GET', path: '/api/v2.1/universal-apps/{app_token}/invite-links/', credential: 'account', clauses: ['ROUTE-2'], operation: 'List App Invite Links' },
  ]),
  // Operations the specification names without a path: paths from api-shapes §7.
  ...family('account', 'account', 'compat', [
    { id: 'getTeamInfo', method: 'GET', path: '/api/v2.1/org/admin/info/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-1', 'RATE-8'], operation: 'Get Team Info' },
    { id: 'updateTeamInfo', method: 'PUT', path: '/api/v2.1/org/admin/info/', credential: 'team-admin', clauses: [], operation: 'Update Team (team admin)' },
    { id: 'updateTeam', method: 'PUT', path: '/api/v2.1/admin/organizations/{org_id}/', credential: 'admin', clauses: ['ROUTE-2', 'ACCT-2', 'RATE-8'], operation: 'Update Team' },
    { id: 'getTeamUser', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/users/{user_id}/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-3'], operation: 'Get User (Team Admin)' },
    { id: 'updateTeamUser', method: 'PUT', path: '/api/v2.1/org/{org_id}/admin/users/{user_id}/', credential: 'team-admin', clauses: [], operation: 'Update User (Team Admin)' },
    { id: 'addTeamUser', method: 'POST', path: '/api/v2.1/org/{org_id}/admin/users/', credential: 'team-admin', clauses: ['RATE-8'], operation: 'Add User (Team Admin)' },
    { id: 'updateUser', method: 'PUT', path: '/api/v2.1/admin/users/{user_id}/', credential: 'admin', clauses: ['ROUTE-2', 'ACCT-2'], operation: 'Update User' },
    { id: 'listTeamLogins', method: 'GET', path: '/api/v2.1/org/{org_id}/admin/login-logs/', credential: 'team-admin', clauses: ['ROUTE-2', 'ACCT-4'], operation: 'List Team Logins' },
    { id: 'exportBaseUser', method: 'GET', path: '/api/v2.1/workspace/{workspace_id}/synchronous-export/export-dtable/', credential: 'account', clauses: ['ACCT-7'], operation: 'Export Base (user)' },
    { id: 'customFolderContent', method: 'GET', path: '/api/v2.1/dtable/custom/app-asset-dir/', credential: 'api-token', clauses: ['ROUTE-2'], operation: 'Get Folder Content (Custom Folder)' },
    { id: 'customFileMetadata', method: 'GET', path: '/api/v2.1/dtable/custom/app-asset-file/', credential: 'api-token', clauses: ['ROUTE-2'], operation: 'Get File Metadata (Custom Folder)' },
    { id: 'customUploadLink', method: 'GET', path: '/api/v2.1/dtable/custom/app-upload-link/', credential: 'api-token', clauses: ['ROUTE-2'], operation: 'Get Upload Link (Custom Folder)' },
    { id: 'customDownloadLink', method: 'GET', path: '/api/v2.1/dtable/custom/app-download-link/', credential: 'api-token', clauses: ['ROUTE-2'], operation: 'Get Download Link (Custom Folder)' },
    { id: 'listWebhooks', method: 'GET', path: `${WS}/webhooks/`, credential: 'account', clauses: ['HOOK-1'], operation: 'List Webhooks' },
    { id: 'createWebhook', method: 'POST', path: `${WS}/webhooks/`, credential: 'account', clauses: ['HOOK-1'], operation: 'Create Webhook' },
    { id: 'updateWebhook', method: 'PUT', path: `${WS}/webhooks/{webhook_id}/`, credential: 'account', clauses: ['HOOK-1'], operation: 'Update Webhook' },
    { id: 'deleteWebhook', method: 'DELETE', path: `${WS}/webhooks/{webhook_id}/`, credential: 'account', clauses: ['HOOK-1'], operation: 'Delete Webhook' },
  ]),
  // Served by emulated releases before 5.3 only (§9: deprecated 5.2, removed 5.3).
  ...family('legacy', 'gateway', 'compat', [
    { id: 'legacyListRows', method: 'GET', path: '/dtable-server/api/v1/dtables/{base_uuid}/rows/', credential: 'base-token', removed: '5.3', clauses: ['GONE-2'], operation: 'List Rows (dtable-server)' },
    { id: 'legacyAppendRow', method: 'POST', path: '/dtable-server/api/v1/dtables/{base_uuid}/rows/', credential: 'base-token', removed: '5.3', clauses: ['GONE-2'], operation: 'Append Row (dtable-server)' },
    { id: 'legacyMetadata', method: 'GET', path: '/dtable-server/api/v1/dtables/{base_uuid}/metadata/', credential: 'base-token', removed: '5.3', clauses: ['GONE-2'], operation: 'Get Metadata (dtable-server)' },
    { id: 'legacyPing', method: 'GET', path: '/dtable-server/ping/', credential: 'none', rate: 'exempt', removed: '5.3', clauses: ['GONE-2'], operation: 'Ping (dtable-server)' },
    { id: 'legacySql', method: 'POST', path: '/dtable-db/api/v1/query/{base_uuid}/', credential: 'base-token', removed: '5.3', clauses: ['GONE-3'], operation: 'Query with SQL (dtable-db)' },
    { id: 'legacyCreateBigDataLinks', method: 'POST', path: '/dtable-db/api/v1/base/{base_uuid}/links/', credential: 'base-token', since: '4.3', removed: '5.3', clauses: ['GONE-3'], operation: 'Create Row Links in Big Data' },
    { id: 'legacyDeleteBigDataLinks', method: 'DELETE', path: '/dtable-db/api/v1/base/{base_uuid}/links/', credential: 'base-token', since: '4.3', removed: '5.3', clauses: ['GONE-3'], operation: 'Delete Row Links in Big Data' },
  ]),
];

export function endpoint(id: string): Endpoint {
  const e = ENDPOINTS.find((x) => x.id === id);
  if (!e) throw new Error(`unknown endpoint ${id}`);
  return e;
}

/** Fill a path template; every `{param}` must be given. Values are URL-encoded. */
export function fillPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`path ${template} needs {${k}}`);
    return encodeURIComponent(String(v));
  });
}

/** Parameters a path template needs. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** Is the endpoint offered by release `version`? (its `since` and `removed`.) */
export function offeredAt(ep: Endpoint, version: string): boolean {
  if (ep.since && compareVersions(version, ep.since) < 0) return false;
  if (ep.removed && compareVersions(version, ep.removed) >= 0) return false;
  return true;
}

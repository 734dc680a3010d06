/**
 * Tokens (§5, api-shapes §1): the account token, API tokens of a base, and the two documented
 * ways to a base token — all of authentication.yaml — plus the account-info call clients make
 * right after logging in. Rate class `account` (dtable-web), except the token call's own class.
 */
import { family, oa, p, WS, WS_BASE, type Endpoint } from './types.js';

export const AUTH: readonly Endpoint[] = family('auth', 'account', 'compat', [
  {
    id: 'authToken', method: 'POST', path: '/api2/auth-token/', credential: 'none', rate: 'auth-token', clauses: ['ROUTE-5', 'AUTH-1'], operation: 'Get Account-Token', basis: 'spec',
    params: [p.form('username', 'string', true), p.form('password', 'string', true), p.header('X-SEAFILE-OTP', 'string', false, 'only for an account with two-factor authentication')],
    openapi: oa('auth', 'getAccountTokenfromUsername'),
  },
  {
    id: 'appAccessToken', method: 'GET', path: '/api/v2.1/dtable/app-access-token/', credential: 'api-token', clauses: ['AUTH-3'], operation: 'Get Base-Token with API-Token',
    params: [p.query('exp', 'string', false, 'lifetime such as 5h or 3d')],
    openapi: oa('auth', 'getBaseTokenWithApiToken'),
  },
  {
    id: 'accountAccessToken', method: 'GET', path: `${WS}/access-token/`, credential: 'account', clauses: ['AUTH-3'], operation: 'Get Base-Token with Account-Token',
    params: [...WS_BASE, p.query('exp', 'string')],
    openapi: oa('auth', 'getBaseTokenWithAccountToken'),
  },
  {
    // Removed in 6.1 (§4.4): the external-link token in the path is the credential.
    id: 'externalLinkAccessToken', method: 'GET', path: '/api/v2.1/external-link-tokens/{external_link_token}/access-token/', credential: 'external-link', removed: '6.1', clauses: ['GONE-1', 'GONE-8'], operation: 'Get Base-Token with External-Link',
    params: [p.path('external_link_token')],
  },
  {
    id: 'listApiTokens', method: 'GET', path: `${WS}/api-tokens/`, credential: 'account', clauses: ['AUTH-3', 'AUTH-5'], operation: 'List API-Tokens',
    params: [...WS_BASE], openapi: oa('auth', 'listApiTokens'),
  },
  {
    id: 'createApiToken', method: 'POST', path: `${WS}/api-tokens/`, credential: 'account', clauses: ['AUTH-3', 'AUTH-5'], operation: 'Create API-Token',
    params: [...WS_BASE, p.form('app_name', 'string', true), p.form('permission', 'string', true, 'r or rw')],
    openapi: oa('auth', 'createApiToken'),
  },
  {
    id: 'updateApiToken', method: 'PUT', path: `${WS}/api-tokens/{app_name}/`, credential: 'account', clauses: ['AUTH-5'], operation: 'Update API-Token',
    params: [...WS_BASE, p.path('app_name'), p.multipart('permission', 'string', true, 'r or rw')],
    openapi: oa('auth', 'updateApiToken'),
  },
  {
    id: 'deleteApiToken', method: 'DELETE', path: `${WS}/api-tokens/{app_name}/`, credential: 'account', clauses: ['AUTH-3', 'AUTH-5'], operation: 'Delete API-Token',
    params: [...WS_BASE, p.path('app_name')], openapi: oa('auth', 'deleteApiToken'),
  },
  {
    // The Python client's Account.get_base: a one-hour API token, then Get Base-Token with it.
    id: 'createTempApiToken', method: 'GET', path: `${WS}/temp-api-token/`, credential: 'account', clauses: ['AUTH-5'], operation: 'Create API-Token (temporary)',
    params: [...WS_BASE], openapi: oa('auth', 'createTempApiToken'),
  },
  {
    // user_account_operations.yaml, but under /api2/ like the token call, not /api/v2.1/ (so
    // not the `account` family of ROUTE-3): the Python client reads `email` from it after
    // logging in, to name the owner of a base it creates.
    id: 'getAccountInfo', method: 'GET', path: '/api2/account/info/', credential: 'account', clauses: ['ACCT-8'], operation: 'Get Account Info',
    params: [], openapi: oa('user', 'getAccountInfo'),
  },
]);

/**
 * Open endpoints (§1, §8.1.1): no credentials, never rate-limited. None of them is in the
 * 6.2 OpenAPI files (the 4.x files had a "ping and info" part), so no row names one.
 */
import { family, type Endpoint } from './types.js';

export const PUBLIC: readonly Endpoint[] = family('public', 'exempt', 'spec', [
  { id: 'ping', method: 'GET', path: '/ping/', credential: 'none', clauses: ['ROUTE-4', 'RATE-1'], operation: 'Ping' },
  { id: 'api2Ping', method: 'GET', path: '/api2/ping/', credential: 'none', clauses: ['ROUTE-4'], operation: 'Ping (api2)', basis: 'compat' },
  { id: 'serverInfo', method: 'GET', path: '/server-info/', credential: 'none', clauses: ['ROUTE-4', 'RATE-1'], operation: 'Get Server Info' },
]);

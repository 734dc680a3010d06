/**
 * The old `/dtable-server/` and `/dtable-db/` families: served by emulated releases before 5.3
 * only (§9: deprecated 5.2, removed 5.3; GONE-2, GONE-3). No 6.2 OpenAPI file documents them,
 * so the rows list no `params`.
 */
import { family, type Endpoint } from './types.js';

export const LEGACY: readonly Endpoint[] = family('legacy', 'gateway', 'compat', [
  { id: 'legacyListRows', method: 'GET', path: '/dtable-server/api/v1/dtables/{base_uuid}/rows/', credential: 'base-token', removed: '5.3', clauses: ['GONE-2'], operation: 'List Rows (dtable-server)' },
  { id: 'legacyAppendRow', method: 'POST', path: '/dtable-server/api/v1/dtables/{base_uuid}/rows/', credential: 'base-token', removed: '5.3', clauses: ['GONE-2'], operation: 'Append Row (dtable-server)' },
  { id: 'legacyMetadata', method: 'GET', path: '/dtable-server/api/v1/dtables/{base_uuid}/metadata/', credential: 'base-token', removed: '5.3', clauses: ['GONE-2'], operation: 'Get Metadata (dtable-server)' },
  { id: 'legacyPing', method: 'GET', path: '/dtable-server/ping/', credential: 'none', rate: 'exempt', removed: '5.3', clauses: ['GONE-2'], operation: 'Ping (dtable-server)' },
  { id: 'legacySql', method: 'POST', path: '/dtable-db/api/v1/query/{base_uuid}/', credential: 'base-token', removed: '5.3', clauses: ['GONE-3'], operation: 'Query with SQL (dtable-db)' },
  { id: 'legacyCreateBigDataLinks', method: 'POST', path: '/dtable-db/api/v1/base/{base_uuid}/links/', credential: 'base-token', since: '4.3', removed: '5.3', clauses: ['GONE-3'], operation: 'Create Row Links in Big Data' },
  { id: 'legacyDeleteBigDataLinks', method: 'DELETE', path: '/dtable-db/api/v1/base/{base_uuid}/links/', credential: 'base-token', since: '4.3', removed: '5.3', clauses: ['GONE-3'], operation: 'Delete Row Links in Big Data' },
]);

/**
 * Removed endpoints of §4.4 (clauses GONE-*): never registered by the reference server at
 * the release that removed them or later; the suites probe each with every method, with
 * and without credentials. `probes` are concrete paths standing for a whole family.
 */
import type { ClauseId } from './clauses.js';
import type { Method } from './endpoints/index.js';

interface RemovedEndpoint {
  readonly clause: ClauseId;
  /** Methods the specification names; the suites also probe the others. */
  readonly methods: readonly Method[] | 'any';
  /** Path template or family prefix as the specification writes it. */
  readonly path: string;
  readonly removed: string;
  /** Concrete paths to probe (templates; `{base_uuid}` and `{token}` are filled by the suite). */
  readonly probes: readonly string[];
  readonly note: string;
}

export const ALL_METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

export const REMOVED: readonly RemovedEndpoint[] = [
  {
    clause: 'GONE-1', methods: ['GET'], removed: '6.1',
    path: '/api/v2.1/external-link-tokens/{token}/access-token/',
    probes: ['/api/v2.1/external-link-tokens/{token}/access-token/'],
    note: 'Get Base-Token with External-Link',
  },
  {
    clause: 'GONE-2', methods: 'any', removed: '5.3', path: '/dtable-server/*',
    probes: ['/dtable-server/ping/', '/dtable-server/api/v1/dtables/{base_uuid}/rows/', '/dtable-server/api/v1/dtables/{base_uuid}/metadata/', '/dtable-server/api/v1/dtables/{base_uuid}/batch-append-rows/', '/dtable-server/api/v1/dtables/{base_uuid}/filtered-rows/'],
    note: 'the whole dtable-server family (replaced by /api-gateway/)',
  },
  {
    clause: 'GONE-3', methods: 'any', removed: '5.3', path: '/dtable-db/*',
    probes: ['/dtable-db/ping/', '/dtable-db/api/v1/query/{base_uuid}/', '/dtable-db/api/v1/base/{base_uuid}/links/'],
    note: 'the whole dtable-db family, incl. row links in big data',
  },
  {
    clause: 'GONE-4', methods: ['GET'], removed: '4.0',
    path: '/api/v2.1/dtable/share-link-access-token/',
    probes: ['/api/v2.1/dtable/share-link-access-token/?token={token}'],
    note: 'Get Base-Token with Invite-Link',
  },
  {
    clause: 'GONE-5', methods: ['POST'], removed: '3.5',
    path: '/dtable-server/api/v1/dtables/{base_uuid}/import-csv/ and /append-csv/',
    probes: ['/dtable-server/api/v1/dtables/{base_uuid}/import-csv/', '/dtable-server/api/v1/dtables/{base_uuid}/append-csv/'],
    note: 'CSV import and append on dtable-server',
  },
  {
    clause: 'GONE-6', methods: ['POST', 'PUT'], removed: '3.5',
    path: '/dtable-server/api/v1/dtables/{base_uuid}/comments/',
    probes: ['/dtable-server/api/v1/dtables/{base_uuid}/comments/'],
    note: 'row comment create and update on dtable-server',
  },
  {
    clause: 'GONE-7', methods: 'any', removed: '4.4',
    path: '/api/v2.1/collection-tables/*',
    probes: ['/api/v2.1/collection-tables/', '/api/v2.1/collection-tables/access-token/', '/api/v2.1/collection-tables/{uuid_token}/'],
    note: 'data-collection-table calls (paths of the real service; the specification names none)',
  },
  {
    clause: 'GONE-8', methods: ['GET'], removed: '6.1',
    path: 'Get Base-Token with invite link (4.0) and with external link (6.1)',
    probes: ['/api/v2.1/dtable/share-link-access-token/?token={token}', '/api/v2.1/external-link-tokens/{token}/access-token/'],
    note: 'both removed ways to obtain a base token',
  },
];

/**
 * Rows and SQL on the gateway (§4.1; base_operations.yaml "Rows"). The gateway family came
 * with 4.4 (§9), so no gateway row is older than that.
 */
import { BASE_UUID, family, GW, oa, p, type Endpoint } from './types.js';

const TABLE = p.json('table_name', 'string', true, 'or table_id');

export const GATEWAY_ROWS: readonly Endpoint[] = family('gateway', 'gateway', 'spec', [
  {
    // The 6.2 OpenAPI no longer lists order_by/direction here (removed 4.4, ROUTE-6).
    id: 'listRows', method: 'GET', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-1', 'SHAPE-1'], operation: 'List Rows',
    params: [BASE_UUID, p.query('table_name', 'string', true, 'or table_id'), p.query('view_name', 'string', false, 'or view_id'), p.query('start', 'integer'), p.query('limit', 'integer', false, '1 to 1000'), p.query('convert_keys', 'boolean')],
    openapi: oa('base', 'listRows'),
  },
  {
    id: 'appendRows', method: 'POST', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-2'], operation: 'Append Rows',
    params: [BASE_UUID, TABLE, p.json('rows', 'array', true, 'column names as keys'), p.json('apply_default', 'boolean')],
    openapi: oa('base', 'appendRows'),
  },
  {
    id: 'updateRows', method: 'PUT', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-3', 'SHAPE-6'], operation: 'Update Rows',
    params: [BASE_UUID, TABLE, p.json('updates', 'array', true, '[{row_id, row}]')],
    openapi: oa('base', 'updateRow'),
  },
  {
    id: 'deleteRows', method: 'DELETE', path: `${GW}/rows/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-4'], operation: 'Delete Rows',
    params: [BASE_UUID, TABLE, p.json('row_ids', 'array', true)],
    openapi: oa('base', 'deleteRow'),
  },
  {
    id: 'querySql', method: 'POST', path: `${GW}/sql/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-1', 'SIZE-5', 'SIZE-6', 'SQL-1', 'SQL-2', 'BASE-6'], operation: 'Query Base with SQL',
    params: [BASE_UUID, p.json('sql', 'string', true), p.json('convert_keys', 'boolean'), p.json('parameters', 'array', false, 'strings or integers for the ? placeholders'), p.json('server_only', 'boolean')],
    openapi: oa('base', 'querySQL'),
  },
  {
    id: 'getRow', method: 'GET', path: `${GW}/rows/{row_id}/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-1', 'SHAPE-5'], operation: 'Get Row', basis: 'compat',
    params: [BASE_UUID, p.path('row_id'), p.query('table_name', 'string', true, 'or table_id'), p.query('convert_keys', 'boolean')],
    openapi: oa('base', 'getRow'),
  },
  {
    // An enterprise feature (the OpenAPI says so); other editions may refuse it.
    id: 'lockRows', method: 'PUT', path: `${GW}/lock-rows/`, credential: 'base-token', since: '4.4', clauses: ['BASE-7'], operation: 'Lock Rows', basis: 'compat',
    params: [BASE_UUID, TABLE, p.json('row_ids', 'array', true)],
    openapi: oa('base', 'lockRows'),
  },
  {
    id: 'unlockRows', method: 'PUT', path: `${GW}/unlock-rows/`, credential: 'base-token', since: '4.4', clauses: ['BASE-7'], operation: 'Unlock Rows', basis: 'compat',
    params: [BASE_UUID, TABLE, p.json('row_ids', 'array', true)],
    openapi: oa('base', 'unlockRows'),
  },
]);

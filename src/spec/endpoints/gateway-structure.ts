/**
 * The structure of a base on the gateway (api-shapes §2.3, §2.5; base_operations.yaml "Base
 * Info", "Tables", "Views", "Columns"): metadata, tables, views, columns and select options.
 * Only the real service's documentation names them: `compat` rows.
 */
import { BASE_UUID, family, GW, oa, p, type Endpoint } from './types.js';

const TABLE = p.json('table_name', 'string', true, 'or table_id');
const TABLE_Q = p.query('table_name', 'string', true, 'or table_id');
/** The view is named in the path; the client must URL-encode the name. */
const VIEW = p.path('view_name');
/** Select options: the OpenAPI marks none of the fields required. */
const OPTIONS = [BASE_UUID, p.json('table_name', 'string'), p.json('column', 'string', false, 'column name or key'), p.json('options', 'array', false, '[{name, color, textColor}]')];

export const GATEWAY_STRUCTURE: readonly Endpoint[] = family('gateway', 'gateway', 'compat', [
  {
    id: 'getMetadata', method: 'GET', path: `${GW}/metadata/`, credential: 'base-token', since: '4.4', clauses: ['ROUTE-3'], operation: 'Get Metadata',
    params: [BASE_UUID], openapi: oa('base', 'getMetadata'),
  },
  {
    id: 'listCollaborators', method: 'GET', path: `${GW}/related-users/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'List Collaborators',
    params: [BASE_UUID], openapi: oa('base', 'listCollaborators'),
  },
  // Tables
  {
    id: 'createTable', method: 'POST', path: `${GW}/tables/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Create Table',
    params: [BASE_UUID, p.json('table_name', 'string', true), p.json('columns', 'array', true, '[{column_name, column_type, column_data}]')],
    openapi: oa('base', 'createTable'),
  },
  {
    id: 'renameTable', method: 'PUT', path: `${GW}/tables/`, credential: 'base-token', since: '4.4', clauses: ['BASE-4'], operation: 'Rename Table',
    params: [BASE_UUID, TABLE, p.json('new_table_name', 'string', true)], openapi: oa('base', 'renameTable'),
  },
  {
    id: 'deleteTable', method: 'DELETE', path: `${GW}/tables/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Delete Table',
    params: [BASE_UUID, TABLE], openapi: oa('base', 'deleteTable'),
  },
  {
    // First in the 5.2 OpenAPI; §9 lists new base requests for 5.2.
    id: 'duplicateTable', method: 'POST', path: `${GW}/tables/duplicate-table/`, credential: 'base-token', since: '5.2', clauses: ['BASE-4'], operation: 'Duplicate Table',
    params: [BASE_UUID, TABLE, p.json('is_duplicate_records', 'boolean', true)], openapi: oa('base', 'duplicateTable'),
  },
  // Views
  {
    id: 'listViews', method: 'GET', path: `${GW}/views/`, credential: 'base-token', since: '4.4', clauses: ['BASE-1'], operation: 'List Views',
    params: [BASE_UUID, TABLE_Q], openapi: oa('base', 'listViews'),
  },
  {
    // The table is named in the query string here, not in the body.
    id: 'createView', method: 'POST', path: `${GW}/views/`, credential: 'base-token', since: '4.4', clauses: ['ACCT-7', 'BASE-1'], operation: 'Create View',
    params: [BASE_UUID, TABLE_Q, p.json('name', 'string', true), p.json('type', 'string', true, 'table (default) or archive'), p.json('is_locked', 'boolean')],
    openapi: oa('base', 'createView'),
  },
  {
    id: 'getView', method: 'GET', path: `${GW}/views/{view_name}/`, credential: 'base-token', since: '4.4', clauses: ['BASE-1'], operation: 'Get View',
    params: [BASE_UUID, VIEW, TABLE_Q], openapi: oa('base', 'getView'),
  },
  {
    id: 'updateView', method: 'PUT', path: `${GW}/views/{view_name}/`, credential: 'base-token', since: '4.4', clauses: ['BASE-1'], operation: 'Update View',
    params: [
      BASE_UUID, VIEW, TABLE_Q, p.json('name', 'string'), p.json('is_locked', 'boolean'), p.json('filters', 'array'), p.json('filter_conjunction', 'string', false, 'And or Or'),
      p.json('sorts', 'array'), p.json('groupbys', 'array'), p.json('hidden_columns', 'array'),
    ],
    openapi: oa('base', 'updateView'),
  },
  {
    id: 'deleteView', method: 'DELETE', path: `${GW}/views/{view_name}/`, credential: 'base-token', since: '4.4', clauses: ['BASE-1'], operation: 'Delete View',
    params: [BASE_UUID, VIEW, TABLE_Q], openapi: oa('base', 'deleteView'),
  },
  // Columns
  {
    id: 'listColumns', method: 'GET', path: `${GW}/columns/`, credential: 'base-token', since: '4.4', clauses: ['BASE-2'], operation: 'List Columns',
    params: [BASE_UUID, TABLE_Q, p.query('view_name', 'string', false, 'or view_id')], openapi: oa('base', 'listColumns'),
  },
  {
    id: 'appendColumn', method: 'POST', path: `${GW}/columns/`, credential: 'base-token', since: '4.4', clauses: ['BASE-2'], operation: 'Insert Column',
    params: [BASE_UUID, TABLE, p.json('column_name', 'string', true), p.json('column_type', 'string', true), p.json('anchor_column', 'string', false, 'key of the column to insert after'), p.json('column_data', 'object')],
    openapi: oa('base', 'insertColumn'),
  },
  {
    // One operation per `op_type`: rename_column, resize_column, move_column, freeze_column, modify_column_type.
    id: 'updateColumn', method: 'PUT', path: `${GW}/columns/`, credential: 'base-token', since: '4.4', clauses: ['BASE-2', 'BASE-3'], operation: 'Update Column',
    params: [
      BASE_UUID, p.json('op_type', 'string', true), TABLE, p.json('column', 'string', true, 'column name or key'), p.json('new_column_name', 'string'), p.json('new_column_width', 'integer'),
      p.json('target_column', 'string'), p.json('frozen', 'boolean'), p.json('new_column_type', 'string'), p.json('column_data', 'object'),
    ],
    openapi: oa('base', 'updateColumn'),
  },
  {
    id: 'deleteColumn', method: 'DELETE', path: `${GW}/columns/`, credential: 'base-token', since: '4.4', clauses: ['BASE-2'], operation: 'Delete Column',
    params: [BASE_UUID, TABLE, p.json('column', 'string', true, 'column name or key')], openapi: oa('base', 'deleteColumn'),
  },
  {
    id: 'appendColumns', method: 'POST', path: `${GW}/batch-append-columns/`, credential: 'base-token', since: '4.4', clauses: ['BASE-2'], operation: 'Append Columns',
    params: [BASE_UUID, p.json('table_name', 'string'), p.json('columns', 'array')], openapi: oa('base', 'appendColumns'),
  },
  // Select options and cascades
  { id: 'addSelectOption', method: 'POST', path: `${GW}/column-options/`, credential: 'base-token', since: '4.4', clauses: ['BASE-3'], operation: 'Add Select Options', params: OPTIONS, openapi: oa('base', 'addSelectOption') },
  {
    id: 'updateSelectOption', method: 'PUT', path: `${GW}/column-options/`, credential: 'base-token', since: '4.4', clauses: ['BASE-3'], operation: 'Update Select Options',
    params: [...OPTIONS, p.json('return_options', 'boolean')], openapi: oa('base', 'updateSelectOption'),
  },
  {
    id: 'deleteSelectOption', method: 'DELETE', path: `${GW}/column-options/`, credential: 'base-token', since: '4.4', clauses: ['BASE-3'], operation: 'Delete Select Options',
    params: [BASE_UUID, TABLE, p.json('column', 'string', true), p.json('option_names', 'array', true)], openapi: oa('base', 'deleteSelectOption'),
  },
  {
    // The OpenAPI gives this body as an example only (no properties, nothing required).
    id: 'updateColumnCascade', method: 'POST', path: `${GW}/column-cascade-settings/`, credential: 'base-token', since: '4.4', clauses: ['BASE-3'], operation: 'Update Column Cascade Settings',
    params: [BASE_UUID, p.json('table_name', 'string'), p.json('parent_column', 'string'), p.json('child_column', 'string'), p.json('cascade_settings', 'object', false, '{parent option: [child options]}')],
    openapi: oa('base', 'updateColumnCascade'),
  },
]);

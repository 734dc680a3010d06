/**
 * The rest of base_operations.yaml: links, big data, row comments, notifications, logs and
 * snapshots (api-shapes §2.4, §2.5), and the spec's own archive-view path of §4.1. A `since`
 * later than 4.4 is the release whose OpenAPI first lists the operation, where §9 announces
 * new base requests for that release.
 */
import { BASE_UUID, family, GW, oa, p, type Endpoint } from './types.js';

/** Links name the link column by `link_id` (its data.link_id, not its key). */
const LINK = [
  BASE_UUID, p.json('table_id', 'string', true, 'or table_name'), p.json('other_table_id', 'string', true, 'or other_table_name'),
  p.json('link_id', 'string', true), p.json('other_rows_ids_map', 'object', true, '{row_id: [other row ids]}'),
];
const ROW_Q = p.query('row_id', 'string', true);
const PAGE = [p.query('page', 'integer'), p.query('per_page', 'integer')];
const SEEN = p.form('seen', 'boolean', false, 'form field; a JSON boolean is refused (api-shapes §2.5)');

export const GATEWAY_OTHER: readonly Endpoint[] = [
  ...family('gateway', 'gateway', 'compat', [
    // Links
    { id: 'createLinks', method: 'POST', path: `${GW}/links/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-2'], operation: 'Create Row Links', params: LINK, openapi: oa('base', 'createRowLink') },
    { id: 'updateLinks', method: 'PUT', path: `${GW}/links/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-2'], operation: 'Update Row Links', params: LINK, openapi: oa('base', 'updateRowLink') },
    { id: 'deleteLinks', method: 'DELETE', path: `${GW}/links/`, credential: 'base-token', since: '4.4', clauses: ['SHAPE-2'], operation: 'Delete Row Links', params: LINK, openapi: oa('base', 'deleteRowLink') },
    {
      id: 'listRowLinks', method: 'POST', path: `${GW}/query-links/`, credential: 'base-token', since: '4.4', clauses: ['BASE-5'], operation: 'List Row Links',
      params: [BASE_UUID, p.json('table_name', 'string', true, 'or table_id'), p.json('link_column_name', 'string', true, 'or link_column_key'), p.json('rows', 'array', true, '[{row_id, offset, limit}]')],
      openapi: oa('base', 'listRowLinks'),
    },
    {
      id: 'autoLinks', method: 'POST', path: `${GW}/auto-links/`, credential: 'base-token', since: '5.2', clauses: [], operation: 'Auto Links',
      params: [BASE_UUID, p.json('link_id', 'string', true), p.json('matching_keys', 'array', true, '[{table1_key, table2_key}]')], openapi: oa('base', 'autoLinks'),
    },
    {
      // Documented as a GET whose body is a bare JSON string, the task id auto-links answered
      // (the OpenAPI names no field; `task_id` is that answer's name for it).
      id: 'autoLinkTask', method: 'GET', path: `${GW}/auto-link-task/`, credential: 'base-token', since: '5.2', clauses: [], operation: 'Auto Link Task',
      params: [BASE_UUID, p.json('task_id', 'string', true, 'documented as the whole JSON body, a string')], openapi: oa('base', 'autoLinkTask'),
    },
    // Big data
    {
      id: 'archiveViewGateway', method: 'POST', path: `${GW}/archive-view/`, credential: 'base-token', since: '4.4', clauses: ['ACCT-7', 'BASE-6'], operation: 'Move Rows to Big Data (gateway path)',
      params: [BASE_UUID, p.json('table_name', 'string', true), p.json('view_name', 'string', true)], openapi: oa('base', 'moveRowsToBigData'),
    },
    {
      id: 'addBigDataRows', method: 'POST', path: `${GW}/add-archived-rows/`, credential: 'base-token', since: '4.4', clauses: ['BASE-6'], operation: 'Add Rows into Big Data',
      params: [BASE_UUID, p.json('table_name', 'string', true), p.json('rows', 'array', true)], openapi: oa('base', 'addBigDataRows'),
    },
    {
      id: 'moveRowsToNormalBackend', method: 'POST', path: `${GW}/unarchive/`, credential: 'base-token', since: '4.4', clauses: ['BASE-6'], operation: 'Move Rows to Normal Backend',
      params: [BASE_UUID, p.json('table_id', 'string'), p.json('row_ids', 'array')], openapi: oa('base', 'moveRowsToNormalBackend'),
    },
    {
      id: 'getBaseBigDataOperations', method: 'GET', path: `${GW}/db-operations/`, credential: 'base-token', since: '5.3', clauses: [], operation: 'Get Base Big Data Operations',
      params: [BASE_UUID, ...PAGE], openapi: oa('base', 'getBaseBigDataOperations'),
    },
    {
      id: 'restoreBigDataOperations', method: 'PUT', path: `${GW}/restore-operations/{op_id}/`, credential: 'base-token', since: '5.3', clauses: [], operation: 'Restore Big Data Operations',
      params: [BASE_UUID, p.path('op_id', 'integer')], openapi: oa('base', 'restoreBigDataOperations'),
    },
    // Row comments (creating one came back to the gateway in 6.2; on 6.1 POST answered 405)
    { id: 'listRowComments', method: 'GET', path: `${GW}/comments/`, credential: 'base-token', since: '4.4', clauses: ['BASE-7'], operation: 'List Row Comments', params: [BASE_UUID, ROW_Q], openapi: oa('base', 'listRowComments') },
    {
      id: 'createRowComment', method: 'POST', path: `${GW}/comments/`, credential: 'base-token', since: '6.2', clauses: ['BASE-7'], operation: 'Create Row Comment',
      params: [BASE_UUID, p.query('table_id', 'string', true), ROW_Q, p.json('comment', 'string')], openapi: oa('base', 'createRowComment'),
    },
    { id: 'getComment', method: 'GET', path: `${GW}/comments/{comment_id}/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Get Comment', params: [BASE_UUID, p.path('comment_id', 'integer')], openapi: oa('base', 'getComment') },
    { id: 'deleteComment', method: 'DELETE', path: `${GW}/comments/{comment_id}/`, credential: 'base-token', since: '4.4', clauses: ['BASE-7'], operation: 'Delete Comment', params: [BASE_UUID, p.path('comment_id', 'integer')], openapi: oa('base', 'deleteComment') },
    { id: 'getRowCommentsCount', method: 'GET', path: `${GW}/comments-count/`, credential: 'base-token', since: '4.4', clauses: ['BASE-7'], operation: 'Get Row Comments Count', params: [BASE_UUID, ROW_Q], openapi: oa('base', 'getRowCommentsCount') },
    {
      id: 'listCommentsWithinDays', method: 'GET', path: `${GW}/comments-within-days/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'List Comments within Days',
      params: [BASE_UUID, p.query('days', 'integer')], openapi: oa('base', 'listCommentsWithinDays'),
    },
    // Notifications
    { id: 'listBaseNotifications', method: 'GET', path: `${GW}/notifications/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'List Base Notifications', params: [BASE_UUID], openapi: oa('base', 'listBaseNotifications') },
    { id: 'markBaseNotificationsAsSeen', method: 'PUT', path: `${GW}/notifications/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Mark Base Notifications as Seen', params: [BASE_UUID, SEEN], openapi: oa('base', 'markBaseNotificationsAsSeen') },
    { id: 'deleteBaseNotifications', method: 'DELETE', path: `${GW}/notifications/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Delete Base Notifications', params: [BASE_UUID], openapi: oa('base', 'deleteBaseNotifications') },
    {
      id: 'markBaseNotificationAsSeen', method: 'PUT', path: `${GW}/notifications/{notification_id}/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Mark Notification Read/Unread',
      params: [BASE_UUID, p.path('notification_id', 'integer'), SEEN], openapi: oa('base', 'markBaseNotificationAsSeen'),
    },
    {
      id: 'sendToastNotification', method: 'POST', path: `${GW}/ui-toasts/`, credential: 'base-token', since: '5.2', clauses: [], operation: 'Send Toast Notification',
      params: [BASE_UUID, p.json('to_user', 'string'), p.json('toast_type', 'string'), p.json('detail', 'object')], openapi: oa('base', 'sendToastNotification'),
    },
    // Activities and snapshots
    { id: 'getBaseActivityLog', method: 'GET', path: `${GW}/operations/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Get Base Activity Log', params: [BASE_UUID, p.query('page', 'integer')], openapi: oa('base', 'getBaseActivityLog') },
    { id: 'listRowActivities', method: 'GET', path: `${GW}/activities/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'List Row Activities', params: [BASE_UUID, ROW_Q, ...PAGE], openapi: oa('base', 'listRowActivities') },
    { id: 'createSnapshot', method: 'POST', path: `${GW}/snapshot/`, credential: 'base-token', since: '4.4', clauses: [], operation: 'Create Snapshot', params: [BASE_UUID, p.json('dtable_name', 'string')], openapi: oa('base', 'createSnapshot') },
  ]),
  // base_operations.yaml, but served by dtable-web under /api/v2.1/: that family's path and
  // rate class (§8.1 counts /api/v2.1/* as account operations), with a base token.
  ...family('account', 'account', 'compat', [
    { id: 'getNumberOfComments', method: 'GET', path: '/api/v2.1/dtables/{base_uuid}/rows-comments-num/', credential: 'base-token', since: '5.3', clauses: [], operation: 'Get Number of Comments', params: [BASE_UUID], openapi: oa('base', 'getNumberOfComments') },
  ]),
  // §4.1 names this path; the 6.2 OpenAPI documents only the gateway one above.
  ...family('base-v1', 'gateway', 'spec', [
    {
      id: 'archiveView', method: 'POST', path: '/api/v1/dtables/{base_uuid}/archive-view/', credential: 'base-token', since: '4.0', clauses: ['ROUTE-1', 'ACCT-7'], operation: 'Move Rows to Big Data',
      params: [BASE_UUID, p.json('table_name', 'string', true), p.json('view_name', 'string', true, '§4.3; a raw SQL where before 6.0')],
    },
  ]),
];

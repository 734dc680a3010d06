/**
 * 200 answers of the base operations (base_operations.yaml), by endpoint id. Disagreements
 * between sources, each accepted both ways:
 * - row comments: the OpenAPI lists comments as a bare array and comments-within-days as
 *   `{comments}`; the scripting manual (seatable-scripts, Python `get_comments`) shows
 *   `{comment_list, count}` and a bare array respectively;
 * - restore-operations and create-comment: the OpenAPI example is the string "success:true";
 *   read as `{success: true}`, the other operations' answer;
 * - append: `first_row` is null when nothing was appended (the reference server; the
 *   OpenAPI shows only the non-empty case).
 */
import { z } from 'zod';
import { anyId, column, comment, flag, linkValue, row, success, table, time, user, view } from './common.js';

const columns = z.looseObject({ columns: z.array(column) });
const sqlColumn = z.looseObject({ key: z.string(), name: z.string(), type: z.string(), data: z.unknown().optional() });
const selectOption = z.looseObject({ name: z.string(), color: z.string().optional(), textColor: z.string().optional(), id: z.string().optional() });
const comments = z.array(comment);

export const GATEWAY_RESPONSES = {
  // Rows and SQL
  listRows: z.looseObject({ rows: z.array(row) }),
  getRow: row,
  appendRows: z.looseObject({ inserted_row_count: z.number().int(), row_ids: z.array(z.looseObject({ _id: z.string() })), first_row: z.record(z.string(), z.unknown()).nullable() }),
  updateRows: success,
  deleteRows: success,
  lockRows: success,
  unlockRows: success,
  // 6.x servers add `is_join_stmt` and `error_message` (api-shapes §2.2).
  querySql: z.looseObject({ metadata: z.array(sqlColumn), results: z.array(z.record(z.string(), z.unknown())), success: z.boolean() }),
  // Base info and structure
  getMetadata: z.looseObject({
    metadata: z.looseObject({ tables: z.array(table), version: z.number().int(), format_version: z.number().int(), settings: z.record(z.string(), z.unknown()) }),
  }),
  listCollaborators: z.looseObject({ user_list: z.array(z.looseObject({ email: user, name: z.string(), contact_email: z.string(), avatar_url: z.string() })) }),
  createTable: table,
  renameTable: success,
  deleteTable: success,
  duplicateTable: table,
  listViews: z.looseObject({ views: z.array(view) }),
  createView: view,
  getView: view,
  updateView: view,
  deleteView: success,
  listColumns: columns,
  appendColumn: column,
  updateColumn: column,
  deleteColumn: success,
  appendColumns: columns,
  addSelectOption: success,
  // With `return_options` the options come back instead.
  updateSelectOption: z.union([success, z.looseObject({ options: z.array(selectOption) })]),
  deleteSelectOption: success,
  updateColumnCascade: success,
  // Links
  createLinks: success,
  updateLinks: success,
  deleteLinks: z.looseObject({ deleted_links_count: z.number().int() }),
  listRowLinks: z.record(z.string(), z.array(linkValue)),
  autoLinks: z.looseObject({ task_id: z.string() }),
  autoLinkTask: z.looseObject({ status: z.string() }),
  // Big data
  archiveViewGateway: z.looseObject({ success: z.boolean(), error_message: z.string() }),
  addBigDataRows: z.looseObject({ inserted_row_count: z.number().int() }),
  moveRowsToNormalBackend: z.looseObject({ success: z.boolean(), task_id: z.string() }),
  getBaseBigDataOperations: z.looseObject({
    operations: z.array(z.looseObject({ id: anyId, dtable_uuid: z.string(), op_time: z.number(), op_type: z.string(), author: user, operation: z.union([z.string(), z.record(z.string(), z.unknown())]) })),
  }),
  restoreBigDataOperations: success,
  // Comments
  listRowComments: z.union([comments, z.looseObject({ comment_list: comments, count: z.number().int().optional() })]),
  createRowComment: success,
  getComment: comment,
  deleteComment: success,
  getRowCommentsCount: z.looseObject({ count: z.number().int() }),
  listCommentsWithinDays: z.union([z.looseObject({ comments }), comments]),
  getNumberOfComments: z.looseObject({ rows_comments_num: z.record(z.string(), z.number().int()) }),
  // Notifications
  listBaseNotifications: z.looseObject({
    notification_list: z.array(z.looseObject({ id: anyId, username: user, msg_type: z.string(), created_at: time, detail: z.unknown(), seen: flag })),
  }),
  markBaseNotificationsAsSeen: success,
  deleteBaseNotifications: success,
  markBaseNotificationAsSeen: success,
  sendToastNotification: success,
  // Logs and snapshots; an operation's `operation` is a JSON text in the OpenAPI examples.
  getBaseActivityLog: z.looseObject({
    operations: z.array(z.looseObject({ author: user, app: z.string().nullable(), op_time: z.number(), operation: z.union([z.string(), z.record(z.string(), z.unknown())]), op_id: anyId })),
  }),
  listRowActivities: z.looseObject({
    activities: z.array(z.looseObject({ id: anyId, dtable_uuid: z.string(), row_id: z.string(), op_user: user, op_type: z.string(), op_time: time, detail: z.unknown() })),
    total_count: z.number().int(),
  }),
  createSnapshot: z.looseObject({
    status: z.string(),
    snapshot: z.looseObject({ dtable_uuid: z.string(), dtable_name: z.string(), commit_id: z.string(), ctime: z.number() }),
  }),
} satisfies Record<string, z.ZodType>;

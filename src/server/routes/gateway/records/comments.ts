/**
 * Row comments (BASE-7): comments/ (list by row, create), comments/{comment_id}/ (get,
 * delete), comments-count/, comments-within-days/, and /api/v2.1/…/rows-comments-num/.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../../spec/index.js';
import type { ServerContext } from '../../../context.js';
import { route } from '../../../pipeline/hooks.js';
import {
  commentById,
  commentCount,
  commentsPerRow,
  commentsWithinDays,
  createComment,
  deleteComment,
  rowComments,
} from '../../../store/records/comments.js';
import { actor, baseOf, bodyOf, intParam, tableOf } from '../common.js';
import { pathId, query, rowIdQuery } from './params.js';

/** Days comments-within-days looks back when not told (the OpenAPI's example). */
const DEFAULT_DAYS = 7;

export function registerComments(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('listRowComments'), (req) => rowComments(ctx.db, baseOf(ctx, req), rowIdQuery(req)));
  route(app, ctx, endpoint('createRowComment'), (req) => {
    const base = baseOf(ctx, req);
    const q = query(req);
    const table = tableOf(base, q.table_id ?? q.table_name, 'table_id');
    createComment(ctx.store, base, table, rowIdQuery(req), bodyOf(req).comment, actor(req), ctx.now());
    return { success: true };
  });
  route(app, ctx, endpoint('getComment'), (req) => commentById(ctx.db, baseOf(ctx, req), pathId(req, 'comment_id')));
  route(app, ctx, endpoint('deleteComment'), (req) => {
    deleteComment(ctx.db, baseOf(ctx, req), pathId(req, 'comment_id'), ctx.faults);
    return { success: true };
  });
  route(app, ctx, endpoint('getRowCommentsCount'), (req) =>
    commentCount(ctx.db, baseOf(ctx, req), rowIdQuery(req), ctx.faults),
  );
  route(app, ctx, endpoint('listCommentsWithinDays'), (req) => {
    const days = Math.min(intParam(query(req).days, 'days', DEFAULT_DAYS, 1), 36_500);
    return commentsWithinDays(ctx.db, baseOf(ctx, req), days, ctx.now());
  });
  route(app, ctx, endpoint('getNumberOfComments'), (req) => commentsPerRow(ctx.db, baseOf(ctx, req)));
}

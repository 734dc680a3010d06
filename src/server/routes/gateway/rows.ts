/** `rows/` and `rows/{row_id}/` (§4.1, api-shapes §2.1). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { endpoint, SIZE_LIMITS } from '../../../spec/index.js';
import { cached, type ServerContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { route, type Handler } from '../../pipeline/hooks.js';
import { tooMany } from '../../pipeline/rate.js';
import { findColumn } from '../../store/model.js';
import { listRowsJson } from '../../store/row-list.js';
import { appendRows, deleteRows, getRow, updateRows } from '../../store/rows.js';
import { appendRowsRacy } from '../../store/races.js';
import { actor, baseOf, bodyOf, flag, intParam, optionalTyped, tableOf } from './common.js';

const json = (reply: FastifyReply, body: Buffer) => reply.type('application/json; charset=utf-8').send(body);

/**
 * Mutant `bulk-calls-weighted` (SIZE-7): maximal calls (1,000 rows listed, appended or updated;
 * 10,000 deleted) weigh more than one call behind the client's back — the fourth in a window
 * on a base answers 429 while the x-ratelimit headers still show the budget left.
 */
const heavyCalls = new WeakMap<ServerContext, Map<string, { window: number; n: number }>>();
function heavyRefused(ctx: ServerContext, baseUuid: string, rows: number, max: number): boolean {
  if (rows < max || !ctx.faults.has('bulk-calls-weighted')) return false;
  const byBase = heavyCalls.get(ctx) ?? new Map<string, { window: number; n: number }>();
  heavyCalls.set(ctx, byBase);
  const window = Math.floor(ctx.now() / (ctx.opts.rateWindowSeconds * 1000));
  const e = byBase.get(baseUuid);
  const entry = e && e.window === window ? e : { window, n: 0 };
  entry.n++;
  byBase.set(baseUuid, entry);
  return entry.n > 3;
}
const arrayLength = (v: unknown) => (Array.isArray(v) ? v.length : 0);

export function rowHandlers(ctx: ServerContext) {
  const list: Handler = (req, reply) => {
    const base = baseOf(ctx, req);
    const q = req.query as Record<string, string | undefined>;
    const table = tableOf(base, q.table_name ?? q.table_id);
    const body = cached(ctx, base.uuid, base.version, req.url, (c) => {
      const view =
        q.view_name || q.view_id ? table.views.find((v) => v.name === q.view_name || v._id === q.view_id) : undefined;
      if ((q.view_name || q.view_id) && !view) throw badRequest(`view ${q.view_name ?? q.view_id} not found`);
      const asked = intParam(q.limit, 'limit', SIZE_LIMITS.listRows, 1);
      const limit =
        asked > SIZE_LIMITS.listRows && ctx.faults.has('list-no-cap') ? asked : Math.min(asked, SIZE_LIMITS.listRows);
      const start = intParam(q.start, 'start', 0, 0);
      const orderBy =
        q.order_by && (ctx.behaviour.rowListOrderBy || ctx.faults.has('honour-order-by'))
          ? findColumn(table, q.order_by)
          : undefined;
      return listRowsJson(
        ctx,
        base,
        table,
        { start, limit, view, orderBy, descending: q.direction === 'desc', byName: flag(q.convert_keys) },
        c.rows,
      );
    });
    // A list of the maximum rows is longer than 10 bytes a row: shorter answers never query the switch (coverage).
    if (
      body.length > 10 * SIZE_LIMITS.listRows &&
      ctx.faults.has('bulk-calls-weighted') &&
      heavyRefused(
        ctx,
        base.uuid,
        (JSON.parse(body.toString()) as { rows: unknown[] }).rows.length,
        SIZE_LIMITS.listRows,
      )
    )
      return tooMany(ctx, reply);
    return json(reply, body);
  };
  const get: Handler = (req, reply) => {
    const base = baseOf(ctx, req);
    const q = req.query as Record<string, string | undefined>;
    const table = tableOf(base, q.table_name ?? q.table_id);
    const rowId = (req.params as { row_id: string }).row_id;
    return json(
      reply,
      cached(ctx, base.uuid, base.version, req.url, () =>
        JSON.stringify(getRow(ctx, base, table, rowId, flag(q.convert_keys))),
      ),
    );
  };
  const append: Handler = (req, reply) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    optionalTyped(b, { apply_default: 'boolean' });
    if (heavyRefused(ctx, base.uuid, arrayLength(b.rows), SIZE_LIMITS.appendRows)) return tooMany(ctx, reply);
    const table = tableOf(base, b.table_name ?? b.table_id);
    if (ctx.faults.has('append-race')) return appendRowsRacy(ctx, base, table, b.rows, actor(req)); // mutant: concurrent appends lose rows
    return appendRows(ctx, base, table, b.rows, actor(req));
  };
  const update: Handler = (req, reply) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    if (heavyRefused(ctx, base.uuid, arrayLength(b.updates), SIZE_LIMITS.updateRows)) return tooMany(ctx, reply);
    // A single {row_id, row} is accepted as one update, as the legacy endpoint took it.
    const updates = b.updates ?? (b.row_id !== undefined ? [{ row_id: b.row_id, row: b.row }] : undefined);
    return updateRows(ctx, base, tableOf(base, b.table_name ?? b.table_id), updates, actor(req));
  };
  const remove: Handler = (req, reply) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    if (heavyRefused(ctx, base.uuid, arrayLength(b.row_ids), SIZE_LIMITS.deleteRows)) return tooMany(ctx, reply);
    const ids = b.row_ids ?? (b.row_id !== undefined ? [b.row_id] : undefined);
    return deleteRows(ctx, base, tableOf(base, b.table_name ?? b.table_id), ids, actor(req));
  };
  return { list, get, append, update, remove };
}

export function registerRows(app: FastifyInstance, ctx: ServerContext): void {
  const h = rowHandlers(ctx);
  route(app, ctx, endpoint('listRows'), h.list);
  route(app, ctx, endpoint('getRow'), h.get);
  route(app, ctx, endpoint('appendRows'), h.append);
  route(app, ctx, endpoint('updateRows'), h.update);
  route(app, ctx, endpoint('deleteRows'), h.remove);
}

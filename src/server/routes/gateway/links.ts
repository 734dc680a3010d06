/** `links/` POST, PUT, DELETE (api-shapes §2.4). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { route, type Handler } from '../../pipeline/hooks.js';
import { changeLinks, type LinkMap } from '../../store/links.js';
import { anyStore } from '../../store/big-data/store.js';
import type { Base } from '../../store/model.js';
import { touch } from '../../store/rows.js';
import { baseOf, bodyOf, tableOf } from './common.js';

type Op = 'add' | 'replace' | 'remove';

function parseMap(v: unknown): LinkMap {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw badRequest('other_rows_ids_map must be an object {row_id: [other_row_id, ...]}');
  for (const [k, list] of Object.entries(v)) {
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string'))
      throw badRequest(`other_rows_ids_map[${k}] must be an array of row ids`);
  }
  return v as LinkMap;
}

/** The link both named tables share, and which side `table` is on. */
export function linkHandler(
  ctx: ServerContext,
  op: Op,
  base: Base | ((req: import('fastify').FastifyRequest) => Base) = (req) => baseOf(ctx, req),
): Handler {
  return (req) => {
    const b = bodyOf(req);
    const theBase = typeof base === 'function' ? base(req) : base;
    const table = tableOf(theBase, b.table_name ?? b.table_id);
    const other = tableOf(theBase, b.other_table_name ?? b.other_table_id, 'other_table_name');
    if (typeof b.link_id !== 'string') throw badRequest("link_id is required (the link column's data.link_id)");
    const col = table.columns.find((c) => c.type === 'link' && c.data?.link_id === b.link_id);
    if (!col) throw badRequest(`link ${b.link_id} not found in table ${table.name}`);
    const sideIsTable = col.data?.table_id === table._id;
    const otherId = sideIsTable ? col.data?.other_table_id : col.data?.table_id;
    if (otherId !== other._id) throw badRequest(`link ${b.link_id} does not join ${table.name} and ${other.name}`);
    const map = parseMap(b.other_rows_ids_map);
    if (op !== 'remove') {
      const mine = Object.keys(map);
      const theirs = [...new Set(Object.values(map).flat())];
      const count = (t: typeof table, ids: string[]) =>
        (
          theBase.db
            .prepare(
              `SELECT count(*) AS n FROM ${anyStore(theBase.db, t)} WHERE _id IN (SELECT value FROM json_each(?))`,
            )
            .get(JSON.stringify(ids)) as { n: number }
        ).n;
      if (count(table, mine) !== mine.length || count(other, theirs) !== theirs.length)
        throw badRequest('row_not_exist', 'gateway', { error_type: 'row_not_exist' });
    }
    let changed: number;
    try {
      changed = changeLinks(theBase, b.link_id, sideIsTable, map, op);
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw badRequest('link exists');
      throw e;
    }
    touch(theBase);
    return op === 'remove' ? { deleted_links_count: changed } : { success: true };
  };
}

export function registerLinks(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('createLinks'), linkHandler(ctx, 'add'));
  route(app, ctx, endpoint('updateLinks'), linkHandler(ctx, 'replace'));
  route(app, ctx, endpoint('deleteLinks'), linkHandler(ctx, 'remove'));
}

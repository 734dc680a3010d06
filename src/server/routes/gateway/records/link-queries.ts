/** query-links/ (BASE-5), auto-links/ and auto-link-task/. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoint } from '../../../../spec/index.js';
import type { ServerContext } from '../../../context.js';
import { badRequest } from '../../../errors.js';
import { route } from '../../../pipeline/hooks.js';
import { autoLink, queryLinks, type LinkPage, type MatchingKey } from '../../../store/link-queries.js';
import { findColumn } from '../../../store/model.js';
import { recordTask, taskStatus } from '../../../store/records/tasks.js';
import { touch } from '../../../store/rows.js';
import { baseOf, bodyOf, tableOf } from '../common.js';
import { query } from './params.js';

/** Records per row when a row names no limit (the OpenAPI's default), and the most one page may ask for. */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

function pagesOf(v: unknown): LinkPage[] {
  if (!Array.isArray(v)) throw badRequest('rows must be an array of {row_id, offset, limit}');
  return v.map((r, i) => {
    if (!r || typeof r !== 'object' || typeof (r as { row_id?: unknown }).row_id !== 'string')
      throw badRequest(`rows[${i}] must be an object with a row_id`);
    const {
      row_id: rowId,
      offset = 0,
      limit = DEFAULT_LIMIT,
    } = r as { row_id: string; offset?: unknown; limit?: unknown };
    if (!Number.isSafeInteger(offset) || (offset as number) < 0)
      throw badRequest(`rows[${i}].offset must be an integer ≥ 0`);
    if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_LIMIT)
      throw badRequest(`rows[${i}].limit must be an integer from 1 to ${MAX_LIMIT}`);
    return { row_id: rowId, offset: offset as number, limit: limit as number };
  });
}

function keysOf(v: unknown): MatchingKey[] {
  if (!Array.isArray(v) || v.length === 0)
    throw badRequest('matching_keys must be a non-empty array of {table1_key, table2_key}');
  return v.map((k, i) => {
    const { table1_key: a, table2_key: b } = (k ?? {}) as Record<string, unknown>;
    if (typeof a !== 'string' || typeof b !== 'string')
      throw badRequest(`matching_keys[${i}] needs table1_key and table2_key (column keys)`);
    return { table1_key: a, table2_key: b };
  });
}

/** The task id of auto-link-task: documented as a GET whose JSON body is the id; the query string also works. */
async function taskIdOf(req: FastifyRequest): Promise<string> {
  const q = query(req).task_id;
  if (q) return q;
  let raw = '';
  for await (const chunk of req.raw) {
    raw += String(chunk);
    if (raw.length > 1024) throw badRequest('the body of auto-link-task is a task id');
  }
  let v: unknown;
  try {
    v = raw.trim() ? JSON.parse(raw) : undefined;
  } catch {
    v = raw.trim();
  }
  const id = typeof v === 'string' ? v : (v as { task_id?: unknown } | undefined)?.task_id;
  if (typeof id !== 'string' || !id) throw badRequest('task_id is required (the id auto-links answered)');
  return id;
}

export function registerLinkQueries(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('listRowLinks'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    const table = tableOf(base, b.table_name ?? b.table_id);
    const name = b.link_column_name ?? b.link_column_key;
    if (typeof name !== 'string' || !name) throw badRequest('link_column_name is required (or link_column_key)');
    const col = findColumn(table, name);
    if (!col || col.type !== 'link') throw badRequest(`${name} is not a link column of table ${table.name}`);
    return queryLinks(ctx, base, table, col, pagesOf(b.rows));
  });
  route(app, ctx, endpoint('autoLinks'), (req) => {
    const base = baseOf(ctx, req);
    const b = bodyOf(req);
    if (typeof b.link_id !== 'string' || !b.link_id) throw badRequest('link_id is required');
    const made = autoLink(ctx, base, b.link_id, keysOf(b.matching_keys), ctx.now());
    touch(base);
    return {
      task_id: recordTask(ctx.db, base, 'auto-links', 'success', { link_id: b.link_id, links: made }, ctx.now()),
    };
  });
  route(app, ctx, endpoint('autoLinkTask'), async (req) =>
    taskStatus(ctx.db, baseOf(ctx, req), await taskIdOf(req), 'auto-links'),
  );
}

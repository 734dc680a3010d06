/**
 * Export a base as a zip, with or without its assets (ACCT-7; system-admin and user paths),
 * and convert a (big-data) view to Excel: the answer is a task id, the task is recorded and
 * run after the answer, its workbook kept in `io_tasks`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { baseFiles, viewWorkbook, zipOf } from '../../store/account/export.js';
import { orgOfBase } from '../../store/account/orgs.js';
import { createTask, finishTask } from '../../store/account/tasks.js';
import { findTable, type Base } from '../../store/model.js';
import type { User } from '../../store/store.js';
import { bool, str, userOf, workspaceBaseOf } from './common.js';
import { logOperation } from './services.js';

export function registerExport(app: FastifyInstance, ctx: ServerContext): void {
  const send = (reply: FastifyReply, user: User, base: Base, q: Record<string, unknown>) => {
    const ignore = bool(q.ignore_asset, 'ignore_asset') ?? false;
    // Before 4.3 there was no option: assets always went along.
    const withAssets = !ctx.behaviour.exportAssetOption || !ignore || ctx.faults.has('export-assets-always');
    const files = baseFiles(ctx, base, withAssets);
    logOperation(ctx, user, orgOfBase(ctx.db, base.uuid), 'base', 'base_export', {
      base_name: base.name,
      with_assets: withAssets,
    });
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${encodeURIComponent(base.name)}.dtable"`)
      .send(zipOf(files, ctx.now()));
  };

  route(app, ctx, endpoint('exportBase'), (req, reply) => {
    const uuid = (req.params as { base_uuid: string }).base_uuid;
    const base = ctx.store.base(uuid);
    if (!base) throw notFound(`dtable ${uuid} not found.`, 'web');
    return send(reply, userOf(req), base, req.query as Record<string, unknown>);
  });

  route(app, ctx, endpoint('exportBaseUser'), (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const user = userOf(req);
    const base = workspaceBaseOf(ctx, user, (req.params as { workspace_id: string }).workspace_id, q.dtable_name);
    return send(reply, user, base, q);
  });

  const pending = new Set<Promise<void>>();
  ctx.closers.push(async () => {
    await Promise.allSettled([...pending]);
  });

  route(app, ctx, endpoint('convertBigDataViewToExcel'), (req) => {
    const user = userOf(req);
    const p = req.params as { workspace_id: string; base_name: string };
    const q = req.query as Record<string, unknown>;
    const base = workspaceBaseOf(ctx, user, p.workspace_id, p.base_name);
    const tableId = str(q.table_id ?? q.table_name, 'table_id', { required: true })!;
    const viewId = str(q.view_id ?? q.view_name, 'view_id', { required: true })!;
    const table = findTable(base.meta, tableId);
    if (!table) throw notFound(`Table ${tableId} not found.`, 'web');
    const view = table.views.find((v) => v._id === viewId) ?? table.views.find((v) => v.name === viewId);
    if (!view) throw notFound(`View ${viewId} not found.`, 'web');
    const task = createTask(ctx.db, {
      kind: 'convert-big-data-view-to-excel',
      baseUuid: base.uuid,
      userId: user.id,
      params: { table_id: table._id, view_id: view._id },
      at: ctx.now(),
    });
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => viewWorkbook(ctx, base, table, view))
      .then(
        (xlsx) => finishTask(ctx.db, task.id, { ok: true, result: xlsx }, ctx.now()),
        (e: unknown) => finishTask(ctx.db, task.id, { ok: false, error: (e as Error).message }, ctx.now()),
      )
      .catch(() => undefined) // the database may be closing; the task then stays "running"
      .finally(() => pending.delete(run));
    pending.add(run);
    return { task_id: task.id };
  });
}

/**
 * Append a CSV or Excel file to a table (POST multipart `file`, `dtable_uuid`, `table_name`).
 * The rows go through the rows store's append, so the type checks and the 1,000-rows-per-call
 * limit of the rows API apply (a larger file is refused whole), and webhooks hear of them.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, forbidden, HttpError, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { ImportError, readSheet, rowsFromSheet } from '../../store/account/import.js';
import { canUseBase, orgOfBase } from '../../store/account/orgs.js';
import { findTable } from '../../store/model.js';
import { appendRows } from '../../store/rows.js';
import { formOf, str, userOf, workspaceOf } from './common.js';
import { logOperation } from './services.js';

export function registerImport(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('appendExcelCsvToTable'), async (req) => {
    const user = userOf(req);
    const ws = workspaceOf(ctx, user, (req.params as { workspace_id: string }).workspace_id);
    const { fields, files } = formOf(req);
    const uuid = str(fields.dtable_uuid, 'dtable_uuid', { required: true })!;
    const tableName = str(fields.table_name, 'table_name', { required: true })!;
    const file = files.file;
    if (!file || !file.data.length)
      throw badRequest('file invalid: a multipart field `file` with a .csv or .xlsx file is expected.', 'web');
    const base = ctx.store.base(uuid) ?? ctx.store.allBases().find((b) => b.uuid.replace(/-/g, '') === uuid);
    if (!base || base.workspaceId !== ws.id) throw notFound(`dtable ${uuid} not found.`, 'web');
    if (!canUseBase(ctx.db, user, base)) throw forbidden();
    const table = findTable(base.meta, tableName);
    if (!table) throw notFound(`table ${tableName} not found.`, 'web');
    let rows: Record<string, unknown>[];
    try {
      rows = rowsFromSheet(table, await readSheet(file.filename, file.data));
    } catch (e) {
      if (e instanceof ImportError) throw badRequest(`file invalid: ${e.message}.`, 'web');
      throw e;
    }
    if (!rows.length) throw badRequest('file invalid: no data rows.', 'web');
    try {
      const r = appendRows(ctx, base, table, rows, user.id);
      logOperation(ctx, user, orgOfBase(ctx.db, base.uuid), 'base', 'base_import_append', {
        base_name: base.name,
        table_name: table.name,
        rows: r.inserted_row_count,
      });
      return { success: true, inserted_row_count: r.inserted_row_count };
    } catch (e) {
      // The rows store words its refusals as the gateway does; this is a dtable-web endpoint.
      if (e instanceof HttpError) throw new HttpError(e.status, e.message, 'web', e.extra);
      throw e;
    }
  });
}

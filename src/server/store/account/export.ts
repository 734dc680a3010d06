/**
 * A base as files: its structure (`metadata.json`), its rows (`rows.json`, keyed by column
 * keys as the base file keeps them) and its assets (`assets/<path>`), zipped (ACCT-7); and
 * a view's rows as an Excel workbook (the convert-to-Excel task).
 */
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { ApiRow } from '../cells.js';
import type { Base, TableMeta, ViewMeta } from '../model.js';
import { listRows } from '../row-list.js';
import type { RowsContext } from '../rows.js';
import { allAssets } from './assets.js';
import { excel } from './excel.js';

const ALL = -1; // SQLite: LIMIT -1 = no limit

export function baseFiles(ctx: RowsContext, base: Base, withAssets: boolean): [string, Buffer][] {
  const tables = base.meta.tables.map(({ phys: _phys, ...t }) => t);
  const metadata = {
    version: base.version,
    format_version: base.meta.format_version,
    dtable_uuid: base.uuid,
    name: base.name,
    tables,
  };
  const rows = {
    tables: base.meta.tables.map((t) => ({
      _id: t._id,
      name: t.name,
      rows: listRows(ctx, base, t, { start: 0, limit: ALL, byName: false }),
    })),
  };
  const files: [string, Buffer][] = [
    ['metadata.json', Buffer.from(JSON.stringify(metadata))],
    ['rows.json', Buffer.from(JSON.stringify(rows))],
  ];
  if (withAssets) for (const a of allAssets(ctx.db, base.uuid)) files.push([`assets/${a.path}`, a.data]);
  return files;
}

export function zipOf(files: [string, Buffer][], at: number): Readable {
  const zip = new yazl.ZipFile();
  const mtime = new Date(at);
  for (const [name, data] of files) zip.addBuffer(data, name, { mtime });
  zip.end();
  return zip.outputStream as Readable;
}

const cellText = (v: unknown): string | number | boolean | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (Array.isArray(v))
    return v
      .map((x) =>
        x && typeof x === 'object' && 'display_value' in x
          ? String((x as { display_value: unknown }).display_value ?? '')
          : typeof x === 'object'
            ? JSON.stringify(x)
            : String(x),
      )
      .join(', ');
  return JSON.stringify(v);
};

/** The rows of a view as an .xlsx workbook: a header row of column names, then one row per base row. */
export async function viewWorkbook(ctx: RowsContext, base: Base, table: TableMeta, view: ViewMeta): Promise<Buffer> {
  const rows: ApiRow[] = listRows(ctx, base, table, { start: 0, limit: ALL, view, byName: true });
  const columns = table.columns.filter((c) => !view.hidden_columns.includes(c.key));
  const wb = new (await excel()).Workbook();
  const ws = wb.addWorksheet(view.name.slice(0, 31) || 'Sheet1');
  ws.addRow(columns.map((c) => c.name));
  for (const r of rows) ws.addRow(columns.map((c) => cellText(r[c.name])));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

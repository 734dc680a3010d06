/**
 * Rows from a CSV or Excel file (append-excel-csv-to-table): the first row names the
 * columns; cells are turned into the values the rows API takes for each column type, and
 * the rows are appended by the rows store itself, so its checks and limits apply.
 */
import type ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { excel } from './excel.js';
import { jsonTextDepth } from '../../../common/json-depth.js';
import { INPUT_LIMITS } from '../../../spec/index.js';
import type { ColumnMeta, TableMeta } from '../model.js';

export class ImportError extends Error {}

type Cell = string | number | boolean | Date | null;

/** Header and data rows of the file's first sheet. */
export async function readSheet(filename: string, data: Buffer): Promise<Cell[][]> {
  const ext = /\.([A-Za-z]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (ext === 'csv') {
    try {
      return parse(data, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
    } catch (e) {
      throw new ImportError(`the CSV file cannot be read: ${(e as Error).message}`);
    }
  }
  if (ext === 'xlsx') {
    const wb = new (await excel()).Workbook();
    try {
      await wb.xlsx.load(data as unknown as ArrayBuffer);
    } catch (e) {
      throw new ImportError(`the Excel file cannot be read: ${(e as Error).message}`);
    }
    const ws = wb.worksheets[0];
    if (!ws) throw new ImportError('the Excel file has no worksheet');
    const out: Cell[][] = [];
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: Cell[] = [];
      for (let i = 1; i <= row.cellCount; i++) cells.push(excelValue(row.getCell(i).value));
      out.push(cells);
    });
    return out;
  }
  throw new ImportError(`${ext ?? 'no'} extension: a .csv or .xlsx file is expected`);
}

function excelValue(v: ExcelJS.CellValue): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object' && 'result' in v) return excelValue((v as { result?: ExcelJS.CellValue }).result ?? null);
  if (typeof v === 'object' && 'richText' in v)
    return (v as ExcelJS.CellRichTextValue).richText.map((t) => t.text).join('');
  if (typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text);
  return String(v);
}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A file cell as the rows API takes it for this column; a value it cannot read is passed on for the rows store to refuse. */
function coerce(col: ColumnMeta, cell: Cell): unknown {
  if (cell === null || cell === '') return undefined;
  if (cell instanceof Date)
    return col.type === 'date'
      ? cell
          .toISOString()
          .replace(/T00:00:00\.000Z$/, '')
          .replace(/:\d{2}\.\d{3}Z$/, '')
          .replace('T', ' ')
      : cell.toISOString();
  const s = typeof cell === 'string' ? cell.trim() : cell;
  switch (col.type) {
    case 'number':
    case 'rate':
    case 'duration':
      return typeof s === 'string' && /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s;
    case 'checkbox':
      if (typeof s === 'boolean') return s;
      if (['true', '1', 'yes', 'x', '✓'].includes(String(s).toLowerCase())) return true;
      if (['false', '0', 'no', ''].includes(String(s).toLowerCase())) return false;
      return s;
    case 'multiple-select':
    case 'collaborator':
    case 'image':
      return typeof s === 'string' ? list(s) : s;
    case 'geolocation':
    case 'file':
      // A cell nested past the body limit stays text, for the rows store to refuse like any bad cell.
      if (typeof s === 'string' && jsonTextDepth(s, INPUT_LIMITS.jsonDepth) <= INPUT_LIMITS.jsonDepth) {
        try {
          return JSON.parse(s) as unknown;
        } catch {
          return s;
        }
      }
      return s;
    default:
      return typeof s === 'string' ? s : String(s);
  }
}

/** Row objects keyed by column name; file columns matching no column of the table are left out. */
export function rowsFromSheet(table: TableMeta, sheet: Cell[][]): Record<string, unknown>[] {
  const [header, ...data] = sheet;
  if (!header || header.every((h) => h === null || h === '')) throw new ImportError('the file has no header row');
  const cols = header.map((h) => (h === null ? undefined : table.columns.find((c) => c.name === String(h).trim())));
  if (!cols.some(Boolean)) throw new ImportError(`no column of the file matches a column of table ${table.name}`);
  return data.map((cells) => {
    const row: Record<string, unknown> = {};
    cols.forEach((col, i) => {
      if (!col) return;
      const v = coerce(col, cells[i] ?? null);
      if (v !== undefined) row[col.name] = v;
    });
    return row;
  });
}

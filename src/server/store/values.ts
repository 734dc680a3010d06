/**
 * Cell values: checking and encoding what a client writes, decoding what is stored.
 * Only column types clients write through `rows/` are stored; the others are computed
 * at read time (see cells.ts).
 */
import { randomInt } from 'node:crypto';
import { COLUMNS, type Behaviour } from '../../spec/index.js';
import type { ColumnMeta } from './model.js';

export type Stored = string | number | null;
export type Encoded = { ok: true; stored: Stored; schemaChanged?: boolean } | { ok: false; message: string };

const JSON_TYPES = new Set(['multiple-select', 'collaborator', 'image', 'file', 'geolocation']);
const OPTION_COLORS = ['#FFFCB5', '#FFEAB6', '#FFD9C8', '#E8F5E9', '#DEEBFF', '#EDE7F6'];

interface SelectOption { id: string; name: string; color: string; textColor: string }

function options(col: ColumnMeta): SelectOption[] {
  const data = (col.data ??= {});
  if (!Array.isArray(data.options)) data.options = [];
  return data.options as SelectOption[];
}

/** Make sure each named option exists; create the unknown ones where the release does (SHAPE-4). */
function ensureOptions(col: ColumnMeta, names: string[], b: Behaviour): { ok: boolean; created: boolean; missing?: string } {
  const opts = options(col);
  let created = false;
  for (const name of names) {
    if (opts.some((o) => o.name === name)) continue;
    if (!b.createUnknownSelectOptions) return { ok: false, created, missing: name };
    opts.push({ id: String(randomInt(100000, 999999)), name, color: OPTION_COLORS[opts.length % OPTION_COLORS.length]!, textColor: '#202428' });
    created = true;
  }
  return { ok: true, created };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Dates as the real service accepts them (`2030/06/20`, `6/5/2024`, `20.06.2030 23:55`, ISO); stored ISO-like. */
export function normaliseDate(input: string): string | undefined {
  const s = input.trim();
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(s);
  let y: number, mo: number, d: number, h: number | undefined, mi: number | undefined;
  if (m) [y, mo, d, h, mi] = [+m[1]!, +m[2]!, +m[3]!, m[4] === undefined ? undefined : +m[4], m[5] === undefined ? undefined : +m[5]];
  else if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?: (\d{1,2}):(\d{2}))?$/.exec(s))) [d, mo, y, h, mi] = [+m[1]!, +m[2]!, +m[3]!, m[4] === undefined ? undefined : +m[4], m[5] === undefined ? undefined : +m[5]];
  else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s))) [mo, d, y] = [+m[1]!, +m[2]!, +m[3]!];
  else return undefined;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return undefined;
  if (h !== undefined && (h > 23 || (mi ?? 0) > 59)) return undefined;
  const day = `${y}-${pad(mo)}-${pad(d)}`;
  return h === undefined ? day : `${day} ${pad(h)}:${pad(mi ?? 0)}`;
}

function durationSeconds(v: number | string): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? v : undefined;
  const parts = v.split(':').map(Number);
  if (parts.some((p) => !Number.isFinite(p))) return undefined;
  if (parts.length === 1) return parts[0];
  if (parts.length === 2) return parts[0]! * 3600 + parts[1]! * 60;
  return parts[0]! * 3600 + parts[1]! * 60 + parts[2]!;
}

/** Any JSON value as SQLite can bind it (objects as JSON text, booleans as 0/1). */
export const looseStored = (v: unknown): Stored => (typeof v === 'object' && v !== null ? JSON.stringify(v) : typeof v === 'boolean' ? (v ? 1 : 0) : (v as Stored));

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`);

const isString = (v: unknown) => typeof v === 'string';
/** Values the facts module's write schema accepts as they are, checked without it. */
const PLAIN: Partial<Record<ColumnMeta['type'], (v: unknown) => boolean>> = {
  text: isString, 'long-text': isString, url: isString, email: isString, 'single-select': isString,
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  checkbox: (v) => typeof v === 'boolean',
};

function wrong(col: ColumnMeta, value: unknown): Encoded {
  return { ok: false, message: `column "${col.name}" (${col.type}): ${describe(value)} is not a valid value` };
}

/** Check and encode one written value of a writable column. */
export function encodeValue(col: ColumnMeta, value: unknown, b: Behaviour): Encoded {
  if (value === null || value === undefined || value === '') return { ok: true, stored: null };
  const spec = COLUMNS[col.type];
  // The common plain values skip the schema (same verdict, a fraction of the cost per cell).
  const parsed = PLAIN[col.type]?.(value) ? { success: true as const, data: value } : spec.write.safeParse(value);
  if (!parsed.success) {
    // Before 4.1 the real service stored what it was given (SHAPE-7's "stricter checks").
    if (!b.strictRowChecks) return { ok: true, stored: looseStored(value) };
    return wrong(col, value);
  }
  const v = parsed.data as never;
  switch (col.type) {
    case 'number': return { ok: true, stored: Number(v) };
    case 'rate': return { ok: true, stored: Number(v) };
    case 'checkbox': return { ok: true, stored: v ? 1 : 0 };
    case 'duration': {
      const s = durationSeconds(v);
      return s === undefined ? wrong(col, value) : { ok: true, stored: s };
    }
    case 'date': {
      const d = normaliseDate(v);
      return d === undefined ? wrong(col, value) : { ok: true, stored: d };
    }
    case 'single-select': {
      const r = ensureOptions(col, [v], b);
      return r.ok ? { ok: true, stored: v, schemaChanged: r.created } : { ok: false, message: `column "${col.name}": option "${r.missing}" does not exist` };
    }
    case 'multiple-select': {
      const names = [...new Set(v as string[])];
      const r = ensureOptions(col, names, b);
      return r.ok ? { ok: true, stored: JSON.stringify(names), schemaChanged: r.created } : { ok: false, message: `column "${col.name}": option "${r.missing}" does not exist` };
    }
    default:
      return { ok: true, stored: JSON_TYPES.has(col.type) ? JSON.stringify(v) : (v as Stored) };
  }
}

function parseJsonCell(stored: unknown): unknown {
  if (stored === null || stored === undefined) return null;
  if (typeof stored !== 'string') return stored;
  try {
    return JSON.parse(stored);
  } catch {
    return stored;
  }
}
const asStored = (stored: unknown) => stored ?? null;
const asCheckbox = (stored: unknown) => (stored === null || stored === undefined ? null : stored === 1 || stored === true || stored === '1' || stored === 'true');

/** How a column's stored values decode to their API shape (chosen once per column, applied per cell). */
export function decoderOf(col: ColumnMeta): (stored: unknown) => unknown {
  if (col.type === 'checkbox') return asCheckbox;
  return JSON_TYPES.has(col.type) ? parseJsonCell : asStored;
}

/** Decode a stored value to its API shape. */
export function decodeValue(col: ColumnMeta, stored: unknown): unknown {
  return decoderOf(col)(stored);
}

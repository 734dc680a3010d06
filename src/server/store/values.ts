/**
 * Cell values: checking and encoding what a client writes, decoding what is stored.
 * Only column types clients write through `rows/` are stored; the others are computed
 * at read time (see cells.ts).
 */
import { COLUMNS, instantOf, parseDate, type Behaviour } from '../../spec/index.js';
import type { ColumnMeta } from './model.js';
import { ensureOptions } from './options.js';

export type Stored = string | number | null;
type Encoded = { ok: true; stored: Stored; schemaChanged?: boolean } | { ok: false; message: string };

const JSON_TYPES = new Set(['multiple-select', 'collaborator', 'image', 'file', 'geolocation']);
/** Each named option must exist; unknown ones are created where the release does (SHAPE-4). */
function selectOptions(
  col: ColumnMeta,
  names: string[],
  b: Behaviour,
): { ok: boolean; created: boolean; missing?: string } {
  const r = ensureOptions(col, names, b.createUnknownSelectOptions);
  return { ok: r.missing === undefined, ...r };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A written date as stored: in UTC, the server's zone (a time written without a zone is taken
 * in it; one with a zone is converted), `YYYY-MM-DD` for a date and `YYYY-MM-DD HH:mm[:ss[.SSS]]`
 * for a date-time, so stored dates sort and filter as text. Undefined: no real moment.
 */
export function storedDate(input: string, format: unknown): string | undefined {
  const p = parseDate(input, format);
  if (!p) return undefined;
  if (!p.time) return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}`;
  const u = new Date(instantOf(p));
  const [s, ms] = [u.getUTCSeconds(), u.getUTCMilliseconds()];
  const seconds = s || ms ? `:${pad(s)}${ms ? `.${pad(ms, 3)}` : ''}` : '';
  return `${pad(u.getUTCFullYear(), 4)}-${pad(u.getUTCMonth() + 1)}-${pad(u.getUTCDate())} ${pad(u.getUTCHours())}:${pad(u.getUTCMinutes())}${seconds}`;
}

/**
 * A stored date as the service reads it: ISO with an offset, midnight for a date-only value
 * (api-shapes §3). Text that is no date (an SQL write stores what it is given) reads as it is.
 */
function dateDecoder(format: unknown): (stored: unknown) => unknown {
  return (stored) => {
    if (typeof stored !== 'string') return stored ?? null;
    const p = parseDate(stored, format);
    return p ? new Date(instantOf(p)).toISOString().replace(/(\.000)?Z$/, '+00:00') : stored;
  };
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
export const looseStored = (v: unknown): Stored =>
  typeof v === 'object' && v !== null ? JSON.stringify(v) : typeof v === 'boolean' ? (v ? 1 : 0) : (v as Stored);

const describe = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;

const isString = (v: unknown) => typeof v === 'string';
/** Values the facts module's write schema accepts as they are, checked without it. */
const PLAIN: Partial<Record<ColumnMeta['type'], (v: unknown) => boolean>> = {
  text: isString,
  'long-text': isString,
  url: isString,
  email: isString,
  'single-select': isString,
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  checkbox: (v) => typeof v === 'boolean',
};

function wrong(col: ColumnMeta, value: unknown): Encoded {
  return { ok: false, message: `column "${col.name}" (${col.type}): ${describe(value)} is not a valid value` };
}

/**
 * Check and encode one written value of a writable column. `faults`: mutant lax-types stores
 * the wrong values the real service is recorded coercing as they were given instead.
 */
export function encodeValue(col: ColumnMeta, value: unknown, b: Behaviour, faults: ReadonlySet<string>): Encoded {
  const lax = () => faults.has('lax-types');
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
    case 'number':
      return { ok: true, stored: Number(v) };
    case 'rate':
      return { ok: true, stored: Number(v) };
    // A number is stored as false, as the real service does (COLUMNS.checkbox.wrongAccepted).
    case 'checkbox':
      return { ok: true, stored: v === true || (typeof v === 'number' && lax() && v !== 0) ? 1 : 0 };
    case 'duration': {
      const s = durationSeconds(v);
      return s === undefined ? wrong(col, value) : { ok: true, stored: s };
    }
    // Text that is no date, or a date of the right form that names no real moment (month 13,
    // 31 February), is stored empty without an error, as the real service does (api-shapes §3,
    // COLUMNS.date.wrongAccepted).
    case 'date':
      return { ok: true, stored: storedDate(v, col.data?.format) ?? (lax() ? v : null) };
    case 'single-select': {
      const r = selectOptions(col, [v], b);
      return r.ok
        ? { ok: true, stored: v, schemaChanged: r.created }
        : { ok: false, message: `column "${col.name}": option "${r.missing}" does not exist` };
    }
    case 'multiple-select': {
      // A plain string is taken as one option name (COLUMNS['multiple-select'].wrongAccepted).
      if (typeof v === 'string' && lax()) return { ok: true, stored: JSON.stringify(v) };
      const names = [...new Set(typeof v === 'string' ? [v] : (v as string[]))];
      const r = selectOptions(col, names, b);
      return r.ok
        ? { ok: true, stored: JSON.stringify(names), schemaChanged: r.created }
        : { ok: false, message: `column "${col.name}": option "${r.missing}" does not exist` };
    }
    // Written over the sequence's own number, as the real service does (COLUMNS['auto-number'].wrongAccepted).
    case 'auto-number':
      return { ok: true, stored: String(v) };
    default:
      return { ok: true, stored: JSON_TYPES.has(col.type) ? JSON.stringify(v) : (v as Stored) };
  }
}

/** A stored string: one holding NUL was stored as its UTF-8 bytes (sqlite.ts). */
const textOf = (stored: unknown): unknown =>
  stored instanceof Uint8Array ? Buffer.from(stored).toString('utf8') : stored;

function parseJsonCell(cell: unknown): unknown {
  if (cell === null || cell === undefined) return null;
  const stored = textOf(cell);
  if (typeof stored !== 'string') return stored;
  try {
    return JSON.parse(stored);
  } catch {
    return stored;
  }
}
const asStored = (stored: unknown) => textOf(stored) ?? null;
const asCheckbox = (stored: unknown) =>
  stored === null || stored === undefined
    ? null
    : stored === 1 || stored === true || stored === '1' || stored === 'true';

/** How a column's stored values decode to their API shape (chosen once per column, applied per cell). */
export function decoderOf(col: ColumnMeta): (stored: unknown) => unknown {
  if (col.type === 'checkbox') return asCheckbox;
  if (col.type === 'date') return dateDecoder(col.data?.format);
  return JSON_TYPES.has(col.type) ? parseJsonCell : asStored;
}

/** Decode a stored value to its API shape. */
export function decodeValue(col: ColumnMeta, stored: unknown): unknown {
  return decoderOf(col)(stored);
}

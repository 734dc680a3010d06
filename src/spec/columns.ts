/**
 * Column types (§2, api-shapes §3) and the shape of their values. `read` is what a row read
 * may return for a set value (`null` is always allowed, SHAPE-1); it admits the variations
 * real servers show (a date with or without time and offset, a numeric link-formula as a
 * number or an array). `write` is what the reference server accepts on append/update: the
 * values of the type, and the wrong ones the real service is recorded accepting (`wrongAccepted`).
 */
import { z } from 'zod';
import { sameDate } from './dates.js';
import { ev, type Evidence } from './evidence.js';

export const COLUMN_TYPES = [
  'text', 'long-text', 'number', 'checkbox', 'date', 'duration', 'single-select', 'multiple-select',
  'link', 'link-formula', 'formula', 'collaborator', 'url', 'email', 'rate', 'auto-number',
  'ctime', 'mtime', 'creator', 'last-modifier', 'geolocation', 'file', 'image',
] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/, 'an ISO date or date-time');
const userId = z.string().min(1);
const fileValue = z.object({ name: z.string(), size: z.number().nonnegative(), type: z.string(), url: z.string() }).loose();
const geolocation = z.union([
  z.object({ lng: z.number(), lat: z.number() }).loose(),
  // One coordinate only: the real service stores it as given (API_ISSUES item 6, below).
  z.object({ lng: z.number() }).loose(),
  z.object({ lat: z.number() }).loose(),
  z.object({ country_region: z.string() }).loose(),
  z.object({ province: z.string() }).loose(),
]);
export const linkValue = z.object({ row_id: z.string().min(1), display_value: z.unknown() }).loose();
const scalar = z.union([z.string(), z.number(), z.boolean()]);

interface ColumnSpec {
  readonly type: ColumnType;
  /** Written through row append/update (else read-only: writes are ignored, or set through links/). */
  readonly writable: 'rows' | 'links' | 'no';
  readonly read: z.ZodType;
  readonly write: z.ZodType;
  /** A valid value to write, and one of the wrong type (SHAPE-7 writes it; see `wrongAccepted`). */
  readonly sample?: unknown;
  readonly wrong?: unknown;
  /**
   * The real service recorded accepting `wrong` without an error and reading it back as
   * `stored` (the reference server does the same). Absent: nothing recorded or documented
   * shows it refusing or accepting that value, so an acceptance is only a warning (inferred).
   */
  readonly wrongAccepted?: RecordedWrite;
  /** `column_data` needed to create such a column (besides references filled by the suite). */
  readonly data?: Record<string, unknown>;
}

/** An answer recorded from the real service to a written value: what it read back as, and where it is recorded. */
interface RecordedWrite { readonly stored: unknown; readonly evidence: Evidence }

const ISSUES = 'seatable/openapi tests/API_ISSUES.md (answers of SeaTable 6.0.10)';
const recorded = (stored: unknown, cite: string): RecordedWrite => ({ stored, evidence: ev.recorded(cite) });

const spec = (s: ColumnSpec): ColumnSpec => s;
const numericString = z.string().regex(/^-?\d+(\.\d+)?$/);

export const COLUMNS: Readonly<Record<ColumnType, ColumnSpec>> = {
  text: spec({ type: 'text', writable: 'rows', read: z.string(), write: z.string(), sample: 'Ada Lovelace', wrong: { text: 'x' } }),
  'long-text': spec({ type: 'long-text', writable: 'rows', read: z.string(), write: z.string(), sample: '# Notes\n\nTwo *lines*.', wrong: ['not', 'text'] }),
  number: spec({ type: 'number', writable: 'rows', read: z.number(), write: z.union([z.number().finite(), numericString]), sample: 42.5, wrong: 'forty-two', data: { format: 'number', decimal: 'dot', thousands: 'no' } }),
  checkbox: spec({ type: 'checkbox', writable: 'rows', read: z.boolean(), write: z.union([z.boolean(), z.number()]), sample: true, wrong: 1, wrongAccepted: recorded(false, `${ISSUES} item 1: {"Checkbox": 1} is stored as false`) }),
  date: spec({ type: 'date', writable: 'rows', read: isoDate, write: z.string(), sample: '2030-06-20', wrong: 'not a date', wrongAccepted: recorded(null, `${ISSUES} item 5: {"Date": "13/31/2025"} is stored as null, no error`), data: { format: 'YYYY-MM-DD' } }),
  duration: spec({ type: 'duration', writable: 'rows', read: z.number(), write: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+(:\d{1,2}){0,2}$/)]), sample: 5400, wrong: { hours: 1 }, data: { format: 'h:mm', duration_format: 'h:mm' } }),
  'single-select': spec({ type: 'single-select', writable: 'rows', read: z.string(), write: z.string(), sample: 'Alpha', wrong: 17, data: { options: [{ name: 'Alpha', color: '#FFFCB5', textColor: '#202428', id: '100001' }] } }),
  'multiple-select': spec({ type: 'multiple-select', writable: 'rows', read: z.array(z.string()), write: z.union([z.array(z.string()), z.string()]), sample: ['Alpha', 'Beta'], wrong: 'Alpha', wrongAccepted: recorded(['Alpha'], 'natverse/fafbseg R/flytable.R, flytable_update_rows (its details: without a list per cell the service "silently creates a new bogus option out of whatever string it was given"); ' + `${ISSUES} item 2: an unknown option name is created`), data: { options: [{ name: 'Alpha', color: '#FFFCB5', textColor: '#202428', id: '100001' }, { name: 'Beta', color: '#E8F5E9', textColor: '#202428', id: '100002' }] } }),
  link: spec({ type: 'link', writable: 'links', read: z.array(linkValue), write: z.never() }),
  'link-formula': spec({ type: 'link-formula', writable: 'no', read: z.union([scalar, z.array(z.unknown())]), write: z.unknown() }),
  formula: spec({ type: 'formula', writable: 'no', read: z.union([scalar, z.array(z.unknown())]), write: z.unknown() }),
  collaborator: spec({ type: 'collaborator', writable: 'rows', read: z.array(userId), write: z.array(userId), wrong: 'someone@example.com' }),
  url: spec({ type: 'url', writable: 'rows', read: z.string(), write: z.string(), sample: 'https://example.com/a?b=c', wrong: 12 }),
  email: spec({ type: 'email', writable: 'rows', read: z.string(), write: z.string(), sample: 'ada@example.com', wrong: ['ada@example.com'] }),
  rate: spec({ type: 'rate', writable: 'rows', read: z.number().int(), write: z.union([z.number().int(), z.string().regex(/^\d+$/)]), sample: 4, wrong: 6, wrongAccepted: recorded(6, `${ISSUES} item 3: {"Rating": 8} with rate_max_number 7 is stored as 8 (zero and negative values too)`), data: { rate_max_number: 5, rate_style_color: '#FF8000', rate_style_type: 'dtable-icon-rate' } }),
  'auto-number': spec({ type: 'auto-number', writable: 'no', read: z.string(), write: z.union([z.string(), z.number()]), wrong: '9999', wrongAccepted: recorded('9999', `${ISSUES} items 4 and 7: {"Auto-Number": "9999"} is stored by appendRows and updateRow`), data: { format: '0000', max_used_auto_number: 0, digits: 4, prefix_type: null, prefix: null } }),
  ctime: spec({ type: 'ctime', writable: 'no', read: isoDate, write: z.unknown() }),
  mtime: spec({ type: 'mtime', writable: 'no', read: isoDate, write: z.unknown() }),
  creator: spec({ type: 'creator', writable: 'no', read: userId, write: z.unknown() }),
  'last-modifier': spec({ type: 'last-modifier', writable: 'no', read: userId, write: z.unknown() }),
  geolocation: spec({ type: 'geolocation', writable: 'rows', read: geolocation, write: geolocation, sample: { lng: 8.23, lat: 50.1 }, wrong: { lng: 8.2 }, wrongAccepted: recorded({ lng: 8.2 }, `${ISSUES} item 6: {"Geolocation": {"lng": 11.576}} (geo_format lng_lat) is stored as given`), data: { geo_format: 'lng_lat' } }),
  file: spec({ type: 'file', writable: 'rows', read: z.array(fileValue), write: z.array(fileValue), sample: [{ name: 'a.txt', size: 3, type: 'file', url: 'https://example.com/files/a.txt' }], wrong: 'a.txt' }),
  image: spec({ type: 'image', writable: 'rows', read: z.array(z.string()), write: z.array(z.string()), sample: ['https://example.com/images/x.png'], wrong: { url: 'x.png' } }),
};

/**
 * The row fields every row carries (api-shapes: `_id`, times, authors, the row flags), and the
 * one a column of a time or author type reads: a `ctime` column shows `_ctime`, and so on.
 */
export const INTERNAL_FIELDS = ['_id', '_ctime', '_mtime', '_creator', '_last_modifier', '_archived', '_locked', '_locked_by'] as const;
export const INTERNAL_FIELD_OF_TYPE: Readonly<Partial<Record<string, string>>> = { ctime: '_ctime', mtime: '_mtime', creator: '_creator', 'last-modifier': '_last_modifier' };

export function isColumnType(t: string): t is ColumnType {
  return (COLUMN_TYPES as readonly string[]).includes(t);
}

/**
 * Does a value read back equal what was written? Real servers normalise some types
 * (a date gains a time and offset, a numeric string becomes a number). `data` is the
 * column's `column_data`: a date's `format` says how `05/06/2024` was meant.
 */
export function sameValue(type: ColumnType, written: unknown, read: unknown, data?: Record<string, unknown> | null): boolean {
  switch (type) {
    case 'date':
      return sameDate(written, read, data?.format);
    case 'number': case 'rate': case 'duration':
      return Number(read) === Number(written);
    case 'multiple-select': case 'collaborator': case 'image':
      return Array.isArray(read) && Array.isArray(written) && read.length === written.length && written.every((w) => read.includes(w));
    default:
      return JSON.stringify(read) === JSON.stringify(written) || deepEqualLoose(written, read);
  }
}

/** `written` is contained in `read` (objects may gain fields, e.g. a file's extra keys). */
function deepEqualLoose(written: unknown, read: unknown): boolean {
  if (written === read) return true;
  if (Array.isArray(written)) return Array.isArray(read) && read.length === written.length && written.every((w, i) => deepEqualLoose(w, read[i]));
  if (written && typeof written === 'object') {
    if (!read || typeof read !== 'object') return false;
    return Object.entries(written).every(([k, v]) => deepEqualLoose(v, (read as Record<string, unknown>)[k]));
  }
  return false;
}

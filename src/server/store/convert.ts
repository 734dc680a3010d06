/**
 * Cell values across a column type change (PUT columns/ `modify_column_type`). The real
 * service's documentation names the operation but not its conversions, so these are chosen
 * to keep what can be kept and never to store a value of the wrong type:
 * - to text, long-text, url, email: the value as text (numbers as written, checkboxes
 *   "true"/"false", dates `YYYY-MM-DD[ HH:mm]`, lists and links joined with ", ");
 * - to number: numbers stay; text that is a number ("42", "-3.5", "1,234.5") is parsed;
 *   a checkbox is 1/0; anything else (unparseable text, dates) becomes empty (null);
 * - to rate and duration: as number, rounded (a duration also reads "h:mm[:ss]");
 * - to checkbox: true/false stay, numbers are checked when not 0, the words true/yes/1/x/on
 *   (false/no/0/off) are read; anything else becomes empty;
 * - to date: dates stay; text in a written date form (api-shapes §3) is parsed; else empty;
 * - to single select: the value as text names an option (a multiple select keeps its first);
 *   to multiple select: a single select becomes a list of one, text is split at commas.
 *   Options missing from the column are created, each with an id;
 * - to collaborator, image, file, geolocation: kept from the same kind of value (a user id,
 *   an image or file URL), else empty;
 * - to a computed type (formula, link-formula, ctime, mtime, creator, last-modifier): the
 *   stored values are dropped; auto-number numbers the rows in their order.
 */
import { storedDate } from './values.js';
import type { ColumnMeta } from './model.js';
import type { Stored } from './values.js';
import { ensureOptions } from './options.js';

const isBlank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

function durationText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}${s ? `:${String(s).padStart(2, '0')}` : ''}`;
}

/** A read value of a column of `from` as text, or null. */
function textOf(v: unknown, from: ColumnMeta): string | null {
  if (isBlank(v)) return null;
  if (typeof v === 'string') {
    if (from.type === 'date')
      return /T00:00(:00)?([+-]|Z)/.test(v) && !String(from.data?.format ?? '').includes('HH')
        ? v.slice(0, 10)
        : v.slice(0, 16).replace('T', ' ');
    return v;
  }
  if (typeof v === 'number') return from.type === 'duration' ? durationText(v) : String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) {
    const parts = v
      .map((x) =>
        x && typeof x === 'object'
          ? textOf((x as Record<string, unknown>).display_value ?? (x as Record<string, unknown>).name ?? null, from)
          : textOf(x, from),
      )
      .filter((x): x is string => x !== null);
    return parts.length ? parts.join(', ') : null;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.lng === 'number' && typeof o.lat === 'number') return `${o.lng}, ${o.lat}`;
  return typeof o.country_region === 'string' ? o.country_region : JSON.stringify(v);
}

function parseNumber(s: string): number | null {
  const t = s.trim();
  const plain = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)
    ? t
    : /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)
      ? t.replace(/,/g, '')
      : undefined;
  const n = plain === undefined ? NaN : Number(plain);
  return Number.isFinite(n) ? n : null;
}

function numberOf(v: unknown, from: ColumnMeta): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (from.type === 'date' || from.type === 'ctime' || from.type === 'mtime') return null;
  const t = textOf(v, from);
  return t === null ? null : parseNumber(t);
}

const TRUE = new Set(['true', 'yes', '1', 'x', 'on', 'checked']);
const FALSE = new Set(['false', 'no', '0', 'off', 'unchecked']);

function checkboxOf(v: unknown, from: ColumnMeta): Stored {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v !== 0 ? 1 : 0;
  const t = typeof v === 'string' ? textOf(v, from)?.trim().toLowerCase() : undefined;
  return t === undefined ? null : TRUE.has(t) ? 1 : FALSE.has(t) ? 0 : null;
}

function durationOf(v: unknown, from: ColumnMeta): Stored {
  if (typeof v === 'string' && /^\d+(:\d{1,2}){1,2}$/.test(v.trim())) {
    const [h, m, s] = v.trim().split(':').map(Number) as [number, number, number?];
    return h * 3600 + m * 60 + (s ?? 0);
  }
  const n = numberOf(v, from);
  return n === null || n < 0 ? null : Math.round(n);
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
const json = (list: unknown[]): Stored => (list.length ? JSON.stringify(list) : null);

/**
 * How the values of `from` become stored values of `to` (the column as it will be). Select
 * targets gain the options the values name, each with an id.
 */
export function converter(from: ColumnMeta, to: ColumnMeta): (v: unknown) => Stored {
  const same = from.type === to.type;
  switch (to.type) {
    case 'text':
    case 'long-text':
    case 'url':
    case 'email':
      return (v) => textOf(v, from);
    case 'number':
      return (v) => numberOf(v, from);
    case 'rate':
      return (v) => {
        const n = numberOf(v, from);
        return n === null || n < 0 ? null : Math.round(n);
      };
    case 'duration':
      return (v) => durationOf(v, from);
    case 'checkbox':
      return (v) => checkboxOf(v, from);
    case 'date':
      return (v) => {
        const t = typeof v === 'string' ? v : null;
        if (t === null) return null;
        return (
          storedDate(
            from.type === 'date' || from.type === 'ctime' || from.type === 'mtime'
              ? t.slice(0, 19).replace('T', ' ')
              : t,
            to.data?.format,
          ) ?? null
        );
      };
    case 'single-select':
      return (v) => {
        const name = from.type === 'multiple-select' ? (strings(v)[0] ?? null) : textOf(v, from)?.trim() || null;
        if (name !== null) ensureOptions(to, [name], true);
        return name;
      };
    case 'multiple-select':
      return (v) => {
        const names =
          from.type === 'multiple-select' || from.type === 'single-select'
            ? strings(v)
            : [
                ...new Set(
                  (textOf(v, from) ?? '')
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean),
                ),
              ];
        ensureOptions(to, names, true);
        return json(names);
      };
    case 'collaborator':
      return (v) =>
        json(
          from.type === 'collaborator' || from.type === 'creator' || from.type === 'last-modifier'
            ? strings(v)
            : strings(v).filter((s) => s.includes('@')),
        );
    case 'image':
      return (v) =>
        json(
          from.type === 'image'
            ? strings(v)
            : from.type === 'file' && Array.isArray(v)
              ? v.map((f) => (f as { url?: unknown }).url).filter((u) => typeof u === 'string')
              : strings(v).filter((s) => /^https?:\/\//.test(s)),
        );
    case 'file':
    case 'geolocation':
      return (v) => (same && !isBlank(v) ? JSON.stringify(v) : null);
    default:
      return () => null; // computed types keep no stored value
  }
}

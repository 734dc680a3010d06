/**
 * Date cells (api-shapes §3): the forms the real service takes on write, and how two written
 * forms of a date compare. The reference server parses with these to store a cell; the suites
 * compare with them what they wrote against what they read.
 *
 * The real service reads a written `05/06/2024` as 5 June in a `DD/MM/YYYY` column and as
 * 6 May in a `M/D/YYYY` one (OpenAPI test snapshots, 6.0), so the day/month order of a date
 * that does not start with its year comes from the column's `format`.
 */

/** A date as written: calendar fields, an optional time, an optional zone (minutes east of UTC). */
interface DateParts {
  y: number;
  mo: number;
  d: number;
  time?: { h: number; mi: number; s: number; ms: number };
  offset?: number;
}

/**
 * Every written form, one grammar: `YYYY-MM-DD` or `YYYY/MM/DD`, or `D/M/YYYY`, `M/D/YYYY`,
 * `D.M.YYYY` (the order by the column's format), then optionally a time `[ T]H:mm[:ss[.fff]]`
 * and a zone `Z`, `±HH:MM`, `±HHMM`. One separator per date (`2030-06/20` is no date).
 */
const WRITTEN_DATE = /^\s*(?:(\d{4})([-/])(\d{1,2})\2(\d{1,2})|(\d{1,2})([/.])(\d{1,2})\6(\d{4}))(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?\s*$/i;

type DayOrder = 'dmy' | 'mdy';

/** The day/month order a column's `format` gives (`DD/MM/YYYY`, `D.M.YYYY` → dmy; `M/D/YYYY` → mdy); none for year-first formats. */
export function formatOrder(format: unknown): DayOrder | undefined {
  if (typeof format !== 'string') return undefined;
  const f = format.trim().toUpperCase();
  return /^D{1,2}\W/.test(f) ? 'dmy' : /^M{1,2}\W/.test(f) ? 'mdy' : undefined;
}

const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (y: number, mo: number) => (mo === 2 && leap(y) ? 29 : DAYS[mo - 1]!);

function zoneMinutes(z: string): number | undefined {
  if (z.toUpperCase() === 'Z') return 0;
  const h = Number(z.slice(1, 3));
  const m = Number(z.slice(-2));
  if (h > 23 || m > 59) return undefined;
  return (z[0] === '-' ? -1 : 1) * (h * 60 + m);
}

/**
 * A written date's fields, or undefined when it is not one of the forms or names no real
 * moment (month 13, 31 February, 24:00, a zone of +25:00). Without an order from `format`,
 * slashes read month-first (US, the real service's default) and dots day-first.
 */
export function parseDate(input: string, format?: unknown): DateParts | undefined {
  const m = WRITTEN_DATE.exec(input);
  if (!m) return undefined;
  let y: number, mo: number, d: number;
  if (m[1] !== undefined) [y, mo, d] = [+m[1], +m[3]!, +m[4]!];
  else {
    const order = formatOrder(format) ?? (m[6] === '.' ? 'dmy' : 'mdy');
    const [a, b] = [+m[5]!, +m[7]!];
    [y, mo, d] = order === 'dmy' ? [+m[8]!, b, a] : [+m[8]!, a, b];
  }
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return undefined;
  const p: DateParts = { y, mo, d };
  if (m[9] === undefined) return p;
  const time = { h: +m[9], mi: +m[10]!, s: m[11] === undefined ? 0 : +m[11], ms: m[12] === undefined ? 0 : +m[12].padEnd(3, '0').slice(0, 3) };
  if (time.h > 23 || time.mi > 59 || time.s > 59) return undefined;
  p.time = time;
  if (m[13] !== undefined) {
    const offset = zoneMinutes(m[13]);
    if (offset === undefined) return undefined;
    p.offset = offset;
  }
  return p;
}

/** Milliseconds since the epoch; a date without a zone is taken as UTC (its wall-clock time). */
export function instantOf(p: DateParts): number {
  const day = new Date(0).setUTCFullYear(p.y, p.mo - 1, p.d); // Date.UTC would read years 0–99 as 19xx
  const t = p.time ?? { h: 0, mi: 0, s: 0, ms: 0 };
  return day + ((t.h * 60 + t.mi) * 60 + t.s) * 1000 + t.ms - (p.offset ?? 0) * 60_000;
}

/**
 * Do a written and a read date name the same value? By calendar day when either has no time
 * (a date-only cell may read back as midnight in the server's zone); by instant when both carry
 * a zone (`23:55+02:00` is `21:55Z`); else by wall-clock time, as the server takes a time
 * without a zone in its own zone. Text that is no date compares as text.
 */
export function sameDate(written: unknown, read: unknown, format?: unknown): boolean {
  if (typeof written !== 'string' || typeof read !== 'string') return false;
  const w = parseDate(written, format);
  const r = parseDate(read, format);
  if (!w || !r) return written === read;
  if (!w.time || !r.time) return w.y === r.y && w.mo === r.mo && w.d === r.d;
  if (w.offset !== undefined && r.offset !== undefined) return instantOf(w) === instantOf(r);
  return instantOf({ ...w, offset: 0 }) === instantOf({ ...r, offset: 0 });
}

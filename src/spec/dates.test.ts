/**
 * The harness's date facts: which written forms parse to which fields, and when a written
 * and a read date are the same value (sameValue for date columns).
 */
import { expect, test } from '@playwright/test';
import { COLUMNS, formatOrder, parseDate, sameValue } from './index.js';

const same = (written: string, read: string, format?: string) => sameValue('date', written, read, format ? { format } : undefined);

test('every written form parses to its fields; the zone is kept in minutes east of UTC', () => {
  expect(parseDate('2030-06-20')).toEqual({ y: 2030, mo: 6, d: 20 });
  expect(parseDate(' 2030/6/20 ')).toEqual({ y: 2030, mo: 6, d: 20 });
  expect(parseDate('2030-06-20T23:55')).toEqual({ y: 2030, mo: 6, d: 20, time: { h: 23, mi: 55, s: 0, ms: 0 } });
  expect(parseDate('2030-06-20 23:55:10.1234')).toEqual({ y: 2030, mo: 6, d: 20, time: { h: 23, mi: 55, s: 10, ms: 123 } });
  expect(parseDate('2030-06-20T23:55Z')?.offset).toBe(0);
  expect(parseDate('2030-06-20T23:55:00+02:00')?.offset).toBe(120);
  expect(parseDate('2030-06-20 23:55-0530')?.offset).toBe(-330);
  expect(parseDate('6/5/2024 23:55')).toEqual({ y: 2024, mo: 6, d: 5, time: { h: 23, mi: 55, s: 0, ms: 0 } });
  expect(parseDate('20.06.2030 23:55')).toMatchObject({ y: 2030, mo: 6, d: 20 });
});

test('the column format decides the day/month order; without one slashes are month-first and dots day-first', () => {
  for (const f of ['DD/MM/YYYY', 'D/M/YYYY', 'DD.MM.YYYY', 'DD.MM.YYYY HH:mm', 'dd/mm/yyyy']) expect(formatOrder(f), f).toBe('dmy');
  for (const f of ['M/D/YYYY', 'M/D/YYYY HH:mm', 'MM/DD/YYYY']) expect(formatOrder(f), f).toBe('mdy');
  for (const f of ['YYYY-MM-DD', 'YYYY-MM-DD HH:mm', undefined, 7]) expect(formatOrder(f), String(f)).toBeUndefined();
  expect(parseDate('05/06/2024', 'DD/MM/YYYY')).toEqual({ y: 2024, mo: 6, d: 5 });
  expect(parseDate('05/06/2024', 'M/D/YYYY')).toEqual({ y: 2024, mo: 5, d: 6 });
  expect(parseDate('05/06/2024', 'YYYY-MM-DD')).toEqual({ y: 2024, mo: 5, d: 6 });
  expect(parseDate('05/06/2024')).toEqual({ y: 2024, mo: 5, d: 6 });
  expect(parseDate('05.06.2024')).toEqual({ y: 2024, mo: 6, d: 5 });
  expect(parseDate('05.06.2024', 'M/D/YYYY')).toEqual({ y: 2024, mo: 5, d: 6 });
  // A year-first date ignores the format.
  expect(parseDate('2024-06-05', 'DD/MM/YYYY')).toEqual({ y: 2024, mo: 6, d: 5 });
});

test('impossible dates and text that is no date do not parse; the write schema takes both (the real service stores them as null: API_ISSUES item 5)', () => {
  for (const s of ['2030-13-01', '13/31/2025', '2030-02-30', '2029-02-29', '31/02/2030', '2030-06-20 24:00', '2030-06-20 23:60', '2030-06-20 23:59:60', '2030-06-20T10:00+25:00']) {
    expect(parseDate(s, s.includes('31/02') ? 'DD/MM/YYYY' : undefined), s).toBeUndefined();
    expect(COLUMNS.date.write.safeParse(s).success, `${s} has a date's form`).toBe(true);
  }
  expect(parseDate('2028-02-29')).toEqual({ y: 2028, mo: 2, d: 29 });
  expect(parseDate('2000-02-29')).toBeDefined();
  expect(parseDate('1900-02-29')).toBeUndefined();
  for (const s of ['not a date', 'yesterday', '2030-06/20', '20300620', '2030-06-20T', '6/5/24', '2030-06-20Z', '']) {
    expect(parseDate(s), s).toBeUndefined();
    expect(COLUMNS.date.write.safeParse(s).success, s).toBe(true);
  }
});

test('sameValue: the same instant written in two forms is the same value', () => {
  expect(same('2030-06-20T23:55+02:00', '2030-06-20T21:55:00+00:00')).toBe(true);
  expect(same('2030-06-20T21:55:00Z', '2030-06-20T23:55:00+0200')).toBe(true);
  expect(same('2030-06-21 01:30+02:00', '2030-06-20T23:30:00Z')).toBe(true);
  expect(same('2030-06-20T23:55:10.5Z', '2030-06-20T23:55:10.500+00:00')).toBe(true);
  // A time without a zone is the server's wall-clock time.
  expect(same('2030/06/20 23:55', '2030-06-20T23:55:00+02:00')).toBe(true);
  expect(same('20.06.2030 23:55', '2030-06-20T23:55:00+02:00')).toBe(true);
  expect(same('6/5/2024 23:55', '2024-06-05T23:55:00+02:00')).toBe(true);
});

test('sameValue: different moments and different days differ', () => {
  expect(same('2030-06-20T23:55+02:00', '2030-06-20T23:55:00+00:00')).toBe(false);
  expect(same('2030-06-20T23:55:10Z', '2030-06-20T23:55:10.500+00:00')).toBe(false);
  expect(same('2030/06/20 23:55', '2030-06-20T23:56:00+02:00')).toBe(false);
  expect(same('2030-06-20', '2030-06-21T00:00:00+02:00')).toBe(false);
  expect(same('2030-06-20', '2031-06-20')).toBe(false);
  // No rolling over: 30 February is not 2 March.
  expect(same('2030-02-30', '2030-03-02T00:00:00+00:00')).toBe(false);
});

test('sameValue: a date-only value compares by calendar day, also against a date-time', () => {
  expect(same('2030-06-20', '2030-06-20T00:00:00+02:00')).toBe(true);
  expect(same('2030/06/20', '2030-06-20')).toBe(true);
  expect(same('20.06.2030', '2030-06-20T00:00:00+02:00')).toBe(true);
  expect(same('2030-06-20', '2030-06-20T23:55:00+02:00')).toBe(true);
  expect(same('2030-06-20T23:55', '2030-06-20')).toBe(true);
  expect(same('2030-06-20T23:55+02:00', '2030-06-20')).toBe(true);
  expect(same('2030-06-20T23:55', '2030-06-21T00:00:00+00:00')).toBe(false);
});

test('sameValue: the column format says how 05/06/2024 was meant', () => {
  expect(same('05/06/2024', '2024-06-05T00:00:00+02:00', 'DD/MM/YYYY')).toBe(true);
  expect(same('05/06/2024', '2024-05-06T00:00:00+02:00', 'DD/MM/YYYY')).toBe(false);
  expect(same('05/06/2024', '2024-05-06T00:00:00+02:00', 'M/D/YYYY')).toBe(true);
  expect(same('05/06/2024', '2024-05-06T00:00:00+02:00')).toBe(true);
  expect(same('31/12/2031 11:30', '2031-12-31T11:30:00+01:00', 'DD/MM/YYYY')).toBe(true);
});

test('sameValue: text that is no date compares as text; a non-string never equals a date', () => {
  expect(same('someday', 'someday')).toBe(true);
  expect(same('someday', '2030-06-20')).toBe(false);
  expect(sameValue('date', 20300620, '2030-06-20')).toBe(false);
  expect(sameValue('date', '2030-06-20', null)).toBe(false);
  // The shared sample reads back equal in the real service's form.
  expect(sameValue('date', COLUMNS.date.sample, '2030-06-20T00:00:00+02:00', COLUMNS.date.data)).toBe(true);
});

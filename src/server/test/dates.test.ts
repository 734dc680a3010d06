/**
 * Date cells (api-shapes §3, issue 10 point 6): each written form the real service takes,
 * appended through the HTTP API and read back as ISO with the server's offset (UTC); the
 * day/month order of `05/06/2024` by the column's format; impossible dates stored empty
 * without an error (ISS #5); text that is no date refused (SHAPE-7).
 */
import { expect, test } from '@playwright/test';
import { sameValue } from '../../spec/index.js';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

/** One column per format the real service offers, and one without a format. */
const FORMATS: Record<string, string | undefined> = {
  Iso: 'YYYY-MM-DD',
  IsoTime: 'YYYY-MM-DD HH:mm',
  US: 'M/D/YYYY',
  EU: 'DD/MM/YYYY',
  EUShort: 'D/M/YYYY',
  DE: 'DD.MM.YYYY',
  Plain: undefined,
};

async function dateTable(): Promise<string> {
  const t = uniq('Dates');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    ...Object.entries(FORMATS).map(([name, format]) => ({
      column_name: name,
      column_type: 'date',
      ...(format ? { column_data: { format } } : {}),
    })),
  ]);
  return t;
}

/** Append one cell, read it back by list, single-row get and SQL; the three agree. */
async function roundTrip(column: string, written: unknown): Promise<unknown> {
  const t = await dateTable();
  const [id] = await kit.append(t, [{ Name: 'x', [column]: written }]);
  const listed = (await kit.list(t))[0]![column];
  const single = (await kit.gwCall('GET', `rows/${id}/?table_name=${encodeURIComponent(t)}&convert_keys=true`)).body[
    column
  ];
  const viaSql = (await kit.sql(`SELECT * FROM \`${t}\``)).results[0]![column];
  expect(single, 'row get agrees with the list').toEqual(listed);
  expect(viaSql, 'SQL agrees with the list').toEqual(listed);
  return listed;
}

/** [column, written, read back]: the reference server's zone is UTC. */
const FORMS: [string, string, string][] = [
  ['Iso', '2030-06-20', '2030-06-20T00:00:00+00:00'],
  ['Iso', '2030-06-20T23:55', '2030-06-20T23:55:00+00:00'],
  ['IsoTime', '2030-06-20 23:55:10', '2030-06-20T23:55:10+00:00'],
  ['IsoTime', '2030-06-20T23:55:10.25', '2030-06-20T23:55:10.250+00:00'],
  ['IsoTime', '2030-06-20T23:55Z', '2030-06-20T23:55:00+00:00'],
  ['IsoTime', '2030-06-20T23:55:00+02:00', '2030-06-20T21:55:00+00:00'],
  ['IsoTime', '2030-06-21 01:30+0200', '2030-06-20T23:30:00+00:00'],
  ['IsoTime', '2030-06-20T22:00-05:00', '2030-06-21T03:00:00+00:00'],
  ['Iso', '2030/06/20', '2030-06-20T00:00:00+00:00'],
  ['IsoTime', '2030/6/20 23:55', '2030-06-20T23:55:00+00:00'],
  ['US', '6/5/2024', '2024-06-05T00:00:00+00:00'],
  ['US', '6/5/2024 23:55', '2024-06-05T23:55:00+00:00'],
  ['Iso', '6/5/2024', '2024-06-05T00:00:00+00:00'],
  ['Plain', '6/5/2024', '2024-06-05T00:00:00+00:00'],
  ['EU', '05/06/2024', '2024-06-05T00:00:00+00:00'],
  ['EU', '31/12/2031 11:30', '2031-12-31T11:30:00+00:00'],
  ['EUShort', '5/6/2024', '2024-06-05T00:00:00+00:00'],
  ['DE', '20.06.2030', '2030-06-20T00:00:00+00:00'],
  ['DE', '20.06.2030 23:55', '2030-06-20T23:55:00+00:00'],
  ['Plain', '05.06.2024', '2024-06-05T00:00:00+00:00'],
];

for (const [column, written, read] of FORMS) {
  test(`date ${JSON.stringify(written)} in a ${FORMATS[column] ?? 'format-less'} column reads ${read}`, async () => {
    const got = await roundTrip(column, written);
    expect(got).toBe(read);
    expect(
      sameValue('date', written, got, FORMATS[column] ? { format: FORMATS[column] } : null),
      'the harness takes them for one value',
    ).toBe(true);
  });
}

test('the same text 05/06/2024 is 5 June in a day-first column and 6 May in a month-first one, by append and by update', async () => {
  const t = await dateTable();
  const [id] = await kit.append(t, [
    { EU: '05/06/2024', EUShort: '05/06/2024', DE: '05.06.2024', US: '05/06/2024', Plain: '05/06/2024' },
  ]);
  expect((await kit.list(t))[0]).toMatchObject({
    EU: '2024-06-05T00:00:00+00:00',
    EUShort: '2024-06-05T00:00:00+00:00',
    DE: '2024-06-05T00:00:00+00:00',
    US: '2024-05-06T00:00:00+00:00',
    Plain: '2024-05-06T00:00:00+00:00',
  });
  const u = await kit.gwCall('PUT', 'rows/', {
    json: { table_name: t, updates: [{ row_id: id, row: { EU: '13/01/2025 08:00', US: '1/13/2025 08:00' } }] },
  });
  expect(u.status, u.text).toBe(200);
  expect((await kit.list(t))[0]).toMatchObject({ EU: '2025-01-13T08:00:00+00:00', US: '2025-01-13T08:00:00+00:00' });
});

test('impossible dates (month 13, 31 February, 24:00, a +25:00 zone) are stored empty without an error, as the real service does (ISS #5)', async () => {
  const t = await dateTable();
  const bad = [
    { US: '13/31/2025' },
    { Iso: '2030-02-30' },
    { EU: '31/02/2030' },
    { EU: '02/31/2030' },
    { Iso: '2029-02-29' },
    { IsoTime: '2030-06-20 24:00' },
    { IsoTime: '2030-06-20T10:00+25:00' },
  ];
  const ids = await kit.append(
    t,
    bad.map((row) => ({ Name: 'bad', ...row })),
  );
  const rows = await kit.list(t);
  expect(rows).toHaveLength(bad.length);
  bad.forEach((row, i) => expect(rows[i]![Object.keys(row)[0]!], JSON.stringify(row)).toBeNull());
  // An update to an impossible date empties the cell.
  const [good] = await kit.append(t, [{ Name: 'good', Iso: '2028-02-29' }]);
  expect((await kit.list(t)).find((r) => r._id === good)!.Iso).toBe('2028-02-29T00:00:00+00:00');
  const u = await kit.gwCall('PUT', 'rows/', {
    json: { table_name: t, updates: [{ row_id: good, row: { Iso: '2030-13-01' } }] },
  });
  expect(u.status, u.text).toBe(200);
  expect((await kit.list(t)).find((r) => r._id === good)!.Iso).toBeNull();
  expect(ids).toHaveLength(bad.length);
});

test('text that is no date is stored empty without an error (as the real service does); a date of another type is refused with a 400 and nothing is written', async () => {
  const t = await dateTable();
  for (const value of [20300620, ['2030-06-20'], { date: '2030-06-20' }]) {
    const r = await kit.gwCall('POST', 'rows/', {
      json: { table_name: t, rows: [{ Name: 'ok' }, { Name: 'bad', Iso: value }] },
    });
    expect(expectClientError(r, 400), JSON.stringify(value)).toContain('Iso');
  }
  expect(await kit.list(t)).toHaveLength(0);
  // COLUMNS.date.wrongAccepted: seatable/openapi tests/API_ISSUES.md item 5.
  const text = ['not a date', 'yesterday', '2030-06/20', '20300620', '2030-06-20T', '6/5/24', '13/31/2025'];
  await kit.append(
    t,
    text.map((Iso) => ({ Name: 'text', Iso })),
  );
  expect((await kit.list(t)).map((r) => r.Iso)).toEqual(text.map(() => null));
});

test('stored dates are instants in UTC: SQL ORDER BY a date column follows the moments, not the written text', async () => {
  const t = await dateTable();
  await kit.append(t, [
    { Name: 'c', IsoTime: '2030-06-20T23:30Z' },
    { Name: 'b', IsoTime: '2030-06-21T01:00+02:00' },
    { Name: 'a', IsoTime: '2030-06-20 22:59:59.5' },
  ]);
  const rows = (await kit.sql(`SELECT Name, IsoTime FROM \`${t}\` ORDER BY IsoTime`)).results;
  expect(rows.map((r) => r.Name)).toEqual(['a', 'b', 'c']);
  expect(rows.map((r) => r.IsoTime)).toEqual([
    '2030-06-20T22:59:59.500+00:00',
    '2030-06-20T23:00:00+00:00',
    '2030-06-20T23:30:00+00:00',
  ]);
});

test('a date written by SQL as text reads by the column format; text that is no date reads as written', async () => {
  const t = await dateTable();
  await kit.append(t, [{ Name: 'x' }]);
  const w = await kit.sql(
    `UPDATE \`${t}\` SET EU = '05/06/2024', US = '05/06/2024', Plain = 'someday' WHERE Name = 'x'`,
  );
  expect(w.affected_rows).toBe(1);
  expect((await kit.list(t))[0]).toMatchObject({
    EU: '2024-06-05T00:00:00+00:00',
    US: '2024-05-06T00:00:00+00:00',
    Plain: 'someday',
  });
});

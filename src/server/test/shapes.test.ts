/** Column types and cell values (SHAPE-1..7, issue 2 item 6), checked against the facts module's schemas. */
import { expect, test } from '@playwright/test';
import { COLUMNS, sameValue, type ColumnType } from '../../spec/index.js';
import { expectClientError, uniq, type ColumnDef, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

/** Types created through `tables/`; link, link-formula and formula are added through `columns/`. */
const DIRECT: ColumnType[] = [
  'text',
  'long-text',
  'number',
  'checkbox',
  'date',
  'duration',
  'single-select',
  'multiple-select',
  'collaborator',
  'url',
  'email',
  'rate',
  'auto-number',
  'ctime',
  'mtime',
  'creator',
  'last-modifier',
  'geolocation',
  'file',
  'image',
];
const ALL: ColumnType[] = [...DIRECT, 'link', 'link-formula', 'formula'];
const col = (t: ColumnType) => `c ${t}`;

/** A table with one column of every type, and a second table for the link. */
async function everyType() {
  const other = uniq('Linked Things');
  await kit.createTable(other, [
    { column_name: 'Label', column_type: 'text' },
    { column_name: 'Weight', column_type: 'number' },
  ]);
  const t = uniq('Every Type');
  const defs: ColumnDef[] = DIRECT.map((type) => ({
    column_name: col(type),
    column_type: type,
    ...(COLUMNS[type].data ? { column_data: COLUMNS[type].data } : {}),
  }));
  await kit.createTable(t, defs);
  const link = await kit.addColumn(t, {
    column_name: col('link'),
    column_type: 'link',
    column_data: { other_table: other },
  });
  await kit.addColumn(t, {
    column_name: col('link-formula'),
    column_type: 'link-formula',
    column_data: { link_column: col('link'), formula: 'count_links' },
  });
  await kit.addColumn(t, {
    column_name: 'c lookup',
    column_type: 'link-formula',
    column_data: { link_column: col('link'), formula: 'lookup', level1_linked_column: 'Weight' },
  });
  await kit.addColumn(t, {
    column_name: col('formula'),
    column_type: 'formula',
    column_data: { formula: '{c number} * 2' },
  });
  return { t, other, linkId: link.data.link_id as string };
}

/** A value of every writable type (the facts module's samples; a collaborator is a user id). */
function samples(collaborator: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const type of ALL) {
    const spec = COLUMNS[type];
    if (spec.writable !== 'rows') continue;
    out[col(type)] = type === 'collaborator' ? [collaborator] : spec.sample;
  }
  return out;
}

function checkRow(row: Record<string, unknown>, written: Record<string, unknown>, where: string) {
  for (const type of ALL) {
    const name = col(type);
    expect(Object.keys(row), `${where}: column ${name} is returned`).toContain(name);
    const v = row[name];
    if (v !== null) {
      const parsed = COLUMNS[type].read.safeParse(v);
      expect(parsed.success, `${where}: ${name} reads ${JSON.stringify(v)}`).toBe(true);
    }
    if (name in written)
      expect(
        sameValue(type, written[name], v, COLUMNS[type].data),
        `${where}: ${name} wrote ${JSON.stringify(written[name])}, read ${JSON.stringify(v)}`,
      ).toBe(true);
  }
}

test('every column type of issue 2 round-trips through append, list, single-row get and SQL SELECT *', async () => {
  const { t, other, linkId } = await everyType();
  const meta = await kit.table(t);
  expect(meta.columns.map((c) => c.type).sort()).toEqual([...ALL, 'link-formula'].sort());
  const written = samples(kit.srv.ctx.creds.admin.id);
  const [id] = await kit.append(t, [written]);
  const [o1, o2] = await kit.append(other, [
    { Label: 'one', Weight: 1 },
    { Label: 'two', Weight: 2 },
  ]);
  const l = await kit.gwCall('POST', 'links/', {
    json: { table_name: t, other_table_name: other, link_id: linkId, other_rows_ids_map: { [id!]: [o1, o2] } },
  });
  expect(l.status, l.text).toBe(200);

  const listed = (await kit.list(t))[0]!;
  const single = (await kit.gwCall('GET', `rows/${id}/?table_name=${encodeURIComponent(t)}&convert_keys=true`)).body;
  const viaSql = (await kit.sql(`SELECT * FROM \`${t}\``)).results[0]!;
  for (const [where, row] of [
    ['list', listed],
    ['get', single],
    ['sql', viaSql],
  ] as const) {
    checkRow(row, written, where);
    expect(row[col('link')], where).toEqual([
      { row_id: o1, display_value: 'one' },
      { row_id: o2, display_value: 'two' },
    ]);
    expect(row[col('link-formula')], where).toBe(2);
    expect(row['c lookup'], where).toEqual([1, 2]);
    expect(row[col('formula')], where).toBe(85);
    expect(row[col('auto-number')], where).toBe('0001');
    expect(row[col('creator')], where).toBe(listed._creator);
    expect(row[col('ctime')], where).toBe(listed._ctime);
  }
  // Dates read back as ISO with an offset, midnight for a date (api-shapes §3).
  expect(listed[col('date')]).toBe('2030-06-20T00:00:00+00:00');
});

test('SHAPE-1 every column is returned and a value never set is null (list, get, SQL)', async () => {
  const { t } = await everyType();
  const [id] = await kit.append(t, [{}]);
  const listed = (await kit.list(t))[0]!;
  const single = (await kit.gwCall('GET', `rows/${id}/?table_name=${encodeURIComponent(t)}&convert_keys=true`)).body;
  const viaSql = (await kit.sql(`SELECT * FROM \`${t}\``)).results[0]!;
  const computed = new Set([
    col('auto-number'),
    col('ctime'),
    col('mtime'),
    col('creator'),
    col('last-modifier'),
    col('link'),
    col('link-formula'),
    'c lookup',
    col('formula'),
  ]);
  for (const row of [listed, single, viaSql]) {
    for (const c of (await kit.table(t)).columns) {
      expect(Object.keys(row)).toContain(c.name);
      if (!computed.has(c.name)) expect(row[c.name], c.name).toBeNull();
    }
  }
});

test('SHAPE-4 unknown select options are created on append and update, read back as written, and listed in metadata', async () => {
  const t = uniq('Selects');
  await kit.createTable(t, [
    { column_name: 'One', column_type: 'single-select', column_data: COLUMNS['single-select'].data! },
    { column_name: 'Many', column_type: 'multiple-select', column_data: COLUMNS['multiple-select'].data! },
  ]);
  const [id] = await kit.append(t, [{ One: 'Brand New', Many: ['Alpha', 'Fresh'] }]);
  await kit.gwCall('PUT', 'rows/', {
    json: { table_name: t, updates: [{ row_id: id, row: { One: 'Newer', Many: ['Fresh', 'Freshest'] } }] },
  });
  const row = (await kit.list(t))[0]!;
  expect(row.One).toBe('Newer');
  expect(row.Many).toEqual(['Fresh', 'Freshest']);
  const cols = (await kit.table(t)).columns;
  const names = (c: string) =>
    cols.find((x) => x.name === c)!.data.options as { name: string; id: string; color: string }[];
  expect(names('One').map((o) => o.name)).toEqual(['Alpha', 'Brand New', 'Newer']);
  expect(names('Many').map((o) => o.name)).toEqual(['Alpha', 'Beta', 'Fresh', 'Freshest']);
  for (const o of [...names('One'), ...names('Many')])
    expect(o).toMatchObject({ id: expect.any(String), color: expect.any(String) });
});

test('SHAPE-5 single-row get omits _ctime/_mtime where the table has ctime/mtime columns; the list keeps them', async () => {
  const withTimes = uniq('Timed');
  await kit.createTable(withTimes, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Made', column_type: 'ctime' },
    { column_name: 'Changed', column_type: 'mtime' },
  ]);
  const [id] = await kit.append(withTimes, [{ Name: 'x' }]);
  const single = (await kit.gwCall('GET', `rows/${id}/?table_name=${encodeURIComponent(withTimes)}&convert_keys=true`))
    .body;
  expect(single._ctime).toBeUndefined();
  expect(single._mtime).toBeUndefined();
  expect(single.Made).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  const listed = (await kit.list(withTimes))[0]!;
  expect(listed._ctime).toBe(single.Made);
  expect(listed._mtime).toBe(single.Changed);
  // Without such columns, the single-row get keeps them.
  const plain = uniq('Untimed');
  await kit.createTable(plain, [{ column_name: 'Name', column_type: 'text' }]);
  const [p] = await kit.append(plain, [{ Name: 'y' }]);
  const got = (await kit.gwCall('GET', `rows/${p}/?table_name=${encodeURIComponent(plain)}`)).body;
  expect(got._ctime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(got._mtime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
});

test('SHAPE-6 _id cannot be changed by an update; other internals are ignored', async () => {
  const t = uniq('Immutable');
  await kit.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
  const [id] = await kit.append(t, [{ Name: 'a' }]);
  const before = (await kit.list(t))[0]!;
  const r = await kit.gwCall('PUT', 'rows/', {
    json: {
      table_name: t,
      updates: [
        {
          row_id: id,
          row: { _id: 'AAAAAAAAAAAAAAAAAAAAAA', _ctime: '2000-01-01T00:00:00+00:00', _creator: 'mallory', Name: 'b' },
        },
      ],
    },
  });
  expect(r.status, r.text).toBe(200);
  const after = (await kit.list(t))[0]!;
  expect(after._id).toBe(id);
  expect(after._ctime).toBe(before._ctime);
  expect(after._creator).toBe(before._creator);
  expect(after.Name).toBe('b');
  expectClientError(await kit.gwCall('GET', `rows/AAAAAAAAAAAAAAAAAAAAAA/?table_name=${encodeURIComponent(t)}`), 404);
});

test('SHAPE-7 a value of the wrong type is refused with a 400 and nothing is written, for every writable type the real service is not recorded accepting it for', async () => {
  const { t } = await everyType();
  const good = samples(kit.srv.ctx.creds.admin.id);
  const [id] = await kit.append(t, [good]);
  const metaBefore = JSON.stringify(await kit.table(t));
  for (const type of ALL) {
    const wrong = COLUMNS[type].wrong;
    if (wrong === undefined || COLUMNS[type].writable !== 'rows' || COLUMNS[type].wrongAccepted) continue;
    const name = col(type);
    // The wrong value sits in the second row of the batch: the first must not be written either.
    const a = await kit.gwCall('POST', 'rows/', {
      json: {
        table_name: t,
        rows: [{ [col('text')]: 'ok', [col('single-select')]: 'Another New Option' }, { [name]: wrong }],
      },
    });
    expect(expectClientError(a, 400), type).toContain(name);
    const u = await kit.gwCall('PUT', 'rows/', {
      json: {
        table_name: t,
        updates: [
          { row_id: id, row: { [col('text')]: 'changed' } },
          { row_id: id, row: { [name]: wrong } },
        ],
      },
    });
    expectClientError(u, 400);
  }
  const rows = await kit.list(t);
  expect(rows).toHaveLength(1);
  checkRow(rows[0]!, good, 'after refused writes');
  expect(JSON.stringify(await kit.table(t))).toBe(metaBefore);
});

test('SHAPE-7 the wrong values the real service is recorded accepting are stored as it stores them, by append and by update', async () => {
  const { t } = await everyType();
  const [id] = await kit.append(t, [{}]);
  const recorded = ALL.filter((type) => COLUMNS[type].wrongAccepted);
  expect(recorded.sort()).toEqual(['auto-number', 'checkbox', 'date', 'geolocation', 'multiple-select', 'rate']);
  for (const type of recorded) {
    const { wrong, wrongAccepted } = COLUMNS[type];
    const [added] = await kit.append(t, [{ [col(type)]: wrong }]);
    const u = await kit.gwCall('PUT', 'rows/', {
      json: { table_name: t, updates: [{ row_id: id, row: { [col(type)]: wrong } }] },
    });
    expect(u.status, u.text).toBe(200);
    const rows = await kit.list(t);
    for (const rid of [added, id]) {
      const read = rows.find((r) => r._id === rid)![col(type)] ?? null;
      expect(
        read === wrongAccepted!.stored || sameValue(type, wrongAccepted!.stored, read, COLUMNS[type].data),
        `${type}: ${JSON.stringify(wrong)} reads ${JSON.stringify(read)} (${wrongAccepted!.evidence.cite})`,
      ).toBe(true);
    }
  }
  // A plain string names a new option too: it is created (API_ISSUES item 2, fafbseg).
  await kit.append(t, [{ [col('multiple-select')]: 'Gamma' }]);
  const multi = (await kit.table(t)).columns.find((c: { name: string }) => c.name === col('multiple-select'));
  expect((multi?.data?.options as { name: string }[]).map((o) => o.name)).toContain('Gamma');
});

test('SHAPE-7 values are normalised as the real service writes them (dates, durations, numeric strings)', async () => {
  const t = uniq('Normalised');
  await kit.createTable(t, [
    { column_name: 'D', column_type: 'date' },
    { column_name: 'Dur', column_type: 'duration' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'R', column_type: 'rate' },
  ]);
  await kit.append(t, [
    { D: '2030/06/20', Dur: '1:30', N: '12.5', R: '3' },
    { D: '20.06.2030 23:55', Dur: '5400' },
  ]);
  const [a, b] = await kit.list(t);
  expect(a).toMatchObject({ Dur: 5400, N: 12.5, R: 3 });
  expect(a!.D).toMatch(/^2030-06-20/);
  expect(b!.D).toMatch(/^2030-06-20.23:55/);
  expect(b!.Dur).toBe(5400);
  for (const bad of [{ Dur: '1:xx' }, { N: 'NaN' }, { R: 'minus one' }]) {
    expectClientError(await kit.gwCall('POST', 'rows/', { json: { table_name: t, rows: [bad] } }), 400);
  }
  expect(await kit.list(t)).toHaveLength(2);
  // A date of the right form naming no real day is stored empty, no error (ISS #5; more in dates.test.ts).
  await kit.append(t, [{ D: '2030-02-30' }]);
  expect((await kit.list(t))[2]!.D).toBeNull();
});

test('read-only columns: writes to formula, ctime and creator are ignored; one to an auto-number is stored', async () => {
  const t = uniq('ReadOnly');
  await kit.createTable(t, [
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Auto', column_type: 'auto-number' },
    { column_name: 'Made', column_type: 'ctime' },
    { column_name: 'By', column_type: 'creator' },
  ]);
  await kit.addColumn(t, { column_name: 'F', column_type: 'formula', column_data: { formula: '{N} + 1' } });
  const r = await kit.gwCall('POST', 'rows/', {
    json: {
      table_name: t,
      rows: [{ N: 1, F: 99, Made: '2000-01-01', By: 'mallory' }, { N: 2 }, { N: 3, Auto: 'X-1' }],
    },
  });
  expect(r.status, r.text).toBe(200);
  const [a, b, c] = await kit.list(t);
  expect(a).toMatchObject({ N: 1, F: 2, Auto: '0001' });
  expect(b).toMatchObject({ N: 2, F: 3, Auto: '0002' });
  // An auto-number written is stored, as the real service does (COLUMNS['auto-number'].wrongAccepted).
  expect(c).toMatchObject({ N: 3, Auto: 'X-1' });
  expect(a!.Made).toBe(a!._ctime);
  expect(a!.By).not.toBe('mallory');
});

test('formulas evaluate references, functions and text; a bad operand reads #VALUE!', async () => {
  const t = uniq('Formulas');
  await kit.createTable(t, [
    { column_name: 'A', column_type: 'number' },
    { column_name: 'B', column_type: 'number' },
    { column_name: 'S', column_type: 'text' },
  ]);
  const add = (name: string, formula: string) =>
    kit.addColumn(t, { column_name: name, column_type: 'formula', column_data: { formula } });
  await add('Sum', '{A} + {B}');
  await add('Ratio', 'round({A} / {B}, 2)');
  await add('Label', 'concatenate(upper({S}), "-", {A})');
  await add('Cond', 'if({A}, "yes", "no")');
  await add('Twice', '{Sum} * 2');
  await add('Bad', '{S} * 2');
  await kit.append(t, [
    { A: 1, B: 3, S: 'abc' },
    { A: 0, B: 0, S: 'x' },
  ]);
  const [r1, r2] = await kit.list(t);
  expect(r1).toMatchObject({ Sum: 4, Ratio: 0.33, Label: 'ABC-1', Cond: 'yes', Twice: 8, Bad: '#VALUE!' });
  expect(r2).toMatchObject({ Sum: 0, Ratio: '#VALUE!', Cond: 'no' });
});

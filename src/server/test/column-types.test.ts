/** BASE-3: a type change converts the values; select options carry ids and can be changed; cascades are kept. */
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

type Option = { id: string; name: string; color: string; textColor: string };
const retype = (t: string, column: string, type: string, column_data?: unknown) =>
  kit.gwCall('PUT', 'columns/', {
    json: {
      op_type: 'modify_column_type',
      table_name: t,
      column,
      new_column_type: type,
      ...(column_data ? { column_data } : {}),
    },
  });
const column = async (t: string, name: string) => (await kit.table(t)).columns.find((c) => c.name === name)!;
const values = async (t: string, name: string) => (await kit.list(t)).map((r) => r[name] ?? null);

test('BASE-3 text to number parses numbers, the rest becomes empty; number to text; text to select creates options with ids', async () => {
  const t = uniq('Convert');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'T', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'S', column_type: 'text' },
  ]);
  await kit.append(t, [
    { Name: 'a', T: '42', N: 7, S: 'red' },
    { Name: 'b', T: ' -3.5 ', N: 2.5, S: 'blue' },
    { Name: 'c', T: 'n/a', S: 'red' },
    { Name: 'd', T: '1,234.5' },
  ]);
  const r = await retype(t, 'T', 'number');
  expect(r.status, r.text).toBe(200);
  expect(RESPONSES.updateColumn!.parse(r.body)).toMatchObject({ name: 'T', type: 'number' });
  expect(await values(t, 'T')).toEqual([42, -3.5, null, 1234.5]);
  await retype(t, 'N', 'text');
  expect(await values(t, 'N')).toEqual(['7', '2.5', null, null]);
  await retype(t, 'S', 'single-select');
  expect(await values(t, 'S')).toEqual(['red', 'blue', 'red', null]);
  const options = (await column(t, 'S')).data.options as Option[];
  expect(options.map((o) => o.name)).toEqual(['red', 'blue']);
  for (const o of options) expect(o.id).toMatch(/^\d{6}$/);
  // Single to multiple select: a list of one, the same options (ids kept).
  await retype(t, 'S', 'multiple-select');
  expect(await values(t, 'S')).toEqual([['red'], ['blue'], ['red'], null]);
  expect(((await column(t, 'S')).data.options as Option[]).map((o) => o.id)).toEqual(options.map((o) => o.id));
  // SQL sees the new type.
  expect((await kit.sql(`SELECT T FROM \`${t}\` WHERE T > 40`)).results).toEqual([{ T: 42 }, { T: 1234.5 }]);
});

test('BASE-3 dates, checkboxes and computed types convert as documented in convert.ts', async () => {
  const t = uniq('Convert2');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'D', column_type: 'text' },
    { column_name: 'C', column_type: 'text' },
    { column_name: 'F', column_type: 'formula', column_data: { formula: '{Name} & "!"' } },
  ]);
  await kit.append(t, [
    { Name: 'a', D: '2030-06-20', C: 'yes' },
    { Name: 'b', D: 'soon', C: 'maybe' },
  ]);
  await retype(t, 'D', 'date', { format: 'YYYY-MM-DD' });
  expect(await values(t, 'D')).toEqual(['2030-06-20T00:00:00+00:00', null]);
  await retype(t, 'D', 'text');
  expect(await values(t, 'D')).toEqual(['2030-06-20', null]);
  await retype(t, 'C', 'checkbox');
  expect(await values(t, 'C')).toEqual([true, null]);
  await retype(t, 'F', 'text');
  expect(await values(t, 'F')).toEqual(['a!', 'b!']);
  await retype(t, 'F', 'auto-number');
  expect(await values(t, 'F')).toEqual(['0001', '0002']);
  await kit.append(t, [{ Name: 'c' }]);
  expect((await values(t, 'F'))[2]).toBe('0003');
  expectClientError(await retype(t, 'D', 'link'), 400);
  expectClientError(await retype(t, 'D', 'hologram'), 400);
  expectClientError(await retype(t, 'Name', 'checkbox'), 400);
  expectClientError(await retype(t, 'D', 'formula', { formula: '{Nope}' }), 400);
  expect((await column(t, 'D')).type).toBe('text');
});

test('BASE-3 options get ids at creation; add, update (by id, renaming the cells) and delete (emptying the cells)', async () => {
  const t = uniq('Options');
  const created = await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    {
      column_name: 'Kind',
      column_type: 'single-select',
      column_data: { options: [{ name: 'A', color: '#FF8000' }, { name: 'B' }] },
    },
    {
      column_name: 'Tags',
      column_type: 'multiple-select',
      column_data: { options: [{ name: 'x', id: '123456' }, { name: 'y' }] },
    },
  ]);
  const kind = created.columns[1]!.data.options as Option[];
  expect(kind.map((o) => [o.name, typeof o.id, o.id.length])).toEqual([
    ['A', 'string', 6],
    ['B', 'string', 6],
  ]);
  expect(kind[0]!.id).not.toBe(kind[1]!.id);
  expect((created.columns[2]!.data.options as Option[])[0]!.id).toBe('123456');
  await kit.append(t, [
    { Name: 'r1', Kind: 'A', Tags: ['x', 'y'] },
    { Name: 'r2', Kind: 'B', Tags: ['y'] },
    { Name: 'r3', Kind: 'D' },
  ]);
  expect(((await column(t, 'Kind')).data.options as Option[]).find((o) => o.name === 'D')!.id).toMatch(/^\d{6}$/);

  const add = await kit.gwCall('POST', 'column-options/', {
    json: { table_name: t, column: 'Kind', options: [{ name: 'C', color: '#4ECCCB', textColor: '#FFFFFF' }] },
  });
  expect(RESPONSES.addSelectOption!.parse(add.body)).toEqual({ success: true });
  const c = ((await column(t, 'Kind')).data.options as Option[]).find((o) => o.name === 'C')!;
  expect(c).toMatchObject({ color: '#4ECCCB', textColor: '#FFFFFF', id: expect.stringMatching(/^\d{6}$/) });

  const upd = await kit.gwCall('PUT', 'column-options/', {
    json: {
      table_name: t,
      column: 'Kind',
      options: [{ id: kind[0]!.id, name: 'A2', color: '#000000' }],
      return_options: true,
    },
  });
  expect(RESPONSES.updateSelectOption!.parse(upd.body)).toEqual({
    options: [{ id: kind[0]!.id, name: 'A2', color: '#000000', textColor: '#202428' }],
  });
  await kit.gwCall('PUT', 'column-options/', {
    json: { table_name: t, column: 'Tags', options: [{ id: '123456', name: 'x2' }] },
  });
  expect((await kit.list(t)).map((r) => [r.Kind, r.Tags])).toEqual([
    ['A2', ['x2', 'y']],
    ['B', ['y']],
    ['D', null],
  ]);

  const del = await kit.gwCall('DELETE', 'column-options/', {
    json: { table_name: t, column: 'Kind', option_names: ['B'] },
  });
  expect(RESPONSES.deleteSelectOption!.parse(del.body)).toEqual({ success: true });
  await kit.gwCall('DELETE', 'column-options/', { json: { table_name: t, column: 'Tags', option_names: ['y'] } });
  expect((await kit.list(t)).map((r) => [r.Kind, r.Tags])).toEqual([
    ['A2', ['x2']],
    [null, null],
    ['D', null],
  ]);
  expect(((await column(t, 'Kind')).data.options as Option[]).map((o) => o.name)).toEqual(['A2', 'D', 'C']);

  const before = JSON.stringify(await kit.table(t));
  for (const [method, json] of [
    ['POST', { table_name: t, column: 'Kind', options: [{ name: 'C' }] }],
    ['POST', { table_name: t, column: 'Name', options: [{ name: 'Z' }] }],
    ['POST', { table_name: t, column: 'Kind', options: 'Z' }],
    ['PUT', { table_name: t, column: 'Kind', options: [{ id: '000000', name: 'Q' }] }],
    ['PUT', { table_name: t, column: 'Kind', options: [{ id: c.id, name: 'A2' }] }],
    ['DELETE', { table_name: t, column: 'Kind', option_names: ['A2', 'nope'] }],
  ] as const)
    expectClientError(await kit.gwCall(method, 'column-options/', { json }), 400);
  expect(JSON.stringify(await kit.table(t))).toBe(before);
});

test('BASE-3 cascade settings are stored in the child column by option ids', async () => {
  const t = uniq('Cascade');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    {
      column_name: 'Continent',
      column_type: 'single-select',
      column_data: { options: [{ name: 'Europe' }, { name: 'Asia' }] },
    },
    {
      column_name: 'Country',
      column_type: 'single-select',
      column_data: { options: [{ name: 'Germany' }, { name: 'France' }, { name: 'Japan' }] },
    },
  ]);
  const r = await kit.gwCall('POST', 'column-cascade-settings/', {
    json: {
      table_name: t,
      parent_column: 'Continent',
      child_column: 'Country',
      cascade_settings: { Europe: ['Germany', 'France'], Asia: ['Japan'] },
    },
  });
  expect(RESPONSES.updateColumnCascade!.parse(r.body)).toEqual({ success: true });
  const parent = await column(t, 'Continent');
  const child = await column(t, 'Country');
  const id = (col: typeof parent, name: string) => (col.data.options as Option[]).find((o) => o.name === name)!.id;
  expect(child.data.cascade_column_key).toBe(parent.key);
  expect(child.data.cascade_settings).toEqual({
    [id(parent, 'Europe')]: [id(child, 'Germany'), id(child, 'France')],
    [id(parent, 'Asia')]: [id(child, 'Japan')],
  });
  for (const json of [
    { table_name: t, parent_column: 'Continent', child_column: 'Country', cascade_settings: { Africa: ['Germany'] } },
    { table_name: t, parent_column: 'Continent', child_column: 'Country', cascade_settings: { Europe: ['Spain'] } },
    { table_name: t, parent_column: 'Name', child_column: 'Country', cascade_settings: {} },
  ])
    expectClientError(await kit.gwCall('POST', 'column-cascade-settings/', { json }), 400);
});

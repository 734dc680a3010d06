/** `columns/` and `batch-append-columns/` (BASE-2): the column operations keep the data. */
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

const parse = (id: string, body: unknown) => RESPONSES[id as keyof typeof RESPONSES]!.parse(body);
const update = (json: Record<string, unknown>) => kit.gwCall('PUT', 'columns/', { json });
const columns = async (t: string, view?: string) => {
  const r = await kit.gwCall(
    'GET',
    `columns/?${new URLSearchParams({ table_name: t, ...(view ? { view_name: view } : {}) })}`,
  );
  expect(r.status, r.text).toBe(200);
  return (
    parse('listColumns', r.body) as {
      columns: { key: string; name: string; type: string; width: number; frozen?: boolean; data: any }[];
    }
  ).columns;
};

async function people() {
  const t = uniq('People');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Age', column_type: 'number' },
    { column_name: 'City', column_type: 'text' },
    { column_name: 'Label', column_type: 'formula', column_data: { formula: '{Name} & "@" & {City}' } },
  ]);
  await kit.append(t, [
    { Name: 'Ann', Age: 31, City: 'Oslo' },
    { Name: 'Bob', Age: 42, City: 'Rome' },
  ]);
  return t;
}

test('BASE-2 columns are listed in table order, and by view without its hidden columns', async () => {
  const t = await people();
  const all = await columns(t);
  expect(all.map((c) => c.name)).toEqual(['Name', 'Age', 'City', 'Label']);
  await kit.gwCall('POST', `views/?table_name=${encodeURIComponent(t)}`, {
    json: { name: 'Slim', hidden_columns: [all[2]!.key] },
  });
  expect((await columns(t, 'Slim')).map((c) => c.name)).toEqual(['Name', 'Age', 'Label']);
  expectClientError(await kit.gwCall('GET', `columns/?table_name=${encodeURIComponent(t)}&view_name=Nope`), 404);
});

test('BASE-2 insert after an anchor; batch append adds several columns; refusals write nothing', async () => {
  const t = await people();
  const inserted = await kit.gwCall('POST', 'columns/', {
    json: { table_name: t, column_name: 'Nick', column_type: 'text', anchor_column: 'Name' },
  });
  expect(parse('appendColumn', inserted.body)).toMatchObject({ name: 'Nick', type: 'text' });
  const batch = await kit.gwCall('POST', 'batch-append-columns/', {
    json: {
      table_name: t,
      columns: [
        { column_name: 'A', column_type: 'number' },
        { column_name: 'B', column_type: 'checkbox' },
      ],
    },
  });
  expect((parse('appendColumns', batch.body) as { columns: { name: string }[] }).columns.map((c) => c.name)).toEqual([
    'A',
    'B',
  ]);
  expect((await columns(t)).map((c) => c.name)).toEqual(['Name', 'Nick', 'Age', 'City', 'Label', 'A', 'B']);
  const before = JSON.stringify(await columns(t));
  for (const json of [
    {
      table_name: t,
      columns: [
        { column_name: 'C', column_type: 'text' },
        { column_name: 'A', column_type: 'text' },
      ],
    },
    { table_name: t, columns: [{ column_name: 'F', column_type: 'formula', column_data: { formula: '1' } }] },
    { table_name: t, columns: [] },
  ])
    expectClientError(await kit.gwCall('POST', 'batch-append-columns/', { json }), 400);
  expectClientError(
    await kit.gwCall('POST', 'columns/', {
      json: { table_name: t, column_name: 'Z', column_type: 'text', anchor_column: 'nowhere' },
    }),
    400,
  );
  expect(JSON.stringify(await columns(t))).toBe(before);
});

test('BASE-2 a rename keeps the values and the formulas that name the column', async () => {
  const t = await people();
  const city = (await columns(t)).find((c) => c.name === 'City')!;
  const r = await update({ op_type: 'rename_column', table_name: t, column: city.key, new_column_name: 'Town' });
  expect(parse('updateColumn', r.body)).toMatchObject({ key: city.key, name: 'Town' });
  const rows = await kit.list(t);
  expect(rows.map((x) => [x.Town, x.Label])).toEqual([
    ['Oslo', 'Ann@Oslo'],
    ['Rome', 'Bob@Rome'],
  ]);
  expect(rows[0]).not.toHaveProperty('City');
  expectClientError(
    await update({ op_type: 'rename_column', table_name: t, column: 'Town', new_column_name: 'Name' }),
    400,
  );
  expectClientError(
    await update({ op_type: 'rename_column', table_name: t, column: 'Nope', new_column_name: 'X' }),
    404,
  );
  expectClientError(await update({ op_type: 'explode_column', table_name: t, column: 'Town' }), 400);
});

test('BASE-2 resize, freeze and move change the layout only', async () => {
  const t = await people();
  const before = await kit.list(t);
  expect(
    parse(
      'updateColumn',
      (await update({ op_type: 'resize_column', table_name: t, column: 'Age', new_column_width: 321 })).body,
    ),
  ).toMatchObject({ name: 'Age', width: 321 });
  expect((await update({ op_type: 'freeze_column', table_name: t, column: 'Name', frozen: true })).body).toMatchObject({
    name: 'Name',
    frozen: true,
  });
  expect((await update({ op_type: 'move_column', table_name: t, column: 'Age', target_column: 'City' })).status).toBe(
    200,
  );
  const cols = await columns(t);
  expect(cols.map((c) => c.name)).toEqual(['Name', 'City', 'Age', 'Label']);
  expect(cols.find((c) => c.name === 'Age')!.width).toBe(321);
  expect(await kit.list(t)).toEqual(before);
  expectClientError(
    await update({ op_type: 'resize_column', table_name: t, column: 'Age', new_column_width: 'wide' }),
    400,
  );
  expectClientError(await update({ op_type: 'freeze_column', table_name: t, column: 'Age' }), 400);
  expectClientError(await update({ op_type: 'move_column', table_name: t, column: 'Age', target_column: 'Nope' }), 404);
});

test('BASE-2 a delete removes the column and its values; the first column stays', async () => {
  const t = await people();
  const r = await kit.gwCall('DELETE', 'columns/', { json: { table_name: t, column: 'City' } });
  expect(parse('deleteColumn', r.body)).toEqual({ success: true });
  expect((await columns(t)).map((c) => c.name)).toEqual(['Name', 'Age', 'Label']);
  expect((await kit.list(t)).map((x) => [x.Name, x.Age, 'City' in x])).toEqual([
    ['Ann', 31, false],
    ['Bob', 42, false],
  ]);
  expectClientError(await kit.gwCall('DELETE', 'columns/', { json: { table_name: t, column: 'Name' } }), 400);
  // The name is free again, and a new column of that name starts empty.
  await kit.addColumn(t, { column_name: 'City', column_type: 'text' });
  expect((await kit.list(t)).map((x) => x.City)).toEqual([null, null]);
});

test('BASE-2 deleting a link column removes its twin and its links', async () => {
  const a = uniq('LinkA');
  const b = uniq('LinkB');
  await kit.createTable(a, [{ column_name: 'Name', column_type: 'text' }]);
  await kit.createTable(b, [{ column_name: 'Name', column_type: 'text' }]);
  await kit.addColumn(a, { column_name: 'To B', column_type: 'link', column_data: { other_table: b } });
  expect((await columns(b)).map((c) => c.type)).toEqual(['text', 'link']);
  expect((await kit.gwCall('DELETE', 'columns/', { json: { table_name: a, column: 'To B' } })).status).toBe(200);
  expect((await columns(a)).map((c) => c.name)).toEqual(['Name']);
  expect((await columns(b)).map((c) => c.name)).toEqual(['Name']);
});

test('a link-formula rollup sums, averages, counts and finds the extremes of the linked values', async () => {
  const people = uniq('Staff');
  const jobs = uniq('Jobs');
  await kit.createTable(jobs, [
    { column_name: 'Title', column_type: 'text' },
    { column_name: 'Hours', column_type: 'number' },
  ]);
  await kit.createTable(people, [{ column_name: 'Name', column_type: 'text' }]);
  const link = await kit.addColumn(people, {
    column_name: 'Jobs',
    column_type: 'link',
    column_data: { other_table: jobs },
  });
  for (const m of ['sum', 'average', 'max', 'min', 'count']) {
    await kit.addColumn(people, {
      column_name: m,
      column_type: 'link-formula',
      column_data: { formula: 'rollup', link_column: 'Jobs', summary_column: 'Hours', summary_method: m },
    });
  }
  await kit.addColumn(people, {
    column_name: 'Longest',
    column_type: 'link-formula',
    column_data: { formula: 'findmax', link_column: 'Jobs', searched_column: 'Title', comparison_column: 'Hours' },
  });
  const [ann, bob] = await kit.append(people, [{ Name: 'Ann' }, { Name: 'Bob' }]);
  const js = await kit.append(jobs, [{ Title: 'paint', Hours: 4 }, { Title: 'build', Hours: 10 }, { Title: 'plan' }]);
  await kit.gwCall('POST', 'links/', {
    json: {
      table_name: people,
      other_table_name: jobs,
      link_id: link.data.link_id,
      other_rows_ids_map: { [ann!]: js },
    },
  });
  const [a, b] = await kit.list(people);
  expect(a).toMatchObject({ sum: 14, average: 7, max: 10, min: 4, count: 2, Longest: ['build'] });
  expect(b).toMatchObject({ sum: 0, average: null, count: 0, Longest: [] });
  void bob;
  // Renaming the summarised column keeps the rollup.
  await update({ op_type: 'rename_column', table_name: jobs, column: 'Hours', new_column_name: 'Time' });
  expect((await kit.list(people))[0]).toMatchObject({ sum: 14 });
  expectClientError(
    await kit.gwCall('POST', 'columns/', {
      json: {
        table_name: people,
        column_name: 'Bad',
        column_type: 'link-formula',
        column_data: { formula: 'rollup', link_column: 'Jobs', summary_column: 'Nope', summary_method: 'sum' },
      },
    }),
    400,
  );
});

/** `metadata/`, `tables/`, `columns/`, `views/` (api-shapes §2.3, §2.5) and ROUTE-3. */
import { expect, test } from '@playwright/test';
import { ENDPOINTS } from '../../spec/index.js';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

test('ROUTE-3 base operations live under /api-gateway/api/v2/, account operations under /api/v2.1/', async () => {
  for (const e of ENDPOINTS) {
    if (e.family === 'gateway') expect(e.path, e.id).toMatch(/^\/api-gateway\/api\/v2\//);
    if (e.family === 'account') expect(e.path, e.id).toMatch(/^\/api\/v2\.1\//);
  }
  const r = await kit.gwCall('GET', 'metadata/');
  expect(r.status).toBe(200);
  expect(Array.isArray(r.body.metadata.tables)).toBe(true);
  // The same operation is not offered outside its family's prefix.
  const wrong = await fetch(`${kit.url}/api/v2.1/dtables/${kit.base.uuid}/metadata/`, {
    headers: { authorization: `Token ${kit.token}` },
  });
  expect(wrong.status).toBe(404);
});

test('create a table with columns: 4-character keys, a default view, listed in metadata', async () => {
  const name = uniq('Created');
  const t = await kit.createTable(name, [
    { column_name: 'Title', column_type: 'text' },
    { column_name: 'Amount', column_type: 'number', column_data: { format: 'euro' } },
  ]);
  expect(t._id).toMatch(/^[A-Za-z0-9]{4}$/);
  expect(t.columns.map((c) => [c.name, c.type])).toEqual([
    ['Title', 'text'],
    ['Amount', 'number'],
  ]);
  for (const c of t.columns) expect(c.key).toMatch(/^[A-Za-z0-9]{4}$/);
  expect(t.columns[1]!.data).toEqual({ format: 'euro' });
  const m = await kit.table(name);
  expect(m.views.map((v: { name: string }) => v.name)).toEqual(['Default View']);
  expect(m.columns[0]).toMatchObject({
    key: t.columns[0]!.key,
    name: 'Title',
    type: 'text',
    width: expect.any(Number),
    editable: true,
  });
});

test('a table created without columns gets a Name column', async () => {
  const t = await kit.createTable(uniq('Bare'), []);
  expect(t.columns.map((c) => [c.name, c.type])).toEqual([['Name', 'text']]);
});

test('bad table definitions are refused with 400 and leave no trace', async () => {
  const other = uniq('Target');
  await kit.createTable(other, [{ column_name: 'Title', column_type: 'text' }]);
  const before = JSON.stringify(await kit.metadata());
  const bad: unknown[] = [
    {},
    { table_name: '' },
    { table_name: '   ' },
    { table_name: other },
    { table_name: uniq('X'), columns: 'Name' },
    { table_name: uniq('X'), columns: [null] },
    { table_name: uniq('X'), columns: [{ column_name: 'A', column_type: 'hologram' }] },
    { table_name: uniq('X'), columns: [{ column_type: 'text' }] },
    { table_name: uniq('X'), columns: [{ column_name: '_id', column_type: 'text' }] },
    {
      table_name: uniq('X'),
      columns: [
        { column_name: 'A', column_type: 'text' },
        { column_name: 'A', column_type: 'number' },
      ],
    },
    { table_name: uniq('X'), columns: [{ column_name: 'A', column_type: 'number', column_data: [1] }] },
    {
      table_name: uniq('X'),
      columns: [{ column_name: 'F', column_type: 'formula', column_data: { formula: '{Nope} + 1' } }],
    },
    {
      table_name: uniq('X'),
      columns: [{ column_name: 'L', column_type: 'link', column_data: { other_table: 'Nowhere' } }],
    },
    // A link (which adds a column to the other table) followed by a refused column: both must vanish.
    {
      table_name: uniq('X'),
      columns: [
        { column_name: 'L', column_type: 'link', column_data: { other_table: other } },
        { column_name: 'Z', column_type: 'bogus' },
      ],
    },
    {
      table_name: uniq('X'),
      columns: [{ column_name: 'LF', column_type: 'link-formula', column_data: { link_column: 'none' } }],
    },
  ];
  for (const json of bad) expectClientError(await kit.gwCall('POST', 'tables/', { json }), 400);
  expect(JSON.stringify(await kit.metadata())).toBe(before);
  // The names refused are still free.
  await kit.createTable(uniq('X'), [{ column_name: 'A', column_type: 'text' }]);
});

test('column_data errors carry error_type column_data_error', async () => {
  const t = uniq('ColData');
  await kit.createTable(t, []);
  const r = await kit.gwCall('POST', 'columns/', {
    json: { table_name: t, column_name: 'F', column_type: 'formula', column_data: { formula: '{Nope}' } },
  });
  expectClientError(r, 400);
  expect(r.body.error_type).toBe('column_data_error');
});

test('append a column; duplicates, reserved names and unknown tables are refused', async () => {
  const t = uniq('Cols');
  await kit.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
  const c = await kit.addColumn(t, { column_name: 'Due', column_type: 'date' });
  expect(c).toMatchObject({ name: 'Due', type: 'date' });
  expect((await kit.table(t)).columns.map((x) => x.name)).toEqual(['Name', 'Due']);
  expectClientError(
    await kit.gwCall('POST', 'columns/', { json: { table_name: t, column_name: 'Due', column_type: 'text' } }),
    400,
  );
  expectClientError(
    await kit.gwCall('POST', 'columns/', { json: { table_name: t, column_name: '_mtime', column_type: 'text' } }),
    400,
  );
  expectClientError(
    await kit.gwCall('POST', 'columns/', { json: { table_name: t, column_name: 'X', column_type: 'nope' } }),
    400,
  );
  expectClientError(await kit.gwCall('POST', 'columns/', { json: { table_name: t } }), 400);
  expectClientError(
    await kit.gwCall('POST', 'columns/', {
      json: { table_name: 'No Such Table', column_name: 'X', column_type: 'text' },
    }),
    404,
  );
  expect((await kit.table(t)).columns.map((x) => x.name)).toEqual(['Name', 'Due']);
});

test('delete a table: gone from metadata, its rows unreachable, its link twins removed', async () => {
  const keep = uniq('Keep');
  await kit.createTable(keep, [{ column_name: 'Title', column_type: 'text' }]);
  const doomed = uniq('Doomed');
  await kit.createTable(doomed, [{ column_name: 'Name', column_type: 'text' }]);
  await kit.addColumn(doomed, { column_name: 'To Keep', column_type: 'link', column_data: { other_table: keep } });
  expect((await kit.table(keep)).columns.map((c) => c.type)).toEqual(['text', 'link']);
  await kit.append(doomed, [{ Name: 'x' }]);
  const r = await kit.gwCall('DELETE', 'tables/', { json: { table_name: doomed } });
  expect(r.status, r.text).toBe(200);
  expect((await kit.metadata()).tables.map((x) => x.name)).not.toContain(doomed);
  expect((await kit.table(keep)).columns.map((c) => c.type)).toEqual(['text']);
  expectClientError(await kit.gwCall('GET', `rows/?table_name=${encodeURIComponent(doomed)}`), 404);
  expectClientError(await kit.gwCall('DELETE', 'tables/', { json: { table_name: doomed } }), 404);
  expectClientError(await kit.gwCall('POST', 'sql/', { json: { sql: `SELECT * FROM \`${doomed}\`` } }), 400);
});

test('views: created with filters; unknown columns, computed columns and object terms are refused', async () => {
  const t = uniq('Views');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'F', column_type: 'formula', column_data: { formula: '{N} + 1' } },
  ]);
  const ok = await kit.gwCall('POST', 'views/', {
    json: {
      table_name: t,
      name: 'Named',
      filters: [{ column_name: 'Name', filter_predicate: 'contains', filter_term: 'a' }],
      filter_conjunction: 'Or',
    },
  });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body).toMatchObject({ name: 'Named', filter_conjunction: 'Or' });
  const bad: unknown[] = [
    { table_name: t, name: 'Named' },
    { table_name: t },
    { table_name: t, name: 'V1', filters: 'Name' },
    { table_name: t, name: 'V2', filters: [{ column_name: 'Nope', filter_predicate: 'is', filter_term: 1 }] },
    { table_name: t, name: 'V3', filters: [{ column_name: 'N', filter_predicate: 'between', filter_term: 1 }] },
    { table_name: t, name: 'V4', filters: [{ column_name: 'F', filter_predicate: 'is', filter_term: 2 }] },
    { table_name: t, name: 'V5', filters: [{ column_name: 'N', filter_predicate: 'is', filter_term: { gt: 1 } }] },
    { table_name: t, name: 'V6', filters: [null] },
  ];
  for (const json of bad) expectClientError(await kit.gwCall('POST', 'views/', { json }), 400);
  expect((await kit.table(t)).views.map((v: { name: string }) => v.name)).toEqual(['Default View', 'Named']);
});

test('view filter predicates select the expected rows', async () => {
  const t = uniq('Predicates');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Tags', column_type: 'multiple-select' },
    { column_name: 'Done', column_type: 'checkbox' },
  ]);
  await kit.append(t, [
    { Name: 'apple', N: 1, Tags: ['red'], Done: true },
    { Name: 'banana', N: 5, Tags: ['yellow'] },
    { Name: 'cherry', N: 10, Tags: ['red', 'dark'] },
    { N: 7 },
  ]);
  const cases: [unknown[], string, string[]][] = [
    [[{ column_name: 'Name', filter_predicate: 'is', filter_term: 'banana' }], 'And', ['banana']],
    [[{ column_name: 'Name', filter_predicate: 'is_not', filter_term: 'banana' }], 'And', ['apple', 'cherry', '']],
    [[{ column_name: 'Name', filter_predicate: 'contains', filter_term: 'an' }], 'And', ['banana']],
    [[{ column_name: 'Name', filter_predicate: 'is_empty' }], 'And', ['']],
    [[{ column_name: 'N', filter_predicate: 'greater_or_equal', filter_term: 7 }], 'And', ['cherry', '']],
    [[{ column_name: 'Tags', filter_predicate: 'is', filter_term: 'red' }], 'And', ['apple', 'cherry']],
    [[{ column_name: 'Done', filter_predicate: 'is', filter_term: true }], 'And', ['apple']],
    [
      [
        { column_name: 'N', filter_predicate: 'less', filter_term: 2 },
        { column_name: 'N', filter_predicate: 'greater', filter_term: 9 },
      ],
      'Or',
      ['apple', 'cherry'],
    ],
  ];
  let i = 0;
  for (const [filters, conj, names] of cases) {
    const name = `P${i++}`;
    const v = await kit.gwCall('POST', 'views/', { json: { table_name: t, name, filters, filter_conjunction: conj } });
    expect(v.status, v.text).toBe(200);
    expect(
      (await kit.list(t, { view_name: name })).map((r) => r.Name ?? ''),
      JSON.stringify(filters),
    ).toEqual(names);
  }
});

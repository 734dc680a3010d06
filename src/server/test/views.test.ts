/** `views/` and `views/{view_name}/` (BASE-1): stored configuration that the row list honours. */
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

const q = (table: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({ table_name: table, ...extra }).toString();
const parse = (id: string, body: unknown) => RESPONSES[id as keyof typeof RESPONSES]!.parse(body);

async function fruitTable() {
  const t = uniq('Fruit');
  const created = await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Note', column_type: 'text' },
    { column_name: 'Kind', column_type: 'single-select' },
  ]);
  await kit.append(t, [
    { Name: 'apple', N: 3, Note: 'a', Kind: 'tree' },
    { Name: 'banana', N: 12, Note: 'b', Kind: 'herb' },
    { Name: 'cherry', N: 7, Note: 'c', Kind: 'tree' },
    { Name: 'date', N: 20, Note: 'd', Kind: 'palm' },
    { Name: 'elder', N: 1, Note: 'e' },
  ]);
  const key = (name: string) => created.columns.find((c) => c.name === name)!.key;
  return { t, key };
}

test('BASE-1 a view created by query-string table_name reads back as created; rows by view are filtered, sorted, without hidden columns', async () => {
  const { t, key } = await fruitTable();
  const settings = {
    filters: [{ column_key: key('N'), filter_predicate: 'greater', filter_term: 2 }],
    filter_conjunction: 'And',
    sorts: [{ column_key: key('N'), sort_type: 'down' }],
    hidden_columns: [key('Note')],
  };
  const created = await kit.gwCall('POST', `views/?${q(t)}`, { json: { name: 'Big', type: 'table', ...settings } });
  expect(created.status, created.text).toBe(200);
  const view = parse('createView', created.body) as Record<string, unknown>;
  expect(view).toMatchObject({ name: 'Big', type: 'table', is_locked: false, ...settings, groupbys: [] });
  const listed = await kit.gwCall('GET', `views/?${q(t)}`);
  expect((parse('listViews', listed.body) as { views: { name: string }[] }).views.map((v) => v.name)).toEqual([
    'Default View',
    'Big',
  ]);
  const got = await kit.gwCall('GET', `views/Big/?${q(t)}`);
  expect(parse('getView', got.body)).toEqual(view);
  const rows = await kit.list(t, { view_name: 'Big' });
  expect(rows.map((r) => r.Name)).toEqual(['date', 'banana', 'cherry', 'apple']);
  for (const r of rows) expect(r).not.toHaveProperty('Note');
  expect((await kit.list(t))[0]).toHaveProperty('Note', 'a');
});

test('BASE-1 an update changes filters, sorts, groups, hidden columns and the name; [{}] clears a list', async () => {
  const { t, key } = await fruitTable();
  await kit.gwCall('POST', `views/?${q(t)}`, { json: { name: 'V' } });
  const upd = await kit.gwCall('PUT', `views/V/?${q(t)}`, {
    json: {
      name: 'W',
      is_locked: true,
      filters: [{ column_key: key('Kind'), filter_predicate: 'is_any_of', filter_term: ['tree', 'palm'] }],
      sorts: [{ column_name: 'Name', sort_type: 'up' }],
      groupbys: [{ column_key: key('Kind'), sort_type: 'up' }],
    },
  });
  expect(upd.status, upd.text).toBe(200);
  expect(parse('updateView', upd.body)).toMatchObject({
    name: 'W',
    is_locked: true,
    sorts: [{ column_key: key('Name'), sort_type: 'up' }],
  });
  // Grouped by the order of Kind's options (tree, herb, palm), then sorted by name.
  expect((await kit.list(t, { view_name: 'W' })).map((r) => r.Name)).toEqual(['apple', 'cherry', 'date']);
  const cleared = await kit.gwCall('PUT', `views/W/?${q(t)}`, { json: { filters: [{}], sorts: [{}], groupbys: [{}] } });
  expect(cleared.body).toMatchObject({ filters: [], sorts: [], groupbys: [] });
  expect((await kit.list(t, { view_name: 'W' })).length).toBe(5);
  expectClientError(await kit.gwCall('GET', `views/V/?${q(t)}`), 404);
});

test('BASE-1 a deleted view is gone: not listed, not readable, and a row list by its name is refused', async () => {
  const { t } = await fruitTable();
  await kit.gwCall('POST', 'views/', { json: { table_name: t, name: 'Doomed' } });
  const del = await kit.gwCall('DELETE', `views/Doomed/?${q(t)}`);
  expect(parse('deleteView', del.body)).toEqual({ success: true });
  expect((await kit.gwCall('GET', `views/?${q(t)}`)).body.views.map((v: { name: string }) => v.name)).toEqual([
    'Default View',
  ]);
  expectClientError(await kit.gwCall('GET', `views/Doomed/?${q(t)}`), 404);
  expectClientError(await kit.gwCall('GET', `rows/?${q(t, { view_name: 'Doomed' })}`));
  // The last view stays.
  expectClientError(await kit.gwCall('DELETE', `views/${encodeURIComponent('Default View')}/?${q(t)}`), 400);
});

test('BASE-1 bad view calls are refused and change nothing', async () => {
  const { t, key } = await fruitTable();
  await kit.gwCall('POST', `views/?${q(t)}`, {
    json: { name: 'Keep', sorts: [{ column_key: key('N'), sort_type: 'up' }] },
  });
  const before = JSON.stringify(await kit.table(t));
  const bad: [string, string, unknown][] = [
    ['PUT', 'views/Keep/', { sorts: [{ column_key: 'zzzz', sort_type: 'up' }] }],
    ['PUT', 'views/Keep/', { sorts: [{ column_key: key('N'), sort_type: 'sideways' }] }],
    ['PUT', 'views/Keep/', { hidden_columns: ['nope'] }],
    ['PUT', 'views/Keep/', { hidden_columns: 'Note' }],
    ['PUT', 'views/Keep/', { filter_conjunction: 'Xor' }],
    ['PUT', 'views/Keep/', { name: 'Default View' }],
    ['PUT', 'views/Keep/', { is_locked: 'yes', name: 'Renamed' }],
    [
      'PUT',
      'views/Keep/',
      { filters: [{ column_key: key('Kind'), filter_predicate: 'is_any_of', filter_term: 'tree' }] },
    ],
    ['POST', 'views/', { name: 'Keep' }],
    ['POST', 'views/', { name: 'X', type: 'kanban' }],
  ];
  for (const [method, path, json] of bad) expectClientError(await kit.gwCall(method, `${path}?${q(t)}`, { json }), 400);
  expectClientError(await kit.gwCall('PUT', `views/Nope/?${q(t)}`, { json: { name: 'Y' } }), 404);
  expectClientError(await kit.gwCall('GET', 'views/'), 400);
  expect(JSON.stringify(await kit.table(t))).toBe(before);
});

test('BASE-1 date, number and select filters with the OpenAPI predicates', async () => {
  const t = uniq('Dates');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Due', column_type: 'date', column_data: { format: 'YYYY-MM-DD' } },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Tags', column_type: 'multiple-select' },
  ]);
  await kit.append(t, [
    { Name: 'a', Due: '2030-01-10', N: 1, Tags: ['x', 'y'] },
    { Name: 'b', Due: '2030-02-10', N: 2, Tags: ['y'] },
    { Name: 'c', N: 3 },
  ]);
  const meta = await kit.table(t);
  const k = (n: string) => meta.columns.find((c) => c.name === n)!.key;
  const cases: [unknown[], string[]][] = [
    [
      [
        {
          column_key: k('Due'),
          filter_predicate: 'is_before',
          filter_term: '2030-02-01',
          filter_term_modifier: 'exact_date',
        },
      ],
      ['a'],
    ],
    [
      [
        {
          column_key: k('Due'),
          filter_predicate: 'is_on_or_after',
          filter_term: '2030-01-10',
          filter_term_modifier: 'exact_date',
        },
      ],
      ['a', 'b'],
    ],
    [[{ column_key: k('N'), filter_predicate: 'equal', filter_term: '2' }], ['b']],
    [[{ column_key: k('N'), filter_predicate: 'is empty' }], []],
    [[{ column_key: k('Tags'), filter_predicate: 'has_all_of', filter_term: ['x', 'y'] }], ['a']],
    [[{ column_key: k('Tags'), filter_predicate: 'has_none_of', filter_term: ['x'] }], ['b', 'c']],
    [[{ column_key: k('Tags'), filter_predicate: 'is_exactly', filter_term: ['y'] }], ['b']],
  ];
  let i = 0;
  for (const [filters, names] of cases) {
    const name = `F${i++}`;
    const r = await kit.gwCall('POST', `views/?${q(t)}`, { json: { name, filters } });
    expect(r.status, r.text).toBe(200);
    expect(
      (await kit.list(t, { view_name: name })).map((row) => row.Name),
      JSON.stringify(filters),
    ).toEqual(names);
  }
});

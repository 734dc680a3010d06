/** query-links (BASE-5): each row's linked records, paginated, in creation order; auto-links and its task. */
import { request } from 'node:http';
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

/** A row of `t` linked to 12 rows of `other` (added in three calls, so creation order is not id order). */
async function twelve() {
  const other = uniq('Targets');
  const t = uniq('Sources');
  await kit.createTable(other, [
    { column_name: 'Label', column_type: 'text' },
    { column_name: 'Size', column_type: 'number' },
  ]);
  await kit.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
  const col = await kit.addColumn(t, {
    column_name: 'Targets',
    column_type: 'link',
    column_data: { other_table: other },
  });
  const targets = await kit.append(
    other,
    Array.from({ length: 12 }, (_, i) => ({ Label: `t${i}`, Size: i })),
  );
  const [row, lonely] = await kit.append(t, [{ Name: 'linked' }, { Name: 'lonely' }]);
  const order = [...targets.slice(8), ...targets.slice(0, 4), ...targets.slice(4, 8)];
  for (const part of [order.slice(0, 4), order.slice(4, 8), order.slice(8)]) {
    const r = await kit.gwCall('POST', 'links/', {
      json: { table_name: t, other_table_name: other, link_id: col.data.link_id, other_rows_ids_map: { [row!]: part } },
    });
    expect(r.status, r.text).toBe(200);
  }
  const label = new Map(targets.map((id, i) => [id, `t${i}`]));
  return { t, other, col, row: row!, lonely: lonely!, order, label, linkId: col.data.link_id as string };
}

/** A GET with a JSON body (fetch will not send one). */
function getWithBody(path: string, body: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      kit.url + path,
      {
        method: 'GET',
        headers: {
          authorization: `Token ${kit.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += String(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const query = (json: unknown) => kit.gwCall('POST', 'query-links/', { json });

test("BASE-5 query-links pages each row's links by offset and limit, in creation order, with display values", async () => {
  const w = await twelve();
  const page = async (offset?: number, limit?: number) => {
    const r = await query({
      table_name: w.t,
      link_column_name: 'Targets',
      rows: [{ row_id: w.row, ...(offset === undefined ? {} : { offset }), ...(limit === undefined ? {} : { limit }) }],
    });
    expect(r.status, r.text).toBe(200);
    return (RESPONSES.listRowLinks!.parse(r.body) as Record<string, { row_id: string; display_value: unknown }[]>)[
      w.row
    ]!;
  };
  const first = await page(0, 5);
  expect(first.map((x) => x.row_id)).toEqual(w.order.slice(0, 5));
  expect(first.map((x) => x.display_value)).toEqual(w.order.slice(0, 5).map((id) => w.label.get(id)));
  expect((await page(10, 5)).map((x) => x.row_id)).toEqual(w.order.slice(10));
  expect((await page()).map((x) => x.row_id)).toEqual(w.order.slice(0, 10));
  expect(await page(12, 5)).toEqual([]);
  // By keys and ids, several rows at once; a row without links has an empty list.
  const meta = await kit.table(w.t);
  const r = await query({
    table_id: meta._id,
    link_column_key: w.col.key,
    rows: [{ row_id: w.row, offset: 3, limit: 2 }, { row_id: w.lonely }],
  });
  expect(r.body).toEqual({
    [w.row]: w.order.slice(3, 5).map((id) => ({ row_id: id, display_value: w.label.get(id) })),
    [w.lonely]: [],
  });
});

test('BASE-5 query-links refuses bad input', async () => {
  const w = await twelve();
  const ok = { table_name: w.t, link_column_name: 'Targets' };
  for (const bad of [
    { ...ok, rows: 'x' },
    { ...ok, rows: [{ offset: 1 }] },
    { ...ok, rows: [{ row_id: w.row, offset: -1 }] },
    { ...ok, rows: [{ row_id: w.row, limit: 0 }] },
    { ...ok, rows: [{ row_id: w.row, limit: '5' }] },
    { ...ok, link_column_name: 'Name', rows: [] },
    { table_name: w.t, rows: [] },
  ])
    expectClientError(await query(bad), 400);
  expectClientError(await query({ ...ok, table_name: 'No Such Table', rows: [] }), 404);
});

test('auto-links links the rows whose matching columns are equal; the task reports success', async () => {
  const a = uniq('People');
  const b = uniq('Teams');
  await kit.createTable(b, [{ column_name: 'Team', column_type: 'text' }]);
  await kit.createTable(a, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'Team name', column_type: 'text' },
  ]);
  const col = await kit.addColumn(a, { column_name: 'Team', column_type: 'link', column_data: { other_table: b } });
  const [red, blue] = await kit.append(b, [{ Team: 'red' }, { Team: 'blue' }]);
  await kit.append(a, [
    { Name: 'Ann', 'Team name': 'red' },
    { Name: 'Bob', 'Team name': 'blue' },
    { Name: 'Cid', 'Team name': 'green' },
    { Name: 'Dee' },
  ]);
  const [ta, tb] = [await kit.table(a), await kit.table(b)];
  const keys = [{ table1_key: ta.columns.find((c) => c.name === 'Team name')!.key, table2_key: tb.columns[0]!.key }];
  const r = await kit.gwCall('POST', 'auto-links/', { json: { link_id: col.data.link_id, matching_keys: keys } });
  expect(r.status, r.text).toBe(200);
  const { task_id: task } = RESPONSES.autoLinks!.parse(r.body) as { task_id: string };
  // Documented as a GET whose body is the task id; the query string works too.
  const byBody = await getWithBody(`${kit.gw}/auto-link-task/`, JSON.stringify(task));
  expect(byBody.status, JSON.stringify(byBody.body)).toBe(200);
  expect(RESPONSES.autoLinkTask!.parse(byBody.body)).toEqual({ status: 'success' });
  expect((await kit.gwCall('GET', `auto-link-task/?task_id=${task}`)).body).toEqual({ status: 'success' });
  expect((await kit.list(a)).map((x) => [x.Name, (x.Team ?? []).map((l: { row_id: string }) => l.row_id)])).toEqual([
    ['Ann', [red]],
    ['Bob', [blue]],
    ['Cid', []],
    ['Dee', []],
  ]);
  expectClientError(await kit.gwCall('GET', 'auto-link-task/?task_id=nope'), 404);
  expectClientError(await kit.gwCall('GET', 'auto-link-task/'), 400);
  for (const bad of [
    { link_id: 'none', matching_keys: keys },
    { link_id: col.data.link_id, matching_keys: [] },
    { link_id: col.data.link_id, matching_keys: [{ table1_key: 'zzzz', table2_key: keys[0]!.table2_key }] },
    { link_id: col.data.link_id, matching_keys: [{ table1_key: col.key, table2_key: keys[0]!.table2_key }] },
  ]) {
    expectClientError(await kit.gwCall('POST', 'auto-links/', { json: bad }), 400);
  }
});

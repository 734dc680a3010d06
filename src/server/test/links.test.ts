/** `links/` POST, PUT, DELETE (api-shapes §2.4), link cells (SHAPE-2) and link formulas (SHAPE-3). */
import { expect, test } from '@playwright/test';
import { expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

/** Two tables joined by a link column, with rows on both sides. */
async function linked() {
  const people = uniq('People');
  const projects = uniq('Projects');
  await kit.createTable(projects, [
    { column_name: 'Title', column_type: 'text' },
    { column_name: 'Budget', column_type: 'number' },
  ]);
  await kit.createTable(people, [{ column_name: 'Name', column_type: 'text' }]);
  const col = await kit.addColumn(people, {
    column_name: 'Projects',
    column_type: 'link',
    column_data: { other_table: projects },
  });
  const linkId = col.data.link_id as string;
  const pr = await kit.append(projects, [
    { Title: 'Apollo', Budget: 10 },
    { Title: 'Gemini', Budget: 32 },
    { Title: 'Mercury', Budget: 5 },
  ]);
  const pe = await kit.append(people, [{ Name: 'Ann' }, { Name: 'Bob' }]);
  const links = (method: string, map: Record<string, string[]>, extra: Record<string, unknown> = {}) =>
    kit.gwCall(method, 'links/', {
      json: { table_name: people, other_table_name: projects, link_id: linkId, other_rows_ids_map: map, ...extra },
    });
  return { people, projects, linkId, pr: pr as [string, string, string], pe: pe as [string, string], links };
}

test('SHAPE-2 link cells read as [{row_id, display_value}] on both sides; an empty link is [] or null', async () => {
  const { people, projects, pr, pe, links } = await linked();
  const r = await links('POST', { [pe[0]]: [pr[0], pr[1]] });
  expect(r.status, r.text).toBe(200);
  expect(r.body).toEqual({ success: true });
  const rows = await kit.list(people);
  expect(rows[0]!.Projects).toEqual([
    { row_id: pr[0], display_value: 'Apollo' },
    { row_id: pr[1], display_value: 'Gemini' },
  ]);
  expect(rows[1]!.Projects === null || (Array.isArray(rows[1]!.Projects) && rows[1]!.Projects.length === 0)).toBe(true);
  const back = await kit.list(projects);
  const twin = Object.keys(back[0]!).find((k) => k === people)!;
  expect(back[0]![twin]).toEqual([{ row_id: pe[0], display_value: 'Ann' }]);
  const single = await kit.gwCall('GET', `rows/${pe[0]}/?table_name=${encodeURIComponent(people)}&convert_keys=true`);
  expect(single.body.Projects).toEqual(rows[0]!.Projects);
});

test('link display values follow the type of the display column', async () => {
  const nums = uniq('Numbers');
  await kit.createTable(nums, [{ column_name: 'Value', column_type: 'number' }]);
  const t = uniq('Refs');
  await kit.createTable(t, [{ column_name: 'Name', column_type: 'text' }]);
  const col = await kit.addColumn(t, { column_name: 'Num', column_type: 'link', column_data: { other_table: nums } });
  const [n] = await kit.append(nums, [{ Value: 3.5 }]);
  const [r] = await kit.append(t, [{ Name: 'x' }]);
  await kit.gwCall('POST', 'links/', {
    json: { table_name: t, other_table_name: nums, link_id: col.data.link_id, other_rows_ids_map: { [r!]: [n] } },
  });
  expect((await kit.list(t))[0]!.Num).toEqual([{ row_id: n, display_value: 3.5 }]);
});

test("PUT replaces a row's links; DELETE answers deleted_links_count, also 0 for absent links", async () => {
  const { people, pr, pe, links } = await linked();
  await links('POST', { [pe[0]]: [pr[0], pr[1]], [pe[1]]: [pr[2]] });
  const put = await links('PUT', { [pe[0]]: [pr[2]] });
  expect(put.status, put.text).toBe(200);
  let rows = await kit.list(people);
  expect(rows.map((x) => (x.Projects ?? []).map((l: { row_id: string }) => l.row_id))).toEqual([[pr[2]], [pr[2]]]);
  const del = await links('DELETE', { [pe[1]]: [pr[2]] });
  expect(del.status).toBe(200);
  expect(del.body).toEqual({ deleted_links_count: 1 });
  const again = await links('DELETE', { [pe[1]]: [pr[2]] });
  expect(again.body).toEqual({ deleted_links_count: 0 });
  rows = await kit.list(people);
  expect((rows[1]!.Projects ?? []).length).toBe(0);
});

test("links may be written from the other table's side and by table ids", async () => {
  const { people, projects, linkId, pr, pe } = await linked();
  const meta = await kit.metadata();
  const id = (n: string) => meta.tables.find((t) => t.name === n)!._id;
  const r = await kit.gwCall('POST', 'links/', {
    json: {
      table_id: id(projects),
      other_table_id: id(people),
      link_id: linkId,
      other_rows_ids_map: { [pr[1]]: [pe[1]] },
    },
  });
  expect(r.status, r.text).toBe(200);
  expect((await kit.list(people))[1]!.Projects).toEqual([{ row_id: pr[1], display_value: 'Gemini' }]);
});

test('bad link calls are refused with 400 and write nothing', async () => {
  const { people, projects, linkId, pr, pe, links } = await linked();
  await links('POST', { [pe[0]]: [pr[0]] });
  const bad: [Record<string, unknown>, string?][] = [
    [{ link_id: 'zzzz' }],
    [{ link_id: undefined }],
    [{ other_rows_ids_map: [pe[0]] }],
    [{ other_rows_ids_map: { [pe[0]]: pr[1] } }],
    [{ other_rows_ids_map: { [pe[0]]: [42] } }],
    [{ other_rows_ids_map: { [pe[1]]: [pr[1], 'AAAAAAAAAAAAAAAAAAAAAA'] } }, 'row_not_exist'],
    [{ other_rows_ids_map: { AAAAAAAAAAAAAAAAAAAAAA: [pr[1]] } }, 'row_not_exist'],
    [{ other_table_name: people }],
  ];
  for (const [extra, type] of bad) {
    const r = await kit.gwCall('POST', 'links/', {
      json: {
        table_name: people,
        other_table_name: projects,
        link_id: linkId,
        other_rows_ids_map: { [pe[1]]: [pr[1]] },
        ...extra,
      },
    });
    expectClientError(r, 400);
    if (type) expect(r.body.error_type).toBe(type);
  }
  expectClientError(await links('POST', { [pe[0]]: [pr[0]] }), 400); // the link exists
  expectClientError(
    await kit.gwCall('POST', 'links/', {
      json: { table_name: 'Nope', other_table_name: projects, link_id: linkId, other_rows_ids_map: {} },
    }),
    404,
  );
  const rows = await kit.list(people);
  expect(rows.map((x) => (x.Projects ?? []).map((l: { row_id: string }) => l.row_id))).toEqual([[pr[0]], []]);
});

test('deleting a row drops its links from the other side', async () => {
  const { people, projects, pr, pe, links } = await linked();
  await links('POST', { [pe[0]]: [pr[0]], [pe[1]]: [pr[0]] });
  await kit.gwCall('DELETE', 'rows/', { json: { table_name: people, row_ids: [pe[0]] } });
  const back = (await kit.list(projects))[0]!;
  expect(back[people]).toEqual([{ row_id: pe[1], display_value: 'Bob' }]);
  await kit.sql(`DELETE FROM \`${people}\``);
  expect(((await kit.list(projects))[0]![people] ?? []).length).toBe(0);
});

test('SHAPE-3 link formulas: count_links an integer, lookup and findmax arrays, rollup a number', async () => {
  const { people, pr, pe, links } = await linked();
  await kit.addColumn(people, {
    column_name: 'Count',
    column_type: 'link-formula',
    column_data: { link_column: 'Projects', formula: 'count_links' },
  });
  await kit.addColumn(people, {
    column_name: 'Titles',
    column_type: 'link-formula',
    column_data: { link_column: 'Projects', formula: 'lookup', level1_linked_column: 'Title' },
  });
  await kit.addColumn(people, {
    column_name: 'Sum',
    column_type: 'link-formula',
    column_data: { link_column: 'Projects', formula: 'rollup', level1_linked_column: 'Budget', summary_method: 'sum' },
  });
  await kit.addColumn(people, {
    column_name: 'Max',
    column_type: 'link-formula',
    column_data: { link_column: 'Projects', formula: 'findmax', level1_linked_column: 'Budget' },
  });
  await links('POST', { [pe[0]]: [pr[0], pr[1]], [pe[1]]: [pr[2]] });
  const [ann, bob] = await kit.list(people);
  expect(ann).toMatchObject({ Count: 2, Titles: ['Apollo', 'Gemini'], Sum: 42, Max: [32] });
  expect(Number.isInteger(ann!.Count)).toBe(true);
  expect(bob).toMatchObject({ Count: 1, Titles: ['Mercury'], Sum: 5 });
  const single = await kit.gwCall('GET', `rows/${pe[0]}/?table_name=${encodeURIComponent(people)}&convert_keys=true`);
  expect(single.body).toMatchObject({ Count: 2, Titles: ['Apollo', 'Gemini'] });
  expect((await kit.sql(`SELECT Count, Titles FROM \`${people}\` WHERE Name = 'Ann'`)).results).toEqual([
    { Count: 2, Titles: ['Apollo', 'Gemini'] },
  ]);
});

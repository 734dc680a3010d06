/**
 * The records sequence (BASE-5…7, SHAPE-3): on the SHAPE-8 scratch world (table A linked to B,
 * src/harness/answers/world.ts), a second link and a page of a row's links from an offset, a
 * count link formula read back, a row locked (and unlocked), a comment counted before and
 * after its delete, and rows moved to big data and back, each change read back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Undecided } from '../harness/outcome.js';
import { archiveBody } from '../harness/release-forms.js';
import type { Reply } from '../harness/target.js';
import { jsonBody } from './normalise.js';
import type { Side } from './side.js';
import { byName, field, rowsOf, stepSequence } from './steps.js';

/** Read until `done` (the real service moves big-data rows in the background): at most 5 tries, 300 ms apart. */
async function eventually(read: () => Promise<Reply>, done: (r: Reply) => boolean): Promise<void> {
  for (let i = 0; i < 5 && !done(await read()); i++) await sleep(300);
}

export const recordsSequence = (side: Side) =>
  stepSequence(side, 'records', async (step, world) => {
    const { target, state } = side;
    const gw = (sub: string) => target.gatewayPath(0, sub);
    const auth = { base: 0 } as const;
    const t = await world.tables(target);
    const table_name = t.a.name;
    // BASE-5: a1 linked to b1 and b2; its links from offset 1 are b2 only.
    await step('link-second', 'createLinks', {
      auth,
      method: 'POST',
      path: gw('links/'),
      json: {
        table_id: t.aId,
        other_table_id: t.bId,
        link_id: t.linkId,
        other_rows_ids_map: { [t.rows.a1]: [t.other.b2] },
      },
    });
    await step(
      'links-from-offset',
      'listRowLinks',
      {
        auth,
        method: 'POST',
        path: gw('query-links/'),
        json: { table_name, link_column_name: 'Link', rows: [{ row_id: t.rows.a1, offset: 1, limit: 1 }] },
      },
      'body',
    );
    // SHAPE-3: a count link formula is a number (a1: 2 links).
    await step('add-link-formula', 'appendColumn', {
      auth,
      method: 'POST',
      path: gw('columns/'),
      json: {
        table_name,
        column_name: 'Count',
        column_type: 'link-formula',
        column_data: { formula: 'count_links', link_column: 'Link' },
      },
    });
    await step(
      'rows-with-formula',
      'listRows',
      { auth, path: gw('rows/'), query: { table_name, convert_keys: 'true' } },
      (b) => ({
        Count: byName(b, 'Count'),
      }),
    );
    // BASE-7: a locked row reads locked; a comment counts, and after its delete does not.
    const row = (name: string, id: string) =>
      step(name, 'getRow', { auth, path: gw(`rows/${id}/`), query: { table_name, convert_keys: 'true' } }, (b) => ({
        _locked: field(b, '_locked') ?? null,
      }));
    await step('lock', 'lockRows', {
      auth,
      method: 'PUT',
      path: gw('lock-rows/'),
      json: { table_name, row_ids: [t.rows.a2] },
    });
    await row('after-lock', t.rows.a2);
    await step('unlock', 'unlockRows', {
      auth,
      method: 'PUT',
      path: gw('unlock-rows/'),
      json: { table_name, row_ids: [t.rows.a2] },
    });
    const count = (name: string) =>
      step(name, 'getRowCommentsCount', { auth, path: gw('comments-count/'), query: { row_id: t.rows.a3 } }, 'body');
    await step('comment', 'createRowComment', {
      auth,
      method: 'POST',
      path: gw('comments/'),
      query: { table_id: t.aId, row_id: t.rows.a3 },
      json: { comment: 'conformance diff' },
    });
    await count('comments-count');
    const list = await target.gw(0, 'GET', 'comments/', { query: { row_id: t.rows.a3 } });
    const listed = jsonBody(list);
    const id = ((Array.isArray(listed) ? listed : field(listed, 'comment_list')) as { id?: unknown }[] | undefined)?.[0]
      ?.id;
    if (id === undefined)
      throw new Undecided('fixture', `the row's comment list shows no comment: ${list.text.slice(0, 200)}`);
    await step('delete-comment', 'deleteComment', { auth, method: 'DELETE', path: gw(`comments/${String(id)}/`) });
    await count('comments-count-after-delete');
    // BASE-6: a table's rows moved to big data leave the normal row list, SQL still reads them; moved back, they return.
    const big = await world.bigTable(target);
    const ids = (b: unknown) => rowsOf(b).map((x) => x._id);
    const appended = await target.gw(0, 'POST', 'rows/', {
      json: { table_name: big.t.name, rows: [{ Name: 'x1' }, { Name: 'x2' }] },
    });
    if (appended.status !== 200) throw new Undecided('fixture', `append to ${big.t.name}: status ${appended.status}`);
    const normal = () => target.gw(0, 'GET', 'rows/', { query: { table_name: big.t.name } });
    await step('archive', 'archiveViewGateway', {
      auth,
      method: 'POST',
      path: gw('archive-view/'),
      json: archiveBody(state.apiVersion, big.t.name, { view: big.view, where: "Name LIKE 'x%'" }),
    });
    await eventually(normal, (r) => ids(jsonBody(r)).length === 0);
    const listRows = (name: string) =>
      step(name, 'listRows', { auth, path: gw('rows/'), query: { table_name: big.t.name } }, (b) => ({
        count: ids(b).length,
      }));
    await listRows('rows-after-archive');
    const sql = await step(
      'sql-after-archive',
      'querySql',
      {
        auth,
        method: 'POST',
        path: gw('sql/'),
        json: { sql: `SELECT _id, Name FROM \`${big.t.name}\``, convert_keys: true },
      },
      (b) => ({
        names: rowsOf(b)
          .map((x) => x.Name)
          .sort(),
      }),
    );
    await step('unarchive', 'moveRowsToNormalBackend', {
      auth,
      method: 'POST',
      path: gw('unarchive/'),
      json: { table_id: big.id, row_ids: ids(jsonBody(sql)) },
    });
    await eventually(normal, (r) => ids(jsonBody(r)).length === 2);
    await listRows('rows-after-unarchive');
  });

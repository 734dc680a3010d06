/**
 * Row locks and comments (BASE-7), notifications and toasts, the activity log, snapshots and
 * collaborators: answers parsed with the documented shapes, bad input refused with nothing written.
 */
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { call, expectClientError, uniq, fileServer } from './kit.js';

const kit = fileServer({ unlimited: true });

const parse = (id: string, body: unknown) => RESPONSES[id as keyof typeof RESPONSES]!.parse(body);

async function table(rows: Record<string, unknown>[]) {
  const t = uniq('Records');
  await kit.createTable(t, [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
  ]);
  return { t, ids: await kit.append(t, rows), id: (await kit.table(t))._id };
}

test('BASE-7 lock-rows sets _locked and _locked_by, twice is fine; unlock-rows clears them', async () => {
  const { t, ids } = await table([{ Name: 'a' }, { Name: 'b' }]);
  const lock = (path: string, row_ids: unknown) => kit.gwCall('PUT', path, { json: { table_name: t, row_ids } });
  for (let i = 0; i < 2; i++) {
    const r = await lock('lock-rows/', [ids[0]]);
    expect(r.status, r.text).toBe(200);
    expect(parse('lockRows', r.body)).toEqual({ success: true });
  }
  let rows = await kit.list(t);
  expect(rows.map((r) => [r.Name, r._locked, r._locked_by])).toEqual([
    ['a', true, 'conformance'],
    ['b', null, null],
  ]);
  expect((await kit.sql(`SELECT Name FROM \`${t}\` WHERE _locked = 1`)).results).toEqual([{ Name: 'a' }]);
  expect(parse('unlockRows', (await lock('unlock-rows/', [ids[0], ids[1]])).body)).toEqual({ success: true });
  rows = await kit.list(t);
  expect(rows.map((r) => r._locked)).toEqual([null, null]);
  // Bad input: nothing locked.
  expectClientError(await lock('lock-rows/', [ids[1], 'AAAAAAAAAAAAAAAAAAAAAA']), 404);
  expectClientError(await lock('lock-rows/', 'x'), 400);
  expectClientError(await lock('lock-rows/', [1]), 400);
  expect((await kit.list(t)).map((r) => r._locked)).toEqual([null, null]);
  await kit.gwCall('POST', 'add-archived-rows/', { json: { table_name: t, rows: [{ Name: 'big' }] } });
  const [big] = (await kit.sql(`SELECT _id FROM \`${t}\` WHERE Name = 'big'`)).results;
  expectClientError(await lock('lock-rows/', [big!._id]), 400);
});

test('BASE-7 comments: created on a row, listed, read, counted, per row, within days, deleted', async () => {
  const { ids, id } = await table([{ Name: 'a' }, { Name: 'b' }]);
  const create = (rowId: string, json: unknown, tableId = id) =>
    kit.gwCall('POST', `comments/?table_id=${tableId}&row_id=${rowId}`, { json });
  const r = await create(ids[0]!, { comment: 'first' });
  expect(r.status, r.text).toBe(200);
  expect(parse('createRowComment', r.body)).toEqual({ success: true });
  await create(ids[0]!, { comment: 'second' });
  const list = parse('listRowComments', (await kit.gwCall('GET', `comments/?row_id=${ids[0]}`)).body) as {
    id: number;
    comment: string;
    row_id: string;
    author: string;
  }[];
  expect(list.map((c) => [c.comment, c.row_id, c.author])).toEqual([
    ['first', ids[0], 'conformance'],
    ['second', ids[0], 'conformance'],
  ]);
  expect(parse('getComment', (await kit.gwCall('GET', `comments/${list[0]!.id}/`)).body)).toMatchObject({
    id: list[0]!.id,
    comment: 'first',
    resolved: 0,
  });
  expect(parse('getRowCommentsCount', (await kit.gwCall('GET', `comments-count/?row_id=${ids[0]}`)).body)).toEqual({
    count: 2,
  });
  expect((await kit.gwCall('GET', `comments-count/?row_id=${ids[1]}`)).body).toEqual({ count: 0 });
  const recent = parse('listCommentsWithinDays', (await kit.gwCall('GET', 'comments-within-days/?days=1')).body) as {
    comments: { id: number }[];
  };
  expect(recent.comments.map((c) => c.id)).toEqual(expect.arrayContaining(list.map((c) => c.id)));
  const perRow = await call(kit.url, 'GET', `/api/v2.1/dtables/${kit.base.uuid}/rows-comments-num/`, {
    token: kit.token,
  });
  expect(perRow.status, perRow.text).toBe(200);
  expect(
    (parse('getNumberOfComments', perRow.body) as { rows_comments_num: Record<string, number> }).rows_comments_num[
      ids[0]!
    ],
  ).toBe(2);
  const del = await kit.gwCall('DELETE', `comments/${list[0]!.id}/`);
  expect(parse('deleteComment', del.body)).toEqual({ success: true });
  expect((await kit.gwCall('GET', `comments-count/?row_id=${ids[0]}`)).body).toEqual({ count: 1 });
  expectClientError(await kit.gwCall('GET', `comments/${list[0]!.id}/`), 404);
  expectClientError(await kit.gwCall('DELETE', `comments/${list[0]!.id}/`), 404);
  // Bad input writes nothing.
  expectClientError(await create(ids[1]!, { comment: '' }), 400);
  expectClientError(await create(ids[1]!, { comment: 5 }), 400);
  expectClientError(await create('AAAAAAAAAAAAAAAAAAAAAA', { comment: 'x' }), 404);
  expectClientError(await create(ids[1]!, { comment: 'x' }, 'zzzz'), 404);
  expectClientError(await kit.gwCall('POST', `comments/?table_id=${id}`, { json: { comment: 'x' } }), 400);
  expectClientError(await kit.gwCall('GET', 'comments/'), 400);
  expectClientError(await kit.gwCall('GET', 'comments/x/'), 400);
  expect((await kit.gwCall('GET', `comments-count/?row_id=${ids[1]}`)).body).toEqual({ count: 0 });
});

test("a comment notifies the base's users; notifications are marked seen by form field, one or all, and deleted", async () => {
  const { ids, id } = await table([{ Name: 'a' }]);
  await kit.gwCall('DELETE', 'notifications/');
  await kit.gwCall('POST', `comments/?table_id=${id}&row_id=${ids[0]}`, { json: { comment: 'look' } });
  const listed = () =>
    kit.gwCall('GET', 'notifications/').then(
      (r) =>
        parse('listBaseNotifications', r.body) as {
          notification_list: { id: number; seen: number; msg_type: string; detail: { comment: string } }[];
        },
    );
  const list = (await listed()).notification_list;
  expect(list.length).toBeGreaterThan(0);
  expect(list.every((n) => n.msg_type === 'row_comment' && n.detail.comment === 'look' && n.seen === 0)).toBe(true);
  expect(
    parse(
      'markBaseNotificationAsSeen',
      (await kit.gwCall('PUT', `notifications/${list[0]!.id}/`, { form: { seen: 'true' } })).body,
    ),
  ).toEqual({ success: true });
  expect((await listed()).notification_list.find((n) => n.id === list[0]!.id)!.seen).toBe(1);
  expectClientError(await kit.gwCall('PUT', 'notifications/', { json: { seen: true } }), 400);
  expectClientError(await kit.gwCall('PUT', 'notifications/', { form: { seen: 'yes' } }), 400);
  expectClientError(await kit.gwCall('PUT', 'notifications/999999/', { form: { seen: 'true' } }), 404);
  expect((await listed()).notification_list.filter((n) => n.seen === 1)).toHaveLength(1);
  expect(
    parse('markBaseNotificationsAsSeen', (await kit.gwCall('PUT', 'notifications/', { form: { seen: 'true' } })).body),
  ).toEqual({ success: true });
  expect((await listed()).notification_list.every((n) => n.seen === 1)).toBe(true);
  expect(parse('deleteBaseNotifications', (await kit.gwCall('DELETE', 'notifications/')).body)).toEqual({
    success: true,
  });
  expect((await listed()).notification_list).toEqual([]);
});

test('ui-toasts accepts a toast to a user of the base and refuses a malformed one', async () => {
  const user = kit.srv.ctx.creds.member.id;
  const r = await kit.gwCall('POST', 'ui-toasts/', {
    json: { to_user: user, toast_type: 'warning', detail: { msg: 'hello' } },
  });
  expect(r.status, r.text).toBe(200);
  expect(parse('sendToastNotification', r.body)).toEqual({ success: true });
  for (const bad of [{ to_user: 'nobody@auth.local' }, { toast_type: 'loud' }, { detail: 'x' }, { detail: { msg: 1 } }])
    expectClientError(await kit.gwCall('POST', 'ui-toasts/', { json: bad }), 400);
});

test('operations/ and activities/ log the row operations, newest first', async () => {
  const { t, ids } = await table([{ Name: 'a', N: 1 }]);
  await kit.gwCall('PUT', 'rows/', { json: { table_name: t, updates: [{ row_id: ids[0], row: { N: 2 } }] } });
  const acts = parse('listRowActivities', (await kit.gwCall('GET', `activities/?row_id=${ids[0]}`)).body) as {
    total_count: number;
    activities: {
      op_type: string;
      detail: { row_data: { column_name: string; value: unknown; old_value?: unknown }[] };
    }[];
  };
  expect(acts.total_count).toBe(2);
  expect(acts.activities.map((a) => a.op_type)).toEqual(['modify_row', 'insert_row']);
  expect(acts.activities[0]!.detail.row_data).toEqual([
    expect.objectContaining({ column_name: 'N', value: 2, old_value: 1 }),
  ]);
  expect(
    (await kit.gwCall('GET', `activities/?row_id=${ids[0]}&page=2&per_page=1`)).body.activities.map(
      (a: { op_type: string }) => a.op_type,
    ),
  ).toEqual(['insert_row']);
  const log = parse('getBaseActivityLog', (await kit.gwCall('GET', 'operations/')).body) as {
    operations: { op_id: number; operation: string }[];
  };
  const newest = JSON.parse(log.operations[0]!.operation) as {
    op_type: string;
    row_id: string;
    updated: Record<string, unknown>;
  };
  expect([newest.op_type, newest.row_id]).toEqual(['modify_row', ids[0]]);
  expect(log.operations[0]!.op_id).toBeGreaterThan(log.operations[1]!.op_id);
  expectClientError(await kit.gwCall('GET', 'activities/'), 400);
  expectClientError(await kit.gwCall('GET', 'operations/?page=x'), 400);
});

test("snapshot/ records one; related-users/ lists the base's users", async () => {
  const r = await kit.gwCall('POST', 'snapshot/', { json: { dtable_name: 'Backup' } });
  expect(r.status, r.text).toBe(200);
  expect(parse('createSnapshot', r.body)).toMatchObject({
    status: 'created',
    snapshot: { dtable_name: 'Backup.dtable', dtable_uuid: kit.base.uuid },
  });
  expect(
    kit.srv.ctx.db
      .prepare('SELECT count(*) FROM base_snapshots WHERE commit_id = ?')
      .pluck()
      .get(r.body.snapshot.commit_id),
  ).toBe(1);
  expectClientError(await kit.gwCall('POST', 'snapshot/', { json: { dtable_name: 3 } }), 400);
  const users = parse('listCollaborators', (await kit.gwCall('GET', 'related-users/')).body) as {
    user_list: { email: string }[];
  };
  expect(users.user_list.map((u) => u.email).sort()).toEqual(
    [kit.srv.ctx.creds.admin.id, kit.srv.ctx.creds.member.id].sort(),
  );
});

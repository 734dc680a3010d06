/**
 * SHAPE-8 recipes of the rest of base_operations.yaml: row comments, notifications, toasts,
 * activity logs and snapshots. Comments are made on the worker's scratch rows. The account's
 * notifications of the base are not the run's own: marking them all seen puts each unseen
 * one back, deleting them all runs only where there are none, and one is marked with the
 * value it already has. A snapshot cannot be removed through the API: it is reported.
 */
import { endpoint, fillPath } from '../../spec/index.js';
import { fixtureMissing } from '../outcome.js';
import { warnState } from '../test.js';
import type { Target } from '../target.js';
import { ACCOUNT, gw, obj, offers, skipIf, tag } from './calls.js';
import { type Kit, type Recipes } from './kit.js';
import { accountUser } from './recipes-admin.js';
import { setupOk } from '../outcome.js';
import { addComment } from './world.js';

interface Notification {
  id: string | number;
  seen: unknown;
}

async function notifications(target: Target): Promise<Notification[]> {
  const r = await target.gw(0, 'GET', 'notifications/');
  setupOk(r, "list the base's notifications");
  const list = obj(r.json()).notification_list;
  if (!Array.isArray(list))
    throw fixtureMissing(`the notification list has no notification_list: ${r.text.slice(0, 200)}`);
  return (list as Notification[]).filter((n) => n && (typeof n.id === 'number' || typeof n.id === 'string'));
}

const seenOf = (n: Notification) => n.seen === true || n.seen === 1 || n.seen === 'true';

/** The account's own user id: Get Account Info, else Search User by Team (an admin), else the base's collaborators. */
async function ownUserId(k: Kit): Promise<string> {
  const info = await k.target.call({ path: endpoint('getAccountInfo').path, auth: 'account', expect: [401, 403, 404] });
  const email = info.status === 200 ? obj(info.json()).email : undefined;
  if (typeof email === 'string' && email) return email;
  if (k.state.target.admin && k.state.target.org_id !== undefined && k.state.target.username)
    return (await accountUser(k)).id;
  const users = await k.target.gw(0, 'GET', 'related-users/');
  const list = (users.status === 200 ? obj(users.json()).user_list : []) as
    { email?: string; contact_email?: string }[] | undefined;
  const me = list?.find(
    (u) => u.contact_email === k.state.target.username || u.email === k.state.target.username,
  )?.email;
  if (!me)
    throw fixtureMissing(
      `the account's user id: Get Account Info answered ${info.status} and the collaborators do not name ${k.state.target.username ?? 'the account'}`,
    );
  return me;
}

/** Comments are made through Create Row Comment (6.2): before it, the comment recipes do not apply. */
const COMMENTS = offers('createRowComment');
const comments = async (k: Kit) => ({ t: await k.world.tables(k.target), id: await k.world.comment(k.target) });

export const BASE_RECIPES: Recipes = {
  listRowComments: {
    needs: COMMENTS,
    async run(k) {
      const { t } = await comments(k);
      await k.main(gw(k.target, 'GET', 'comments/', { query: { row_id: t.rows.a1 } }));
    },
  },
  createRowComment: {
    async run(k) {
      const t = await k.world.tables(k.target);
      await k.main(
        gw(k.target, 'POST', 'comments/', {
          query: { table_id: t.aId, row_id: t.rows.a2 },
          json: { comment: `conformance ${tag()}` },
        }),
      );
    },
  },
  getComment: {
    needs: COMMENTS,
    async run(k) {
      const { id } = await comments(k);
      await k.main(gw(k.target, 'GET', `comments/${id}/`));
    },
  },
  deleteComment: {
    needs: COMMENTS,
    async run(k) {
      const t = await k.world.tables(k.target);
      const id = await addComment(k.target, t, t.rows.a3, 'to delete');
      await k.main(gw(k.target, 'DELETE', `comments/${id}/`));
    },
  },
  getRowCommentsCount: {
    needs: COMMENTS,
    async run(k) {
      const { t } = await comments(k);
      await k.main(gw(k.target, 'GET', 'comments-count/', { query: { row_id: t.rows.a1 } }));
    },
  },
  listCommentsWithinDays: {
    needs: COMMENTS,
    async run(k) {
      await comments(k);
      await k.main(gw(k.target, 'GET', 'comments-within-days/', { query: { days: 7 } }));
    },
  },
  getNumberOfComments: {
    needs: COMMENTS,
    async run(k) {
      await comments(k);
      await k.main({
        path: fillPath(endpoint('getNumberOfComments').path, { base_uuid: k.target.base(0).uuid }),
        auth: { base: 0 },
      });
    },
  },
  listBaseNotifications: {
    async run(k) {
      await k.main(gw(k.target, 'GET', 'notifications/'));
    },
  },
  markBaseNotificationsAsSeen: {
    async run(k) {
      const unseen = (await notifications(k.target)).filter((n) => !seenOf(n));
      for (const n of unseen)
        k.undo(`notification ${n.id} marked unseen again`, () =>
          k.target.gw(0, 'PUT', `notifications/${n.id}/`, { form: { seen: 'false' } }),
        );
      await k.main(gw(k.target, 'PUT', 'notifications/', { form: { seen: 'true' } }));
    },
  },
  deleteBaseNotifications: {
    async run(k) {
      const n = (await notifications(k.target)).length;
      skipIf(
        n > 0,
        `the account has ${n} notification(s) of base ${k.target.base(0).name}: deleting them all would remove them irrevocably (the check runs where there are none)`,
      );
      await k.main(gw(k.target, 'DELETE', 'notifications/'));
    },
  },
  markBaseNotificationAsSeen: {
    async run(k) {
      const [n] = await notifications(k.target);
      skipIf(
        !n,
        `the account has no notification of base ${k.target.base(0).name} to mark (notifications come from others' activity, which the API cannot make)`,
      );
      // Marked with the value it already has: nothing changes.
      await k.main(gw(k.target, 'PUT', `notifications/${n!.id}/`, { form: { seen: String(seenOf(n!)) } }));
    },
  },
  sendToastNotification: {
    needs: ACCOUNT,
    async run(k) {
      const me = await ownUserId(k);
      await k.main(
        gw(k.target, 'POST', 'ui-toasts/', {
          json: { to_user: me, toast_type: 'success', detail: { msg: 'conformance check (SHAPE-8)' } },
        }),
      );
    },
  },
  getBaseActivityLog: {
    async run(k) {
      await k.main(gw(k.target, 'GET', 'operations/', { query: { page: 1 } }));
    },
  },
  listRowActivities: {
    async run(k) {
      const t = await k.world.tables(k.target);
      await k.main(gw(k.target, 'GET', 'activities/', { query: { row_id: t.rows.a1, page: 1, per_page: 10 } }));
    },
  },
  createSnapshot: {
    async run(k) {
      const name = k.target.base(0).name;
      const r = await k.main(gw(k.target, 'POST', 'snapshot/', { json: { dtable_name: name } }));
      if (r.status < 300)
        warnState(`SHAPE-8 created a snapshot of base ${name}: the API has no call to remove one`, false);
    },
  },
};

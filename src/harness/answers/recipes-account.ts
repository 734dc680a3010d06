/**
 * SHAPE-8 recipes of user_account_operations.yaml: search, apps, webhooks, workspaces and
 * bases, import and export. What a recipe makes (a webhook, a base) carries the run's prefix
 * and is removed afterwards; an app is only read, or set active as apps start (as ACCT-6
 * leaves it); the only user "added" to an app is one that does not exist.
 */
import { registerSecret } from '../../client/redact.js';
import { endpoint, fillPath } from '../../spec/index.js';
import type { RunState } from '../state.js';
import { ACCOUNT, acct, formOf, jsonOf, obj, skipIf, tag, WORKSPACE, wsBase } from './calls.js';
import { need, type Kit, type Recipes } from './kit.js';
import { setupOk } from '../outcome.js';

/** The token of a universal app the account manages; none is a skip. */
async function appToken(k: Kit): Promise<string> {
  const r = await k.target.call(acct('GET', 'listUniversalApps'));
  setupOk(r, 'list universal apps (to find an app token)');
  const token = ((obj(r.json()).my_managed_apps ?? []) as { app_token?: string }[]).find((a) => a.app_token)?.app_token;
  skipIf(!token, 'needs a universal app the account manages');
  registerSecret(token);
  return token!;
}

const HOOK_URL = 'https://conformance.invalid/shape-8';

/** A webhook of base 0 pointing nowhere, deleted after the check; its id. */
async function ownWebhook(k: Kit): Promise<string | number> {
  const r = await k.target.call(
    acct('POST', 'createWebhook', wsBase(k.state), { multipart: formOf({ url: `${HOOK_URL}/${tag()}` }) }),
  );
  setupOk(r, 'create a webhook');
  const id = need(
    obj(obj(r.json()).webhook).id as string | number | undefined,
    `the new webhook's answer has no id: ${r.text.slice(0, 200)}`,
  );
  deleteWebhookLater(k, id);
  return id;
}

function deleteWebhookLater(k: Kit, id: string | number): void {
  k.undo(`webhook ${id}`, () =>
    k.target.call(acct('DELETE', 'deleteWebhook', { ...wsBase(k.state), webhook_id: id }, { expect: [404] })),
  );
}

const deleteBasePath = (state: RunState) =>
  fillPath(endpoint('deleteBase').path, { workspace_id: state.target.workspace_id! });

function deleteBaseLater(k: Kit, name: string): void {
  k.undo(`base ${name}`, () =>
    k.target.call({
      method: 'DELETE',
      path: deleteBasePath(k.state),
      auth: 'account',
      multipart: formOf({ name }),
      expect: [404],
    }),
  );
}

/** A base of the run's own in the descriptor's workspace, deleted after the check; its name. */
async function ownBase(k: Kit): Promise<string> {
  const name = `${k.state.tablePrefix}base_${tag()}`;
  deleteBaseLater(k, name);
  setupOk(
    await k.target.call(
      acct(
        'POST',
        'createBase',
        {},
        { multipart: formOf({ name, workspace_id: String(k.state.target.workspace_id) }) },
      ),
    ),
    `create base ${name}`,
  );
  return name;
}

export const ACCOUNT_RECIPES: Recipes = {
  itemsSearch: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(acct('GET', 'itemsSearch', {}, { query: { query_str: k.target.base(0).name } }));
    },
  },
  externalAppStatus: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(
        acct('PUT', 'externalAppStatus', { app_token: await appToken(k) }, { json: { is_inactive: false } }),
      );
    },
  },
  convertBigDataViewToExcel: {
    needs: WORKSPACE,
    async run(k) {
      const t = await k.world.tables(k.target);
      await k.main(
        acct('GET', 'convertBigDataViewToExcel', wsBase(k.state), { query: { table_id: t.aId, view_id: t.viewId } }),
      );
    },
  },
  appendExcelCsvToTable: {
    needs: WORKSPACE,
    async run(k) {
      const t = await k.world.tables(k.target);
      const form = formOf({ dtable_uuid: k.target.base(0).uuid, table_name: t.a.name });
      form.append('file', new Blob([`Name\nimported ${tag()}\n`], { type: 'text/csv' }), 'rows.csv');
      await k.main(
        acct('POST', 'appendExcelCsvToTable', { workspace_id: k.state.target.workspace_id! }, { multipart: form }),
      );
    },
  },
  listUniversalApps: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(acct('GET', 'listUniversalApps'));
    },
  },
  // A user that does not exist: the answer lists who was added, and nobody is.
  addAppUsers: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(
        acct(
          'POST',
          'addAppUsers',
          { app_token: await appToken(k) },
          { json: { users_info: [{ email: `${k.state.tablePrefix}nobody@example.invalid` }] } },
        ),
      );
    },
  },
  listAppUsers: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(acct('GET', 'listAppUsers', { app_token: await appToken(k) }));
    },
  },
  listAppInviteLinks: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(acct('GET', 'listAppInviteLinks', { app_token: await appToken(k) }));
    },
  },
  listWebhooks: {
    needs: WORKSPACE,
    async run(k) {
      await k.main(acct('GET', 'listWebhooks', wsBase(k.state)));
    },
  },
  createWebhook: {
    needs: WORKSPACE,
    async run(k) {
      const r = await k.main(
        acct('POST', 'createWebhook', wsBase(k.state), { multipart: formOf({ url: `${HOOK_URL}/${tag()}` }) }),
      );
      const id = obj(obj(jsonOf(r)).webhook).id;
      if (typeof id === 'string' || typeof id === 'number') deleteWebhookLater(k, id);
    },
  },
  updateWebhook: {
    needs: WORKSPACE,
    async run(k) {
      const id = await ownWebhook(k);
      await k.main(
        acct(
          'PUT',
          'updateWebhook',
          { ...wsBase(k.state), webhook_id: id },
          { multipart: formOf({ url: `${HOOK_URL}/updated-${tag()}` }) },
        ),
      );
    },
  },
  deleteWebhook: {
    needs: WORKSPACE,
    async run(k) {
      const id = await ownWebhook(k);
      await k.main(acct('DELETE', 'deleteWebhook', { ...wsBase(k.state), webhook_id: id }));
    },
  },
  listWorkspaces: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(acct('GET', 'listWorkspaces'));
    },
  },
  createBase: {
    needs: WORKSPACE,
    async run(k) {
      const name = `${k.state.tablePrefix}base_${tag()}`;
      deleteBaseLater(k, name);
      await k.main(
        acct(
          'POST',
          'createBase',
          {},
          { multipart: formOf({ name, workspace_id: String(k.state.target.workspace_id) }) },
        ),
      );
    },
  },
  copyBaseFromWorkspace: {
    needs: WORKSPACE,
    async run(k) {
      const name = await ownBase(k);
      const ws = String(k.state.target.workspace_id);
      const r = await k.main(
        acct(
          'POST',
          'copyBaseFromWorkspace',
          {},
          { multipart: formOf({ src_workspace_id: ws, name, dst_workspace_id: ws }) },
        ),
      );
      const copy = obj(obj(jsonOf(r)).dtable).name;
      if (typeof copy === 'string' && copy !== name) deleteBaseLater(k, copy);
    },
  },
  deleteBase: {
    needs: WORKSPACE,
    async run(k) {
      const name = await ownBase(k);
      await k.main({ method: 'DELETE', path: deleteBasePath(k.state), auth: 'account', multipart: formOf({ name }) });
    },
  },
};

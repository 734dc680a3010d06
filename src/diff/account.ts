/**
 * The account sequences (AUTH-1/2/3/5, ACCT-2/4/6/7/8/9), each where the descriptor allows it (an
 * account, a workspace, a team admin; else not compared): a wrong password; the account token
 * as Bearer; a write with the base token the account token gives; an API token set to read
 * only, and a temporary one, each then used; a base of the run's own with a table copied, then
 * deleted and asked for;
 * a binary asset uploaded, downloaded, exported without assets and deleted, then asked for;
 * an external app set inactive and back; a log filtered to the future; the team's automation option set to the value it has. What a
 * sequence makes carries the run's prefix and is removed after it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { registerSecret } from '../client/redact.js';
import { ACCOUNT, LOGIN, TEAM, WORKSPACE, type Needs } from '../harness/answers/calls.js';
import { Skip } from '../harness/answers/index.js';
import {
  accessOf,
  apiTokenOf,
  appAccess,
  createApiToken,
  deleteApiToken,
  form,
  onBase,
} from '../harness/api-tokens.js';
import { readZip } from '../harness/files.js';
import { fixtureMissing } from '../harness/outcome.js';
import { restored } from '../harness/restore.js';
import type { Reply, Target } from '../harness/target.js';
import { binaryBytes, downloadLinkOf, uploadCall, uploadedPath, uploadLink } from '../harness/uploads.js';
import { behaviourAt, endpoint, fillPath, gatewayPath } from '../spec/index.js';
import type { Exchange } from './exchange.js';
import { jsonBody } from './normalise.js';
import type { Side } from './side.js';
import { field, stepSequence, type Step } from './steps.js';

const path = (id: string, params: Record<string, string | number> = {}) => fillPath(endpoint(id).path, params);
const need = (needs: Needs, side: Side) => {
  const why = needs(side.state);
  if (why) throw new Skip(why);
};
const wsOf = (side: Side) => ({ workspace_id: side.state.target.workspace_id!, base_name: side.target.base(0).name });
/** The status of a gateway write on base 0's scratch table with `token`: may it write? */
const write = (step: Step, target: Target, name: string, token: string, table_name: string) =>
  step(name, 'appendRows', {
    method: 'POST',
    path: gatewayPath(target.base(0).uuid, 'rows/'),
    auth: { raw: `Bearer ${token}` },
    json: { table_name, rows: [{ Name: name }] },
  });

const PARTS: Record<string, (side: Side, step: Step, table: () => Promise<string>) => Promise<void>> = {
  // AUTH-1: a wrong password is refused.
  async login(side, step) {
    need(LOGIN, side);
    await step('wrong-password', 'authToken', {
      method: 'POST',
      path: path('authToken'),
      form: { username: side.state.target.username!, password: `wrong-${randomBytes(6).toString('hex')}` },
    });
  },
  // AUTH-2: the account token as Bearer opens an account route.
  async bearer(side, step) {
    need(ACCOUNT, side);
    const token = await side.target.accountToken();
    await step('bearer-account-token', 'listWorkspaces', {
      path: path('listWorkspaces'),
      auth: { raw: `Bearer ${token}` },
    });
  },
  // AUTH-3 and AUTH-5: what each token may do, shown by a write.
  async tokens(side, step, table) {
    need(WORKSPACE, side);
    const { target } = side;
    const ws = wsOf(side);
    const t = await table();
    const got = await step('account-base-token', 'accountAccessToken', {
      path: path('accountAccessToken', ws),
      auth: 'account',
    });
    const access = accessOf(got);
    if (access) await write(step, target, 'write-with-account-base-token', access.token, t);
    const app = `${side.state.tablePrefix}diff_${randomBytes(2).toString('hex')}`;
    const made = await createApiToken(target, ws.workspace_id, ws.base_name, app, 'rw');
    const apiToken = apiTokenOf(made, `create API token ${app}`);
    try {
      await step('api-token-to-read-only', 'updateApiToken', {
        method: 'PUT',
        path: path('updateApiToken', { ...ws, app_name: app }),
        auth: 'account',
        multipart: form({ permission: 'r' }),
      });
      const ro = accessOf(await appAccess(target, apiToken));
      if (ro) await write(step, target, 'write-with-read-only-token', ro.token, t);
    } finally {
      await restored(`API token ${app} deleted`, () => deleteApiToken(target, ws.workspace_id, ws.base_name, app));
    }
    const temp = await target.call({ path: path('createTempApiToken', ws), auth: 'account' });
    await step('temp-api-token-opens', 'appAccessToken', {
      path: path('appAccessToken'),
      auth: { raw: `Token ${apiTokenOf(temp, 'create a temporary API token')}` },
    });
  },
  // ACCT-8: a copy of a base holds its tables; a deleted base is gone.
  async bases(side, step) {
    need(WORKSPACE, side);
    const { target, state } = side;
    const workspace_id = state.target.workspace_id!;
    const tag = randomBytes(2).toString('hex');
    const name = `${state.tablePrefix}base_${tag}`;
    const del = (base: string, judged?: string) => {
      const o = {
        method: 'DELETE',
        path: path('deleteBase', { workspace_id }),
        auth: 'account',
        multipart: form({ name: base }),
      } as const;
      return judged ? step(judged, 'deleteBase', o) : target.call({ ...o, expect: [404] });
    };
    const gone = (x: Reply) => x.status < 300 || x.status === 404;
    const tokenOf = async (base: string) => {
      const r = await target.call({
        path: path('accountAccessToken', { workspace_id, base_name: base }),
        auth: 'account',
      });
      const access = accessOf(r);
      if (!access) throw fixtureMissing(`a base token for base ${base}: status ${r.status}`);
      return access;
    };
    const made = await target.call({
      method: 'POST',
      path: path('createBase'),
      auth: 'account',
      multipart: form({ name, workspace_id: String(workspace_id) }),
    });
    if (made.status >= 300) throw fixtureMissing(`create base ${name}: status ${made.status}`);
    try {
      const own = await tokenOf(name);
      const t = await onBase(target, own.uuid, own.token, 'POST', 'tables/', {
        json: { table_name: `${state.tablePrefix}t_${tag}`, columns: [{ column_name: 'Name', column_type: 'text' }] },
      });
      if (t.status >= 300) throw fixtureMissing(`create a table in base ${name}: status ${t.status}`);
      const ws = String(workspace_id);
      const copied = await step('copy-base', 'copyBaseFromWorkspace', {
        method: 'POST',
        path: path('copyBaseFromWorkspace'),
        auth: 'account',
        multipart: form({ src_workspace_id: ws, name, dst_workspace_id: ws }),
      });
      const copy = field(field(jsonBody(copied), 'dtable'), 'name');
      if (typeof copy === 'string' && copy !== name) {
        try {
          const c = await tokenOf(copy);
          await step(
            'tables-of-copy',
            'getMetadata',
            { path: gatewayPath(c.uuid, 'metadata/'), auth: { raw: `Bearer ${c.token}` } },
            (b) => ({ tables: ((field(field(b, 'metadata'), 'tables') ?? []) as unknown[]).length }),
          );
        } finally {
          await restored(`base ${copy} deleted`, () => del(copy), gone);
        }
      }
      await del(name, 'delete-base');
      await step('deleted-base-token', 'accountAccessToken', {
        path: path('accountAccessToken', { workspace_id, base_name: name }),
        auth: 'account',
      });
    } finally {
      await restored(`base ${name} gone`, () => del(name), gone);
    }
  },
  // ACCT-9 and ACCT-7: a binary asset reads back byte for byte, an export without assets lacks it, a deleted one is gone.
  async files(side, step) {
    const { target, state } = side;
    const link = await uploadLink(target, ['asset']);
    const name = `${state.tablePrefix}diff-${randomBytes(2).toString('hex')}.bin`;
    const bytes = binaryBytes(512);
    const up = await target.call(uploadCall(link, name, bytes));
    if (up.status !== 200) throw fixtureMissing(`upload ${name}: status ${up.status}`);
    const kept = field((jsonBody(up) as unknown[] | undefined)?.[0], 'name');
    const at = uploadedPath(link, typeof kept === 'string' ? kept : name);
    const asset = { path: path('deleteBaseAsset'), auth: { api: 0 }, query: { path: at } } as const;
    try {
      const dl = await step('download-link', 'getFileDownloadLink', { ...asset, path: path('getFileDownloadLink') });
      const url = downloadLinkOf(jsonBody(dl));
      const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
      if (url)
        await step(
          'download',
          'getFileDownloadLink',
          { path: url, auth: 'none', headers: { accept: '*/*' } },
          (_, r) => ({
            sameBytes: sha(r.res.body) === sha(bytes),
          }),
        );
      if (!WORKSPACE(state))
        await step(
          'export-without-assets',
          'exportBaseUser',
          {
            path: path('exportBaseUser', { workspace_id: state.target.workspace_id! }),
            auth: 'account',
            query: { dtable_name: target.base(0).name, ignore_asset: 'true' },
            headers: { accept: '*/*' },
          },
          async (_, r) => {
            const entries = await readZip(r.res.body);
            return { asset: typeof entries === 'string' ? entries : entries.some((e) => e.name.endsWith(name)) };
          },
        );
      await step('delete-asset', 'deleteBaseAsset', { ...asset, method: 'DELETE' });
      await step('deleted-asset-link', 'getFileDownloadLink', { ...asset, path: path('getFileDownloadLink') });
    } finally {
      await restored(
        `asset ${at} deleted`,
        () => target.call({ ...asset, method: 'DELETE', expect: [404] }),
        (x) => x.status < 300 || x.status === 404,
      );
    }
  },
  // ACCT-6: an external app set inactive reads inactive (and is set active again, as apps start).
  async apps(side, step) {
    need(ACCOUNT, side);
    if (!behaviourAt(side.state.apiVersion).appStatus)
      throw new Skip(`no app status in release ${side.state.apiVersion}`);
    const { target } = side;
    const apps = await target.call({ path: path('listUniversalApps'), auth: 'account' });
    const token = ((field(jsonBody(apps), 'my_managed_apps') ?? []) as { app_token?: string }[]).find(
      (a) => a.app_token,
    )?.app_token;
    if (!token) throw new Skip('needs a universal app the account manages');
    registerSecret(token);
    const at = path('externalAppStatus', { app_token: token });
    const set = (name: string, is_inactive: boolean) =>
      step(name, 'externalAppStatus', { method: 'PUT', path: at, auth: 'account', json: { is_inactive } }, (b) => {
        const app = field(b, 'external_app');
        return { inactive: field(app, 'inactive') ?? field(app, 'is_inactive') ?? null };
      });
    const off = await set('app-inactive', true);
    const on = await set('app-active', false);
    if (off.status < 300 && on.status >= 300)
      await restored('the external app set active again', () =>
        target.call({ method: 'PUT', path: at, auth: 'account', json: { is_inactive: false } }),
      );
  },
  // ACCT-4 and ACCT-2 (team admin): a log filtered to the future is empty; the automation option is taken.
  async team(side, step) {
    need(TEAM, side);
    const { state } = side;
    const org_id = state.target.org_id!;
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await step(
      'logins-from-the-future',
      'listTeamLogins',
      { path: path('listTeamLogins', { org_id }), auth: 'account', query: { start: future } },
      (b) => ({
        count:
          ((Array.isArray(b) ? b : Object.values(b ?? {}).find(Array.isArray)) as unknown[] | undefined)?.length ??
          null,
      }),
    );
    // The option cannot be read back (no GET): set to -1, unlimited, the default's meaning — on a real team only with --allow-plan-changes.
    if (state.allowPlanChanges && behaviourAt(state.apiVersion).monthlyAutomationLimitOption)
      await step('automation-option', 'updateTeam', {
        method: 'PUT',
        path: path('updateTeam', { org_id }),
        auth: 'account',
        json: { monthly_automation_limit_per_user: -1 },
      });
  },
};

export async function accountSequences(side: Side): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for (const [part, run] of Object.entries(PARTS))
    out.push(
      ...(await stepSequence(side, `account/${part}`, async (step, world) => {
        const table = async () =>
          (await world.table(side.target, 'acc', [{ column_name: 'Name', column_type: 'text' }])).name;
        await run(side, step, table);
      })),
    );
  return out;
}

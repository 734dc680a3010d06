/**
 * SHAPE-8 recipes of authentication.yaml and Get Account Info: the account token, base
 * tokens, and the API tokens of base 0 — each API token a recipe makes carries the run's
 * prefix and is deleted afterwards (a failed delete is a run-level warning).
 */
import { registerSecret } from '../../client/redact.js';
import { endpoint, fillPath } from '../../spec/index.js';
import { ACCOUNT, acct, api, formOf, jsonOf, LOGIN, obj, tag, WORKSPACE, wsBase } from './calls.js';
import { type Kit, type Recipes } from './kit.js';
import { setupOk } from '../outcome.js';

const tokenPath = (k: Kit, app?: string) =>
  fillPath(endpoint(app ? 'deleteApiToken' : 'listApiTokens').path, {
    ...wsBase(k.state),
    ...(app ? { app_name: app } : {}),
  });

/** Register the delete of API token `app` (run after the check). */
function deleteLater(k: Kit, app: string): void {
  k.undo(`API token ${app}`, () =>
    k.target.call({ method: 'DELETE', path: tokenPath(k, app), auth: 'account', expect: [404] }),
  );
}

/** An API token of the run's own, read-only, deleted after the check. */
async function ownToken(k: Kit): Promise<string> {
  const app = `${k.state.tablePrefix}app_${tag()}`;
  deleteLater(k, app);
  const r = await k.target.call({
    method: 'POST',
    path: tokenPath(k),
    auth: 'account',
    form: { app_name: app, permission: 'r' },
  });
  setupOk(r, `create API token ${app}`);
  registerSecret(obj(r.json()).api_token as string | undefined);
  return app;
}

/** Answers that carry a fresh secret: redacted from reports like the descriptor's. */
function secretsOf(body: unknown): void {
  const b = obj(body);
  for (const k of ['token', 'access_token', 'api_token']) if (typeof b[k] === 'string') registerSecret(b[k]);
}

export const AUTH_RECIPES: Recipes = {
  authToken: {
    needs: LOGIN,
    async run(k) {
      const r = await k.main({
        method: 'POST',
        path: endpoint('authToken').path,
        auth: 'none',
        form: { username: k.state.target.username!, password: k.state.target.password! },
      });
      secretsOf(jsonOf(r));
    },
  },
  appAccessToken: {
    async run(k) {
      const r = await k.main(api('GET', 'appAccessToken'));
      secretsOf(jsonOf(r));
    },
  },
  accountAccessToken: {
    needs: WORKSPACE,
    async run(k) {
      const r = await k.main(acct('GET', 'accountAccessToken', wsBase(k.state)));
      secretsOf(jsonOf(r));
    },
  },
  listApiTokens: {
    needs: WORKSPACE,
    async run(k) {
      const r = await k.main(acct('GET', 'listApiTokens', wsBase(k.state)));
      for (const t of (obj(jsonOf(r)).api_tokens ?? []) as unknown[]) secretsOf(t);
    },
  },
  createApiToken: {
    needs: WORKSPACE,
    async run(k) {
      const app = `${k.state.tablePrefix}app_${tag()}`;
      deleteLater(k, app);
      const r = await k.main(
        acct('POST', 'createApiToken', wsBase(k.state), { form: { app_name: app, permission: 'r' } }),
      );
      secretsOf(jsonOf(r));
    },
  },
  updateApiToken: {
    needs: WORKSPACE,
    async run(k) {
      const app = await ownToken(k);
      const r = await k.main({
        method: 'PUT',
        path: tokenPath(k, app),
        auth: 'account',
        multipart: formOf({ permission: 'rw' }),
      });
      secretsOf(jsonOf(r));
    },
  },
  deleteApiToken: {
    needs: WORKSPACE,
    async run(k) {
      const app = await ownToken(k);
      await k.main({ method: 'DELETE', path: tokenPath(k, app), auth: 'account' });
    },
  },
  // The Python client's way into a base: a one-hour API token of base 0.
  createTempApiToken: {
    needs: WORKSPACE,
    async run(k) {
      const r = await k.main(acct('GET', 'createTempApiToken', wsBase(k.state)));
      secretsOf(jsonOf(r));
    },
  },
  getAccountInfo: {
    needs: ACCOUNT,
    async run(k) {
      await k.main(acct('GET', 'getAccountInfo'));
    },
  },
};

/**
 * The life of an API token (AUTH-5; authentication.yaml): created (201 with the documented
 * fields), listed, opening its base; its permission updated to `r` (base tokens from it read
 * but do not write); deleted (it opens nothing); and a temporary API token opening its base.
 * Each check makes a token of its own on base #1, named with the run's prefix, and deletes it.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  accessOf,
  apiTokenOf,
  appAccess,
  createApiToken,
  deleteApiToken,
  fieldsOf,
  form,
  onBase,
  pathOf,
  sameUuid,
} from '../src/harness/api-tokens.js';
import { expectClientError, expectShape, expectStatus } from '../src/harness/assert.js';
import { skipNotOffered } from '../src/harness/offered.js';
import { fixtureMissing } from '../src/harness/outcome.js';
import { restored } from '../src/harness/restore.js';
import type { RunState } from '../src/harness/state.js';
import { countRows, scratchTable } from '../src/harness/tables.js';
import type { Reply, Target } from '../src/harness/target.js';
import { clause, expect, needsAccount, test, ev } from '../src/harness/test.js';
import { endpoint, RESPONSES } from '../src/spec/index.js';

function workspaceOf(state: RunState): number {
  needsAccount(state);
  test.skip(
    state.target.workspace_id === undefined,
    'needs workspace_id in the target descriptor (the token calls name the base by workspace and name)',
  );
  return state.target.workspace_id!;
}

/** A token deleted now, or already gone (404), is no token left behind. */
const goneOrDeleted = (r: Reply) => r.status < 300 || r.status === 404;

const appName = (state: RunState, label: string) => `${state.tablePrefix}${label}_${randomBytes(2).toString('hex')}`;

/**
 * Run `use` with an API token of base #1 made for the check (`permission`); the token is
 * deleted afterwards unless `use` deleted it (it says so by returning true).
 */
async function withToken(
  target: Target,
  state: RunState,
  label: string,
  use: (token: string, app: string) => Promise<boolean | void>,
): Promise<void> {
  const ws = workspaceOf(state);
  const base = target.base(0);
  const app = appName(state, label);
  const token = apiTokenOf(await createApiToken(target, ws, base.name, app, 'rw'), `create the API token ${app}`);
  let gone = false;
  try {
    gone = (await use(token, app)) === true;
  } finally {
    if (!gone)
      await restored(
        `the check's API token ${app} deleted`,
        () => deleteApiToken(target, ws, base.name, app),
        goneOrDeleted,
      );
  }
}

/**
 * What AUTH-5 reads of List API-Tokens: each token's name and permission. The other fields
 * of the answer (generated_at, last_access…) are SHAPE-8's to judge, not this clause's.
 */
const TokenList = z.object({ api_tokens: z.array(z.looseObject({ app_name: z.string(), permission: z.string() })) });

/** The listed entry of `app`, from List API-Tokens. */
async function listed(target: Target, ws: number, app: string): Promise<Record<string, unknown> | undefined> {
  const r = await target.account('GET', endpoint('listApiTokens').path, {
    workspace_id: ws,
    base_name: target.base(0).name,
  });
  expectStatus(r, 200, 'List API-Tokens');
  return expectShape(r, TokenList, 'List API-Tokens (name and permission of each token)').api_tokens.find(
    (t) => t.app_name === app,
  );
}

test(
  ...clause(
    'AUTH-5',
    'Create API-Token answers 201 with the documented fields; the token is listed and opens its base',
    ev.documented(
      'OA62 authentication#createApiToken, listApiTokens, updateApiToken, deleteApiToken, createTempApiToken',
    ),
  ),
  async ({ target, state }) => {
    const ws = workspaceOf(state);
    const base = target.base(0);
    const app = appName(state, 'token');
    const r = await createApiToken(target, ws, base.name, app, 'rw', [400]);
    try {
      expectStatus(r, 201, `Create API-Token ${app}`);
      const created = expectShape(r, RESPONSES.createApiToken!, 'Create API-Token') as Record<string, unknown>;
      const token = apiTokenOf(r, 'Create API-Token');
      expect.soft(created.app_name, 'Create API-Token: app_name of the answer').toBe(app);
      expect.soft(created.permission, 'Create API-Token: permission of the answer').toBe('rw');
      const entry = await listed(target, ws, app);
      expect(entry, `List API-Tokens does not list the token ${app} just created`).toBeDefined();
      expect.soft(entry?.permission, `List API-Tokens: permission of ${app}`).toBe('rw');
      const access = await appAccess(target, token);
      expectStatus(access, 200, 'Get Base-Token with the new API token');
      const opened = accessOf(access);
      expect(
        opened && sameUuid(opened.uuid, base.uuid),
        `the new API token's base token names another base (${opened?.uuid})`,
      ).toBe(true);
      const meta = await onBase(target, base.uuid, opened!.token, 'GET', 'metadata/', { expect: [401, 403] });
      expectStatus(meta, 200, 'GET metadata/ with a base token from the new API token');
    } finally {
      if (r.status === 200 || r.status === 201)
        await restored(
          `the check's API token ${app} deleted`,
          () => deleteApiToken(target, ws, base.name, app),
          goneOrDeleted,
        );
    }
  },
);

test(
  ...clause(
    'AUTH-5',
    'Update API-Token to r: listed as r; a base token from it reads but its writes are refused (4xx), nothing written',
    ev.documented(
      'OA62 authentication#createApiToken, listApiTokens, updateApiToken, deleteApiToken, createTempApiToken',
    ),
  ),
  async ({ target, state }) => {
    const ws = workspaceOf(state);
    const base = target.base(0);
    const t = await scratchTable(target, 'auth5');
    try {
      await withToken(target, state, 'readonly', async (token, app) => {
        const path = pathOf('updateApiToken', { workspace_id: ws, base_name: base.name, app_name: app });
        const r = await target.account('PUT', path, {}, { multipart: form({ permission: 'r' }), expect: [404, 405] });
        await skipNotOffered(target, state, endpoint('updateApiToken'), r, { path, auth: 'account' });
        expectStatus(r, 200, 'Update API-Token with permission=r (multipart)');
        const updated = expectShape(r, RESPONSES.updateApiToken!, 'Update API-Token') as Record<string, unknown>;
        expect.soft(updated.permission, 'Update API-Token: permission of the answer').toBe('r');
        expect
          .soft((await listed(target, ws, app))?.permission, `List API-Tokens after the update: permission of ${app}`)
          .toBe('r');
        const ro = accessOf(await appAccess(target, token));
        if (!ro) throw fixtureMissing('no base token from the API token updated to r');
        const read = await onBase(target, base.uuid, ro.token, 'GET', 'rows/', {
          query: { table_name: t.name },
          expect: [401, 403],
        });
        expectStatus(read, 200, 'a row list with a base token of the read-only API token');
        const write = await onBase(target, base.uuid, ro.token, 'POST', 'rows/', {
          json: { table_name: t.name, rows: [{ Name: 'written' }] },
          expect: [400, 401, 403],
        });
        // Read-only is documented (authentication_permission: r); the status of the refusal is not (403 is only seen in a third-party client).
        expectClientError(write, 'append rows with a base token of the API token updated to r');
        expect(await countRows(target, t), 'rows in the table after the refused write with the read-only token').toBe(
          0,
        );
      });
    } finally {
      await t.drop();
    }
  },
);

test(
  ...clause(
    'AUTH-5',
    'Delete API-Token: the deleted token no longer opens its base',
    ev.documented(
      'OA62 authentication#createApiToken, listApiTokens, updateApiToken, deleteApiToken, createTempApiToken',
    ),
  ),
  async ({ target, state }) => {
    const ws = workspaceOf(state);
    const base = target.base(0);
    await withToken(target, state, 'deleted', async (token, app) => {
      if (!accessOf(await appAccess(target, token)))
        throw fixtureMissing(`the API token ${app} does not open its base before it is deleted`);
      const d = await target.account(
        'DELETE',
        pathOf('deleteApiToken', { workspace_id: ws, base_name: base.name, app_name: app }),
      );
      expectStatus(d, [200, 204], `Delete API-Token ${app}`);
      const after = await appAccess(target, token);
      expect(
        after.status >= 400 && after.status < 500,
        `Get Base-Token with the deleted API token answered ${after.status}: ${after.text.slice(0, 160)} — must be refused`,
      ).toBe(true);
      expect
        .soft((await listed(target, ws, app)) === undefined, `List API-Tokens still lists the deleted token ${app}`)
        .toBe(true);
      return d.status < 300;
    });
  },
);

test(
  ...clause(
    'AUTH-5',
    'Create API-Token (temporary) answers an api_token that opens its base',
    ev.documented(
      'OA62 authentication#createApiToken, listApiTokens, updateApiToken, deleteApiToken, createTempApiToken',
    ),
  ),
  async ({ target, state }) => {
    const ws = workspaceOf(state);
    const base = target.base(0);
    const r = await target.account('GET', pathOf('createTempApiToken', { workspace_id: ws, base_name: base.name }));
    expectStatus(r, 200, 'Create API-Token (temporary)');
    expectShape(r, RESPONSES.createTempApiToken!, 'Create API-Token (temporary)');
    const temp = apiTokenOf(r, 'Create API-Token (temporary)');
    const access = await appAccess(target, temp);
    expectStatus(access, 200, 'Get Base-Token with the temporary API token');
    const opened = accessOf(access);
    expect(
      opened && sameUuid(opened.uuid, base.uuid),
      `the temporary API token's base token names another base (${String(fieldsOf(access.json()).dtable_uuid)})`,
    ).toBe(true);
    const meta = await onBase(target, base.uuid, opened!.token, 'GET', 'metadata/', { expect: [401, 403] });
    expectStatus(meta, 200, 'GET metadata/ with a base token from the temporary API token');
  },
);

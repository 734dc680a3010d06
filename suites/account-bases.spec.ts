/**
 * Finding and managing bases as clients do (ACCT-8; user_account_operations.yaml): Get Account
 * Info and List Workspaces show the account and its bases; a base created through the API is
 * usable, a copy carries its tables, and a deleted base's tokens stop working. The check's
 * bases are named with the run's prefix and deleted when it ends, whatever happened.
 */
import { randomBytes } from 'node:crypto';
import {
  accessOf,
  apiTokenOf,
  appAccess,
  createApiToken,
  fieldsOf,
  form,
  onBase,
  pathOf,
  sameUuid,
} from '../src/harness/api-tokens.js';
import { expectShape, expectStatus } from '../src/harness/assert.js';
import { fixtureMissing } from '../src/harness/outcome.js';
import { restored } from '../src/harness/restore.js';
import type { RunState } from '../src/harness/state.js';
import type { Reply, Target } from '../src/harness/target.js';
import { clause, expect, needsAccount, test, ev } from '../src/harness/test.js';
import { RESPONSES } from '../src/spec/index.js';

type Entry = Record<string, unknown>;

test(
  ...clause(
    'ACCT-8',
    'Get Account Info answers the documented fields',
    ev.documented('OA62 user_account_operations#getAccountInfo'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    const r = await target.account('GET', pathOf('getAccountInfo'));
    expectStatus(r, 200, 'Get Account Info (/api2/account/info/)');
    expectShape(r, RESPONSES.getAccountInfo!, 'Get Account Info');
  },
);

/** Every base entry of every workspace, whatever list it is in. */
const basesOf = (workspaces: Entry[]): Entry[] =>
  workspaces.flatMap((w) =>
    ['table_list', 'shared_table_list', 'group_shared_dtables'].flatMap((k) =>
      Array.isArray(w[k]) ? (w[k] as unknown[]).map(fieldsOf) : [],
    ),
  );

test(
  ...clause(
    'ACCT-8',
    "List Workspaces lists the descriptor's workspace and each of its bases",
    ev.documented('OA62 user_account_operations#listWorkspaces'),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    const r = await target.account('GET', pathOf('listWorkspaces'));
    expectStatus(r, 200, 'List Workspaces');
    const { workspace_list: list } = expectShape(r, RESPONSES.listWorkspaces!, 'List Workspaces') as {
      workspace_list: Entry[];
    };
    if (state.target.workspace_id !== undefined) {
      expect
        .soft(
          list.some((w) => w.id === state.target.workspace_id),
          `List Workspaces does not list the descriptor's workspace ${state.target.workspace_id} (ids: ${list.map((w) => JSON.stringify(w.id)).join(', ')})`,
        )
        .toBe(true);
    }
    const bases = basesOf(list);
    for (const b of state.target.bases) {
      expect
        .soft(
          bases.some((e) => sameUuid(e.uuid, b.uuid)),
          `List Workspaces does not list the descriptor's base "${b.name}" (${b.uuid})`,
        )
        .toBe(true);
    }
  },
);

interface Made {
  name: string;
  deleted: boolean;
}

/** A base the check made, opened through a fresh API token on it: its uuid and base token. */
async function open(
  target: Target,
  ws: number,
  name: string,
  state: RunState,
): Promise<{ uuid: string; token: string; api: string }> {
  const t = await createApiToken(target, ws, name, `${state.tablePrefix}open`, 'rw');
  expectStatus(t, 201, `Create API-Token on the base ${name}`);
  const api = apiTokenOf(t, `Create API-Token on ${name}`);
  const access = await appAccess(target, api);
  expectStatus(access, 200, `Get Base-Token with the API token of ${name}`);
  const opened = accessOf(access);
  expect(
    opened,
    `Get Base-Token for ${name}: no access_token and dtable_uuid in ${access.text.slice(0, 160)}`,
  ).toBeDefined();
  return { ...opened!, api };
}

const deleteBase = (target: Target, ws: number, name: string, expect: number[] = []) =>
  target.account('DELETE', pathOf('deleteBase', { workspace_id: ws }), {}, { multipart: form({ name }), expect });

/** A base is gone when deleting it again finds nothing (404) or it was just deleted. */
const goneOrDeleted = (r: Reply) => r.status < 300 || r.status === 404;

test(
  ...clause(
    'ACCT-8',
    "a base created through the API is usable; its copy carries its tables and rows; deleted, both bases' tokens stop working",
    ev.documented(
      'OA62 user_account_operations#createBase, #copyBaseFromWorkspace, #deleteBase; authentication#createApiToken, #getBaseTokenWithApiToken',
    ),
  ),
  async ({ target, state }) => {
    needsAccount(state);
    test.skip(
      state.target.workspace_id === undefined,
      'needs workspace_id in the target descriptor (bases are created, copied and deleted by workspace)',
    );
    const ws = state.target.workspace_id!;
    const made: Made[] = [];
    const name = `${state.tablePrefix}base_${randomBytes(2).toString('hex')}`;
    const table = `${state.tablePrefix}things`;
    try {
      const c = await target.account(
        'POST',
        pathOf('createBase'),
        {},
        { multipart: form({ name, workspace_id: String(ws) }) },
      );
      expectStatus(c, [200, 201], `Create Base ${name}`);
      made.push({ name, deleted: false });
      const created = fieldsOf(fieldsOf(expectShape(c, RESPONSES.createBase!, 'Create Base')).table);
      expect.soft(created.name, 'Create Base: name of the new base').toBe(name);
      const original = await open(target, ws, name, state);
      expect
        .soft(
          sameUuid(created.uuid, original.uuid),
          `Create Base answered uuid ${String(created.uuid)}, its API token opens ${original.uuid}`,
        )
        .toBe(true);
      expectStatus(
        await onBase(target, original.uuid, original.token, 'POST', 'tables/', {
          json: { table_name: table, columns: [{ column_name: 'Name', column_type: 'text' }] },
        }),
        200,
        'create a table in the new base',
      );
      expectStatus(
        await onBase(target, original.uuid, original.token, 'POST', 'rows/', {
          json: { table_name: table, rows: [{ Name: 'lamp' }] },
        }),
        200,
        'append a row to the new base',
      );

      const cp = await target.account(
        'POST',
        pathOf('copyBaseFromWorkspace'),
        {},
        { multipart: form({ src_workspace_id: String(ws), name, dst_workspace_id: String(ws) }) },
      );
      expectStatus(cp, [200, 201], `Copy Base ${name}`);
      const copied = fieldsOf(fieldsOf(expectShape(cp, RESPONSES.copyBaseFromWorkspace!, 'Copy Base')).dtable);
      if (typeof copied.name !== 'string')
        throw fixtureMissing('Copy Base answered no name of the copy: it cannot be opened or deleted');
      made.push({ name: copied.name, deleted: false });
      expect
        .soft(sameUuid(copied.uuid, original.uuid), "Copy Base answered the original's uuid, not a new base's")
        .toBe(false);
      const copy = await open(target, ws, copied.name, state);
      const rows = await onBase(target, copy.uuid, copy.token, 'GET', 'rows/', {
        query: { table_name: table, convert_keys: 'true' },
        expect: [400, 404],
      });
      expectStatus(rows, 200, `list the rows of table ${table} in the copy`);
      expect(
        ((fieldsOf(rows.json()).rows ?? []) as Entry[]).map((r) => r.Name),
        `rows of ${table} in the copy`,
      ).toEqual(['lamp']);

      for (const [m, opened] of [
        [made[0]!, original],
        [made[1]!, copy],
      ] as const) {
        const d = await deleteBase(target, ws, m.name);
        expectStatus(d, [200, 204], `Delete Base ${m.name}`);
        m.deleted = d.status < 300;
        const again = await appAccess(target, opened.api);
        expect
          .soft(
            again.status >= 400 && again.status < 500,
            `Get Base-Token with the API token of the deleted base ${m.name} answered ${again.status} — must be refused`,
          )
          .toBe(true);
        const read = await onBase(target, opened.uuid, opened.token, 'GET', 'metadata/', {
          expect: [400, 401, 403, 404],
        });
        expect
          .because(
            ev.inferred(
              'OA62 user_account_operations#deleteBase deletes the base; a base token already issued is a JWT valid for days (api-shapes §1.1): that the gateway refuses it at once is our reading',
            ),
          )
          .soft(
            read.status >= 400 && read.status < 500,
            `GET metadata/ of the deleted base ${m.name} with its base token answered ${read.status} — must be refused`,
          )
          .toBe(true);
      }
    } finally {
      for (const m of made.filter((x) => !x.deleted))
        await restored(
          `the check's base ${m.name} deleted`,
          () => deleteBase(target, ws, m.name, [404]),
          goneOrDeleted,
        );
    }
  },
);

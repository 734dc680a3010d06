/**
 * Events (HOOK-1): a change to a base is announced to a registered webhook. The check starts
 * a receiver, registers it through the API (api-shapes §6), changes a row of a scratch table
 * and waits, bounded, for `{"event": "update", "data": {...}}` naming that row and table;
 * with a secret the delivery must carry `X-SeaTable-Signature: sha256=<HMAC-SHA256>`.
 * The checks run one after another in one worker: they share the receiver's listen address.
 */
import { randomBytes } from 'node:crypto';
import { registerSecret } from '../src/client/redact.js';
import { expectStatus } from '../src/harness/assert.js';
import { Undecided } from '../src/harness/outcome.js';
import { appendAll, scratchTable } from '../src/harness/tables.js';
import type { Target } from '../src/harness/target.js';
import { clause, expect, needsAccount, test, ev } from '../src/harness/test.js';
import { restored } from '../src/harness/restore.js';
import { Receiver, signatureMatches, type Delivery } from '../src/harness/webhook.js';
import { endpoint } from '../src/spec/index.js';

test.describe.configure({ mode: 'default' });

type Payload = { event?: unknown; data?: Record<string, unknown> };

/** §1 and §6: webhooks announce changes of a base; kinds of event, payload, registration and delivery are "not shown" there. */
const ANNOUNCED = ev.spec('1, 6 (webhooks inform a client of changes in a base)');
/** The payload's fields: the real service's help pages show them. */
const PAYLOAD = ev.documented(
  'seatable.com/help "Struktur der Webhook-Daten" and "Der geheime Schlüssel eines Webhooks": {"event": "update", "data": {"dtable_uuid", "row_id", "op_type", "table_id", "table_name", …}}',
);
/** The signature: the help pages show the header and how a receiver checks it. */
const SIGNED = ev.documented(
  'seatable.com/help "Der geheime Schlüssel eines Webhooks" (with a secret the request carries X-Seatable-Signature: sha256=<hex>; PHP check: hash_hmac(\'sha256\', $body, $secret)) and "Validierung der Header-Signatur mit n8n" (HMAC-SHA256 of the raw body, prefixed sha256=); OA62 user_account_operations#createWebhook still says SHA1 (stale)',
);
const parse = (d: Delivery): Payload | undefined => {
  try {
    return JSON.parse(d.body.toString('utf8')) as Payload;
  } catch {
    return undefined;
  }
};

interface Hook {
  id: string | number | undefined;
  base: number;
}

async function register(target: Target, base: number, url: string, secret?: string): Promise<Hook> {
  const s = target.state.target;
  const params = { workspace_id: s.workspace_id!, base_name: target.base(base).name };
  const form = new FormData();
  form.append('url', url);
  if (secret) form.append('secret', secret);
  const r = await target.account('POST', endpoint('createWebhook').path, params, { multipart: form });
  expectStatus(
    r,
    [200, 201],
    'register a webhook (POST .../webhooks/, multipart url and secret)',
    ev.documented(
      'OA62 user_account_operations#createWebhook: POST …/webhooks/, multipart url and secret, answers 200',
    ),
  );
  let id = (r.json<{ webhook?: { id?: string | number } }>().webhook ?? {}).id;
  if (id === undefined) {
    const list = await target.account('GET', endpoint('listWebhooks').path, params);
    id = (
      list.status === 200
        ? (list.json<{ webhook_list?: { id?: string | number; url?: string }[] }>().webhook_list ?? [])
        : []
    ).find((w) => w.url === url)?.id;
  }
  return { id, base };
}

async function unregister(target: Target, hook: Hook): Promise<void> {
  if (hook.id === undefined) return;
  const s = target.state.target;
  await restored(`the webhook ${hook.id} this check registered removed`, () =>
    target.account('DELETE', endpoint('deleteWebhook').path, {
      workspace_id: s.workspace_id!,
      base_name: target.base(hook.base).name,
      webhook_id: hook.id!,
    }),
  );
}

/** Register, change a row, wait for its event; returns the delivery and the row it must name. */
async function rowChangeEvent(
  target: Target,
  secret: string | undefined,
  check: (d: Delivery, p: Payload, row: { id: string; table: string }) => void,
): Promise<void> {
  const state = target.state;
  needsAccount(state);
  test.skip(
    state.target.workspace_id === undefined,
    'needs workspace_id in the target descriptor (webhooks are registered per workspace and base)',
  );
  const receiver = await Receiver.start(state);
  test.skip(typeof receiver === 'string', typeof receiver === 'string' ? receiver : '');
  const rx = receiver as Receiver;
  // The last base: the one the other families write to least, so fewer foreign events arrive.
  const base = state.target.bases.length - 1;
  const t = await scratchTable(target, 'hook', [{ column_name: 'Name', column_type: 'text' }], base);
  let hook: Hook | undefined;
  try {
    const [rowId] = await appendAll(target, t, [{ Name: 'before' }]);
    if (!rowId) throw new Undecided('fixture', 'append answered no row id');
    hook = await register(target, base, rx.url, secret);
    const u = await target.gw(base, 'PUT', 'rows/', {
      json: { table_name: t.name, updates: [{ row_id: rowId, row: { Name: 'after' } }] },
    });
    expectStatus(
      u,
      200,
      'update the row',
      ev.documented('OA62 base_operations#updateRow: answers 200 {"success": true}'),
    );
    // How long a delivery may take: --webhook-wait (the real service's own delivery timeout is 30 s).
    const wait = state.webhook.waitMs;
    const got = await rx.waitFor((d) => parse(d)?.data?.row_id === rowId, wait);
    const seen = rx.deliveries.length;
    expect(
      got,
      `no event naming the changed row arrived within ${wait / 1000} s (${seen} other deliver${seen === 1 ? 'y' : 'ies'} received)`,
    ).toBeDefined();
    check(got!, parse(got!)!, { id: rowId, table: t.name });
  } finally {
    if (hook) await unregister(target, hook);
    await t.drop();
    await rx.close();
  }
}

function payloadNames(p: Payload, row: { id: string; table: string }, baseUuid: string): void {
  expect
    .because(PAYLOAD)
    .soft(p.event, `event is ${JSON.stringify(p.event)}, expected "update"`)
    .toBe('update');
  const d = p.data ?? {};
  expect
    .because(PAYLOAD)
    .soft(
      d.table_name,
      `data.table_name is ${JSON.stringify(d.table_name)}, expected the changed row's table ${row.table}`,
    )
    .toBe(row.table);
  if (typeof d.dtable_uuid === 'string')
    expect
      .because(PAYLOAD)
      .soft(d.dtable_uuid.replace(/-/g, '').toLowerCase(), 'data.dtable_uuid names another base')
      .toBe(baseUuid.replace(/-/g, '').toLowerCase());
}

test(
  ...clause(
    'HOOK-1',
    'a row change is announced to a webhook registered with a secret, signed X-SeaTable-Signature: sha256=HMAC',
    ANNOUNCED,
  ),
  async ({ target, state }) => {
    const secret = `cf-${randomBytes(12).toString('hex')}`;
    registerSecret(secret);
    await rowChangeEvent(target, secret, (d, p, row) => {
      payloadNames(p, row, target.base(state.target.bases.length - 1).uuid);
      const sig = d.headers['x-seatable-signature'];
      expect
        .because(SIGNED)(sig, 'the delivery carries no X-SeaTable-Signature header though the webhook has a secret')
        .toBeDefined();
      expect
        .because(SIGNED)(
          signatureMatches(sig, secret, d.body),
          'X-SeaTable-Signature is not sha256=<hex HMAC-SHA256(secret, body)> over the delivered body (nor over its Python json.dumps form)',
        )
        .toBe(true);
    });
  },
);

test(
  ...clause('HOOK-1', 'a row change is announced to a webhook registered without a secret', ANNOUNCED),
  async ({ target, state }) => {
    await rowChangeEvent(target, undefined, (_d, p, row) =>
      payloadNames(p, row, target.base(state.target.bases.length - 1).uuid),
    );
  },
);

/** Webhooks (HOOK-1): registration, signed asynchronous delivery of every row change, retries, disabling. */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { webhookById } from '../store/account/webhooks.js';
import { Acct, multipart } from './account-kit.js';
import { expectClientError, Kit } from './kit.js';

interface Received {
  raw: Buffer;
  body: any;
  headers: IncomingHttpHeaders;
}

/** A loopback receiver; `answer` decides each status (and may delay). */
async function receiver(answer: (n: number) => number | Promise<number> = () => 200) {
  const got: Received[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      got.push({ raw, body: JSON.parse(raw.toString()), headers: req.headers });
      res.statusCode = await answer(++n);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    got,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const hmac = (secret: string, raw: Buffer) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

async function setup(opts: Parameters<typeof Acct.start>[0] = {}) {
  const a = await Acct.start({ unlimited: true, ...opts });
  const k = new Kit(a.srv);
  k.token = await k.baseToken(k.base.api_token);
  await k.createTable('T', [
    { column_name: 'Name', column_type: 'text' },
    { column_name: 'N', column_type: 'number' },
    { column_name: 'Done', column_type: 'checkbox' },
  ]);
  const hooks = `/api/v2.1/workspace/1/dtable/${encodeURIComponent(k.base.name)}/webhooks/`;
  return { a, k, hooks };
}

test('HOOK-1 webhook registration: create (multipart, form, JSON), list, update, delete', async () => {
  const { a, k, hooks } = await setup();
  try {
    expect(await a.ok('GET', hooks, a.admin)).toEqual({ webhook_list: [] });
    const m = await multipart(a.url, 'POST', hooks, a.admin, { url: 'http://127.0.0.1:9/a', secret: 's3cret' });
    expect(m.status, m.text).toBe(200);
    expect(m.body.webhook).toMatchObject({
      dtable_uuid: k.base.uuid.replace(/-/g, ''),
      url: 'http://127.0.0.1:9/a',
      creator: a.creds.admin.id,
      settings: { secret: 's3cret' },
    });
    expect(m.body.webhook.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+$/);
    const f = await a.ok('POST', hooks, a.admin, { form: { url: 'https://example.com/b' } });
    const j = await a.ok('POST', hooks, a.admin, { json: { url: 'http://localhost/c', secret: 'x' } });
    expect((await a.ok('GET', hooks, a.admin)).webhook_list).toHaveLength(3);
    const u = await a.ok('PUT', `${hooks}${f.webhook.id}/`, a.admin, {
      json: { url: 'https://example.com/b2', secret: 'new' },
    });
    expect(u.webhook).toMatchObject({ url: 'https://example.com/b2', settings: { secret: 'new' } });
    expect(await a.ok('DELETE', `${hooks}${j.webhook.id}/`, a.admin)).toEqual({ success: true });
    expect((await a.ok('GET', hooks, a.admin)).webhook_list.map((w: { id: number }) => w.id)).toEqual([
      m.body.webhook.id,
      f.webhook.id,
    ]);
    expectClientError(await a.call('POST', hooks, a.admin, { json: { url: 'ftp://example.com/' } }), 400);
    expectClientError(await a.call('POST', hooks, a.admin, { json: {} }), 400);
    expectClientError(await a.call('DELETE', `${hooks}${j.webhook.id}/`, a.admin), 404);
    expectClientError(await a.call('PUT', `${hooks}abc/`, a.admin, { json: { url: 'http://x/' } }), 400);
    expectClientError(await a.call('GET', hooks, a.other), 403);
  } finally {
    await a.close();
  }
});

test('HOOK-1 a burst of 1,000 writes delivers all 1,000 events, each with a valid signature', async () => {
  const { a, k, hooks } = await setup();
  const rx = await receiver();
  try {
    await a.ok('POST', hooks, a.admin, { json: { url: rx.url, secret: 'burst-secret' } });
    const ids: string[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const rs = await Promise.all(
        Array.from({ length: 50 }, (_, i) => k.append('T', [{ Name: `r${batch * 50 + i}`, N: batch * 50 + i }])),
      );
      for (const r of rs) ids.push(r[0]!);
    }
    await expect.poll(() => rx.got.length, { timeout: 30_000 }).toBe(1000);
    expect(new Set(rx.got.map((g) => g.body.data.row_id))).toEqual(new Set(ids));
    for (const g of rx.got) expect(g.headers['x-seatable-signature']).toBe(hmac('burst-secret', g.raw));
    const one = rx.got[0]!.body;
    expect(one.event).toBe('update');
    expect(one.data).toMatchObject({
      dtable_uuid: k.base.uuid.replace(/-/g, ''),
      op_type: 'insert_row',
      table_name: 'T',
      op_user: 'conformance',
    });
    expect(Object.keys(one.data).sort()).toEqual([
      'dtable_uuid',
      'op_time',
      'op_type',
      'op_user',
      'row_data',
      'row_id',
      'row_name',
      'table_id',
      'table_name',
    ]);
    expect(one.data.row_data.map((d: { column_name: string }) => d.column_name).sort()).toEqual(['N', 'Name']);
    expect(Object.keys(one.data.row_data[0]).sort()).toEqual([
      'column_data',
      'column_key',
      'column_name',
      'column_type',
      'value',
    ]);
    expect(typeof one.data.op_time).toBe('number');
  } finally {
    await rx.close();
    await a.close();
  }
});

test('HOOK-1 updates and deletes, through rows/ and sql/, are delivered with their values', async () => {
  const { a, k, hooks } = await setup();
  const rx = await receiver();
  try {
    const [id] = await k.append('T', [{ Name: 'before', Done: false }]);
    await a.ok('POST', hooks, a.admin, { json: { url: rx.url } });
    await k.gwCall('PUT', 'rows/', {
      json: { table_name: 'T', updates: [{ row_id: id, row: { Name: 'after', Done: true } }] },
    });
    await k.sql("UPDATE T SET N = 7 WHERE Name = 'after'");
    const [id2] = await k.append('T', [{ Name: 'doomed' }]);
    await k.gwCall('DELETE', 'rows/', { json: { table_name: 'T', row_ids: [id2] } });
    await k.sql("DELETE FROM T WHERE Name = 'after'");
    await expect.poll(() => rx.got.length).toBe(5);
    const byOp = (op: string) => rx.got.filter((g) => g.body.data.op_type === op).map((g) => g.body.data);
    const [viaRows, viaSql] = byOp('modify_row');
    expect(rx.got.every((g) => g.headers['x-seatable-signature'] === undefined)).toBe(true);
    const done = viaRows.row_data.find((d: { column_name: string }) => d.column_name === 'Done');
    expect(done).toMatchObject({ value: true, old_value: false });
    expect(viaRows.row_data.find((d: { column_name: string }) => d.column_name === 'Name')).toMatchObject({
      value: 'after',
      old_value: 'before',
    });
    expect(viaSql.row_data.find((d: { column_name: string }) => d.column_name === 'N').value).toBe(7);
    expect(
      byOp('delete_row')
        .map((d) => d.row_id)
        .sort(),
    ).toEqual([id, id2].sort());
  } finally {
    await rx.close();
    await a.close();
  }
});

test('HOOK-1 delivery never holds up a write, even when the receiver is slow', async () => {
  const { a, k, hooks } = await setup();
  const rx = await receiver(() => new Promise((r) => setTimeout(() => r(200), 2000)));
  try {
    await a.ok('POST', hooks, a.admin, { json: { url: rx.url } });
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) await k.append('T', [{ Name: `slow ${i}` }]);
    // Had a write waited for its delivery, the first alone would have taken 2 s.
    expect(performance.now() - t0).toBeLessThan(2000);
    await expect.poll(() => rx.got.length, { timeout: 15_000 }).toBe(20);
  } finally {
    await rx.close();
    await a.close();
  }
});

test('HOOK-1 a webhook is disabled after 5 failed deliveries; each is retried first; re-registering enables it', async () => {
  const { a, k, hooks } = await setup({ webhookRetryDelaysMs: [20, 20], webhookTimeoutMs: 2000 });
  let status = 500;
  const rx = await receiver(() => status);
  try {
    const w = (await a.ok('POST', hooks, a.admin, { json: { url: rx.url } })).webhook;
    for (let i = 0; i < 5; i++) await k.append('T', [{ Name: `fail ${i}` }]);
    await expect.poll(() => webhookById(a.srv.ctx.db, w.id)?.is_valid, { timeout: 10_000 }).toBe(0);
    expect(rx.got.length).toBe(15); // 5 changes × (1 + 2 retries)
    expect((await a.ok('GET', hooks, a.admin)).webhook_list[0].is_valid).toBe(false);
    await k.append('T', [{ Name: 'ignored' }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.got.length).toBe(15);
    status = 200;
    await a.ok('PUT', `${hooks}${w.id}/`, a.admin, { json: { url: rx.url } });
    await k.append('T', [{ Name: 'back' }]);
    await expect.poll(() => rx.got.length).toBe(16);
  } finally {
    await rx.close();
    await a.close();
  }
});

test('HOOK-1 a delivered change clears earlier failures (2xx resets the counter)', async () => {
  const { a, k, hooks } = await setup({ webhookRetryDelaysMs: [], webhookTimeoutMs: 2000 });
  let status = 503;
  const rx = await receiver(() => status);
  try {
    const w = (await a.ok('POST', hooks, a.admin, { json: { url: rx.url } })).webhook;
    const fail4 = async (tag: string) => {
      const before = rx.got.length;
      for (let i = 0; i < 4; i++) await k.append('T', [{ Name: `${tag} ${i}` }]);
      await expect.poll(() => rx.got.length).toBe(before + 4);
      await expect.poll(() => JSON.parse(webhookById(a.srv.ctx.db, w.id)!.failures).length).toBe(4);
    };
    await fail4('a');
    status = 200;
    await k.append('T', [{ Name: 'ok' }]);
    await expect.poll(() => webhookById(a.srv.ctx.db, w.id)!.failures).toBe('[]');
    status = 503;
    await fail4('b');
    expect(webhookById(a.srv.ctx.db, w.id)!.is_valid).toBe(1);
  } finally {
    await rx.close();
    await a.close();
  }
});

test('HOOK-1 a receiver that does not answer in time fails the delivery (timeout)', async () => {
  const { a, k, hooks } = await setup({ webhookRetryDelaysMs: [], webhookTimeoutMs: 300 });
  const rx = await receiver(() => new Promise(() => undefined));
  try {
    const w = (await a.ok('POST', hooks, a.admin, { json: { url: rx.url } })).webhook;
    for (let i = 0; i < 5; i++) await k.append('T', [{ Name: `hang ${i}` }]);
    await expect.poll(() => webhookById(a.srv.ctx.db, w.id)?.is_valid, { timeout: 10_000 }).toBe(0);
  } finally {
    await rx.close();
    await a.close();
  }
});

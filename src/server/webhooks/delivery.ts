/**
 * Webhook delivery (HOOK-1, api-shapes §6): the rows store's `RowEvents` listener. A write
 * only appends its changes to an in-memory queue; a sender with a bounded number of requests
 * in flight POSTs `{"event": "update", "data": {...}}` to each valid webhook of the base,
 * signed `X-SeaTable-Signature: sha256=<HMAC-SHA256(secret, raw body)>` when a secret is set.
 *
 * An attempt fails on a timeout, a connection error or a non-2xx answer; it is retried after
 * each of `retryDelaysMs`. A change whose every attempt failed counts as one failure of the
 * webhook; 5 failures within 24 h disable it, a delivered change clears its failures.
 * Changes of one webhook may arrive out of order (several are in flight at once).
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import type { ColumnType } from '../../spec/index.js';
import type { Db } from '../store/db.js';
import type { RowChange, RowEvents } from '../store/events.js';
import { hexUuid, recordDelivery, validWebhooks } from '../store/account/webhooks.js';
import type { ColumnMeta } from '../store/model.js';
import { decodeValue } from '../store/values.js';
import type { Faults } from '../faults.js';

interface DeliveryOptions {
  db: Db;
  now: () => number;
  faults: Faults;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  /** Requests in flight at once, over all webhooks. */
  concurrency?: number;
}

interface Hook {
  id: number;
  url: string;
  secret: string | null;
}
interface Job {
  hook: Hook;
  change: RowChange;
  attempt: number;
}

/** Beyond this many queued deliveries the oldest are dropped (a receiver far slower than the writes). */
const MAX_QUEUE = 200_000;

function payload(c: RowChange) {
  return {
    event: 'update',
    data: {
      dtable_uuid: hexUuid(c.base_uuid),
      row_id: c.row_id,
      op_user: c.op_user,
      op_type: c.op_type,
      op_time: c.op_time,
      table_id: c.table_id,
      table_name: c.table_name,
      row_name: c.row_name,
      row_data: c.row_data.map((d) => {
        const col = { type: d.column_type as ColumnType } as ColumnMeta;
        return {
          ...d,
          value: decodeValue(col, d.value),
          ...('old_value' in d ? { old_value: decodeValue(col, d.old_value) } : {}),
        };
      }),
    },
  };
}

const signature = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export class WebhookDelivery implements RowEvents {
  readonly stats = { queued: 0, delivered: 0, failed: 0, retried: 0, dropped: 0 };
  private byBase = new Map<string, Hook[]>();
  private valid = new Set<number>();
  private failing = new Set<number>();
  private queue: Job[] = [];
  private head = 0;
  private inFlight = 0;
  private scheduled = false;
  private closed = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly agent: Agent;
  private readonly concurrency: number;

  constructor(private readonly o: DeliveryOptions) {
    this.concurrency = o.concurrency ?? 16;
    this.agent = new Agent({
      connections: this.concurrency,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      connectTimeout: o.timeoutMs,
    });
    this.reload();
  }

  /** Re-read the valid webhooks (after a registration changed or one was disabled). */
  reload(): void {
    const hooks = validWebhooks(this.o.db);
    this.byBase = new Map();
    for (const h of hooks) {
      const list = this.byBase.get(h.dtable_uuid) ?? [];
      list.push({ id: h.id, url: h.url, secret: h.secret });
      this.byBase.set(h.dtable_uuid, list);
    }
    this.valid = new Set(hooks.map((h) => h.id));
    this.failing = new Set(hooks.filter((h) => h.failures !== '[]').map((h) => h.id));
  }

  wants(baseUuid: string): boolean {
    return !this.closed && this.byBase.has(baseUuid);
  }

  /** Called by the rows store after a commit: queue only, never wait. */
  emit(changes: RowChange[]): void {
    if (this.closed || this.o.faults.has('webhook-no-delivery')) return;
    for (const change of changes) {
      if (change.op_type === 'delete_row' && this.o.faults.has('webhook-drop-deletes')) continue;
      for (const hook of this.byBase.get(change.base_uuid) ?? []) this.push({ hook, change, attempt: 0 });
    }
    this.schedule();
  }

  pending(): number {
    return this.queue.length - this.head + this.inFlight + this.timers.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.queue = [];
    this.head = 0;
    await this.agent.destroy().catch(() => undefined);
  }

  private push(job: Job): void {
    this.queue.push(job);
    this.stats.queued++;
    if (this.queue.length - this.head > MAX_QUEUE) {
      this.head++;
      this.stats.dropped++;
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.concurrency && this.head < this.queue.length) {
      const job = this.queue[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      if (!this.valid.has(job.hook.id)) continue;
      this.inFlight++;
      void this.send(job).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async send(job: Job): Promise<void> {
    const body = JSON.stringify(payload(job.change));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'base-data-reference-server webhook',
    };
    if (job.hook.secret) {
      // The mutant signs another serialisation of the same payload than the one it sends.
      const signed = this.o.faults.has('webhook-bad-signature') ? JSON.stringify(JSON.parse(body), null, 1) : body;
      headers['x-seatable-signature'] = signature(job.hook.secret, signed);
    }
    let ok = false;
    try {
      // The agent's connect/headers/body timeouts bound an attempt; closing destroys the agent,
      // which ends requests in flight (no AbortSignal per request: they cost on the hot path).
      const res = await request(job.hook.url, { method: 'POST', body, headers, dispatcher: this.agent });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      ok = res.statusCode >= 200 && res.statusCode < 300;
    } catch {
      ok = false;
    }
    if (this.closed) return;
    if (ok) {
      this.stats.delivered++;
      if (this.failing.delete(job.hook.id)) recordDelivery(this.o.db, job.hook.id, true, this.o.now());
      return;
    }
    const delay = this.o.retryDelaysMs[job.attempt];
    if (delay !== undefined && this.valid.has(job.hook.id)) {
      this.stats.retried++;
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.push({ ...job, attempt: job.attempt + 1 });
        this.schedule();
      }, delay);
      this.timers.add(t);
      return;
    }
    this.stats.failed++;
    this.failing.add(job.hook.id);
    if (recordDelivery(this.o.db, job.hook.id, false, this.o.now())) this.reload();
  }
}

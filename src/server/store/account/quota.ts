/**
 * The monthly API quota of the cloud edition (§8.3, RATE-8). Gateway calls are counted per
 * team and calendar month (UTC, by the server's clock, so a test can move to the next month);
 * the limit is `monthlyQuota(plan, active members)` and is recomputed as soon as users are
 * added or the plan changes (`invalidate`). Other editions count but never refuse (-1).
 *
 * Counting sits on the hot path of every gateway call, so counters live in memory and are
 * written to `api_call_counts` at most once a second and when the server closes.
 *
 * Once used up, the pipeline answers 403 `{"error_message": "The monthly API call quota of the
 * team is used up.", "error_type": "exceed_api_quota"}` (§8.3 does not say; api-shapes gap 2).
 * Not 429: a 429 means "wait for x-ratelimit-reset", which would not help until next month, and
 * the error_type names the service's own flag (`exceed_api_quota_teams` in dtable-events).
 * Refused calls are not counted; calls refused by credentials never reach the quota.
 */
import { monthlyQuota, type Edition, type QuotaFormula } from '../../../spec/index.js';
import type { Db } from '../db.js';
import { memberCount, orgById, orgOfBase, planOf } from './orgs.js';
import { prep } from './prepared.js';
import type { Faults } from '../../faults.js';

interface QuotaDeps {
  db: Db;
  now: () => number;
  edition: Edition;
  formula: QuotaFormula;
  faults: Faults;
}

interface QuotaUsage {
  count: number;
  limit: number | null;
}

const FLUSH_MS = 1000;
const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

export class QuotaService {
  private readonly counters = new Map<number, { month: string; count: number; dirty: boolean }>();
  private readonly teamOfBase = new Map<string, number | null>();
  private readonly limits = new Map<number, number | null>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private monthStart = 0;
  private monthEnd = 0;
  private monthKey = '';

  constructor(private readonly deps: QuotaDeps) {}

  /** Count one gateway call of a base against its team; false once the month's quota is used up. */
  admit(baseUuid: string): boolean {
    let org = this.teamOfBase.get(baseUuid);
    if (org === undefined) {
      org = orgOfBase(this.deps.db, baseUuid);
      this.teamOfBase.set(baseUuid, org);
    }
    if (org === null) return true;
    const c = this.counter(org);
    const limit = this.limitOf(org);
    if (limit !== null && c.count >= limit) return false;
    if (this.deps.faults.has('quota-not-counted')) return true; // mutant: calls are never counted
    c.count++;
    c.dirty = true;
    if (!this.closed) this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
    return true;
  }

  usage(orgId: number): QuotaUsage {
    return { count: this.counter(orgId).count, limit: this.limitOf(orgId) };
  }

  /** The team's members or plan changed: the new limit applies to the next call (§8.3.4). */
  invalidate(orgId: number): void {
    if (!this.deps.faults.has('quota-not-raised')) this.limits.delete(orgId);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    const upsert = prep(
      this.deps.db,
      'INSERT INTO api_call_counts (org_id, month, count) VALUES (?, ?, ?) ON CONFLICT (org_id, month) DO UPDATE SET count = excluded.count',
    );
    for (const [org, c] of this.counters) {
      if (!c.dirty) continue;
      upsert.run(org, c.month, c.count);
      c.dirty = false;
    }
  }

  close(): void {
    this.flush();
    this.closed = true;
  }

  /** The current month's key, recomputed only when the clock leaves the cached month. */
  private month(): string {
    const now = this.deps.now();
    if (now < this.monthStart || now >= this.monthEnd) {
      const d = new Date(now);
      this.monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      this.monthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      this.monthKey = monthOf(now);
    }
    return this.monthKey;
  }

  private counter(org: number) {
    const month = this.month();
    let c = this.counters.get(org);
    if (c && c.month !== month) {
      if (c.dirty) this.flush();
      // The quota-no-reset mutant carries the count into the new month.
      c = this.deps.faults.has('quota-no-reset') ? { month, count: c.count, dirty: true } : undefined;
    }
    if (!c) {
      const saved = prep(this.deps.db, 'SELECT count FROM api_call_counts WHERE org_id = ? AND month = ?').get(
        org,
        month,
      ) as { count: number } | undefined;
      c = { month, count: saved?.count ?? 0, dirty: false };
    }
    this.counters.set(org, c);
    return c;
  }

  private limitOf(orgId: number): number | null {
    if (this.deps.edition !== 'cloud') return null;
    let limit = this.limits.get(orgId);
    if (limit === undefined) {
      const org = orgById(this.deps.db, orgId);
      limit = org ? monthlyQuota(this.deps.formula, planOf(org), memberCount(this.deps.db, orgId, true)) : null;
      this.limits.set(orgId, limit);
    }
    return limit;
  }
}

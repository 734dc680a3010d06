/**
 * Row and SQL limits per call (SIZE-*, §8.5): list ≤ 1,000; append and update 1,000 accepted,
 * 1,001 refused with nothing written; delete 10,000 accepted, 10,001 refused with nothing
 * deleted; SQL list ≤ 10,000 (100 without LIMIT); SQL writes without a row limit; several
 * maximal calls in a row.
 *
 * The checks share one big table per worker, grown on demand in appends of 1,000 rows (20
 * appends for the 20,000 rows SIZE-6 needs) and dropped when the worker ends. They run in
 * file order in one worker; a failed check restarts the worker (or, where the run keeps it,
 * drops its shared worlds: src/harness/keep-worker.ts), and the next check grows a
 * fresh table to what it needs, so one failure never skips or spoils the others.
 */
import { randomBytes } from 'node:crypto';
import { SIZE_LIMITS } from '../src/spec/index.js';
import { expectStatus } from '../src/harness/assert.js';
import { Undecided } from '../src/harness/outcome.js';
import { appendAll, countRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import { clause, expect, withWorld, ev } from '../src/harness/test.js';
import type { Reply, Target } from '../src/harness/target.js';
import { setTimeout as sleep } from 'node:timers/promises';

const BATCH = SIZE_LIMITS.appendRows;
const marker = (what: string) => `${what}${randomBytes(3).toString('hex')}`;
const isClientError = (r: Reply) => r.status >= 400 && r.status < 500;
const brief = (r: Reply) => `${r.status}: ${r.text.slice(0, 200)}`;

/** §8.5 gives the maximum rows per call, not the answer to a call over it (api-shapes, Gaps 1): a refusal with a 4xx is our reading. */
const OVER_LIMIT_REFUSED = ev.inferred(
  '§8.5 gives the maximum per call, not the answer to a call over it (nothing recorded: api-shapes Gaps 1); a 4xx refusal (RFC 9110 §15.5.1, 413) is our reading',
);
/** A call answered with a refusal that changed rows all the same is a write nobody asked for. */
const REFUSED_CHANGES_NOTHING = ev.owed(
  'a refused call changes nothing: a partial write of a refused call is owed by no server',
);
const SQL_QUERY = ev.documented('OA62 base_operations#querySQL: answers 200 {"metadata", "results": [...], "success"}');
const LIST_ROWS = ev.documented(
  'OA62 base_operations#listRows: answers 200 {"rows": [...]}; start 0 and limit 1000 by default (limit: minimum 1, maximum 1000)',
);

/** Rows numbered from `from`: Name r<k>, N = k (Mark is left empty for SIZE-3 and SIZE-6). */
const numbered = (from: number, n: number, name?: string) =>
  Array.from({ length: n }, (_, i) => ({ Name: name ?? `r${from + i}`, N: from + i }));

/** The worker's big table: created on first use, grown in appends of 1,000, its live row ids known. */
class BigTable {
  t?: Scratch;
  ids: string[] = [];
  private next = 0;

  /** At the worker's end; a failed drop is left to the end-of-run sweep. */
  async drop(): Promise<void> {
    await this.t?.drop();
  }

  async table(target: Target): Promise<Scratch> {
    this.t ??= await scratchTable(target, 'big', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'N', column_type: 'number' },
      { column_name: 'Mark', column_type: 'text' },
    ]);
    return this.t;
  }

  /** At least `min` rows (ids known to the check). */
  async ensure(target: Target, min: number): Promise<Scratch> {
    const t = await this.table(target);
    while (this.ids.length < min) {
      const ids = await appendAll(target, t, numbered(this.next, BATCH));
      if (ids.length === 0) throw new Undecided('fixture', `append to ${t.name} answered no row ids`);
      this.next += ids.length;
      this.ids.push(...ids);
    }
    return t;
  }

  /** SQL for this table: `q` names it `{T}`. */
  sql(target: Target, q: string): Promise<Reply> {
    const t = this.t!;
    return target.gw(t.base, 'POST', 'sql/', { json: { sql: q.replace('{T}', `\`${t.name}\``), convert_keys: true } });
  }

  count(target: Target, where = ''): Promise<number> {
    return countRows(target, this.t!, where);
  }
}

const test = withWorld('limits: big table', () => new BigTable()).extend<{ big: BigTable }>({
  big: [async ({ world }, use) => use(world), { box: 'self' }],
});

test.describe.configure({ mode: 'default' });

/** The rows a row list answered; undefined when it refused with a 4xx where `refusable` (a limit over the documented maximum). */
async function listRows(
  target: Target,
  t: Scratch,
  query: Record<string, string | number>,
  what: string,
  refusable = false,
): Promise<unknown[] | undefined> {
  const r = await target.gw(t.base, 'GET', 'rows/', {
    query: { table_name: t.name, ...query },
    expect: refusable ? [400, 422] : undefined,
  });
  if (refusable && isClientError(r)) {
    test
      .info()
      .annotations.push({ type: 'note', description: `${what}: refused (${r.status}), which the maximum allows` });
    return undefined;
  }
  expectStatus(r, 200, what, LIST_ROWS);
  const rows = r.json<{ rows?: unknown }>().rows;
  expect
    .because(LIST_ROWS)(Array.isArray(rows), `${what}: the answer has no "rows" array: ${r.text.slice(0, 200)}`)
    .toBe(true);
  return rows as unknown[];
}

test(
  ...clause(
    'SIZE-1',
    'row list returns at most 1,000 rows, also when limit=5000 is asked (table of 2,000 rows)',
    ev.spec('8.5 (List rows: at most 1,000 rows per call)'),
  ),
  async ({ target, big }) => {
    const t = await big.ensure(target, 2 * BATCH);
    // A limit over the documented maximum (OA62 listRows: limit ≤ 1000) may be refused with a 4xx; answered, it gets at most 1,000 rows.
    const asked = await listRows(target, t, { limit: 5000 }, 'row list with limit=5000', true);
    if (asked) {
      expect
        .soft(
          asked.length,
          `row list with limit=5000 answered ${asked.length} rows — at most ${SIZE_LIMITS.listRows} per call`,
        )
        .toBeLessThanOrEqual(SIZE_LIMITS.listRows);
      expect
        .because(LIST_ROWS)
        .soft(asked.length, 'row list with limit=5000 answered no rows from a table of 2,000')
        .toBeGreaterThan(0);
    }
    const plain = (await listRows(target, t, {}, 'row list without limit'))!;
    expect
      .soft(
        plain.length,
        `row list without limit answered ${plain.length} rows — at most ${SIZE_LIMITS.listRows} per call`,
      )
      .toBeLessThanOrEqual(SIZE_LIMITS.listRows);
    expect
      .because(LIST_ROWS)
      .soft(plain.length, 'row list without limit answered no rows from a table of 2,000')
      .toBeGreaterThan(0);
  },
);

test(
  ...clause(
    'SIZE-2',
    'append of 1,000 rows is accepted; 1,001 is refused (4xx) and nothing is written',
    ev.spec('8.5 (Append rows: at most 1,000 rows per call)'),
  ),
  async ({ target, big }) => {
    const t = await big.table(target);
    const ok = marker('ok');
    const a = await target.gw(t.base, 'POST', 'rows/', {
      json: { table_name: t.name, rows: numbered(0, SIZE_LIMITS.appendRows, ok) },
    });
    expect.soft(a.status, `append of ${SIZE_LIMITS.appendRows} rows answered ${brief(a)} — must be accepted`).toBe(200);
    if (a.status === 200) {
      expect
        .soft(
          await big.count(target, `Name = '${ok}'`),
          `append of ${SIZE_LIMITS.appendRows} rows answered 200: rows written`,
        )
        .toBe(SIZE_LIMITS.appendRows);
      big.ids.push(...(a.json<{ row_ids?: { _id: string }[] }>().row_ids ?? []).map((x) => x._id));
    }
    const over = marker('over');
    const b = await target.gw(t.base, 'POST', 'rows/', {
      json: { table_name: t.name, rows: numbered(0, SIZE_LIMITS.appendRows + 1, over) },
    });
    expect
      .because(OVER_LIMIT_REFUSED)
      .soft(
        isClientError(b),
        `append of ${SIZE_LIMITS.appendRows + 1} rows answered ${brief(b)} — must be refused (4xx)`,
      )
      .toBe(true);
    const n = await big.count(target, `Name = '${over}'`);
    expect
      .soft(
        n,
        `the append of ${SIZE_LIMITS.appendRows + 1} rows wrote ${n} rows — at most ${SIZE_LIMITS.appendRows} per call`,
      )
      .toBeLessThanOrEqual(SIZE_LIMITS.appendRows);
    if (b.status >= 300)
      expect
        .because(REFUSED_CHANGES_NOTHING)
        .soft(n, `the refused append of ${SIZE_LIMITS.appendRows + 1} rows wrote ${n} rows — nothing may be written`)
        .toBe(0);
  },
);

test(
  ...clause(
    'SIZE-3',
    'update of 1,000 rows is accepted; 1,001 is refused (4xx) and nothing is changed',
    ev.spec('8.5 (Update rows: at most 1,000 rows per call)'),
  ),
  async ({ target, big }) => {
    const t = await big.ensure(target, SIZE_LIMITS.updateRows + 1);
    const updates = (n: number, mark: string) => big.ids.slice(0, n).map((row_id) => ({ row_id, row: { Mark: mark } }));
    const ok = marker('ok');
    const a = await target.gw(t.base, 'PUT', 'rows/', {
      json: { table_name: t.name, updates: updates(SIZE_LIMITS.updateRows, ok) },
    });
    expect.soft(a.status, `update of ${SIZE_LIMITS.updateRows} rows answered ${brief(a)} — must be accepted`).toBe(200);
    if (a.status === 200)
      expect
        .soft(
          await big.count(target, `Mark = '${ok}'`),
          `update of ${SIZE_LIMITS.updateRows} rows answered 200: rows changed`,
        )
        .toBe(SIZE_LIMITS.updateRows);
    const over = marker('over');
    const b = await target.gw(t.base, 'PUT', 'rows/', {
      json: { table_name: t.name, updates: updates(SIZE_LIMITS.updateRows + 1, over) },
    });
    expect
      .because(OVER_LIMIT_REFUSED)
      .soft(
        isClientError(b),
        `update of ${SIZE_LIMITS.updateRows + 1} rows answered ${brief(b)} — must be refused (4xx)`,
      )
      .toBe(true);
    const n = await big.count(target, `Mark = '${over}'`);
    expect
      .soft(
        n,
        `the update of ${SIZE_LIMITS.updateRows + 1} rows changed ${n} rows — at most ${SIZE_LIMITS.updateRows} per call`,
      )
      .toBeLessThanOrEqual(SIZE_LIMITS.updateRows);
    if (b.status >= 300)
      expect
        .because(REFUSED_CHANGES_NOTHING)
        .soft(n, `the refused update of ${SIZE_LIMITS.updateRows + 1} rows changed ${n} rows — nothing may be changed`)
        .toBe(0);
  },
);

test(
  ...clause(
    'SIZE-5',
    'SQL list returns at most 10,000 rows, also with LIMIT 20000 (table of 10,001+ rows)',
    ev.spec('8.5 (List rows with SQL: at most 10,000)'),
  ),
  async ({ target, big }) => {
    await big.ensure(target, SIZE_LIMITS.sqlList + 1);
    const r = await big.sql(target, 'SELECT _id FROM {T} LIMIT 20000');
    // A LIMIT over the maximum may be refused (4xx) or capped; answered, it gets at most 10,000 rows.
    if (isClientError(r)) {
      test
        .info()
        .annotations.push({ type: 'note', description: `LIMIT 20000 refused (${r.status}), which the maximum allows` });
      return;
    }
    expectStatus(r, 200, 'SQL SELECT … LIMIT 20000', SQL_QUERY);
    const results = r.json<{ results?: unknown }>().results;
    expect
      .because(SQL_QUERY)(
        Array.isArray(results),
        `SQL list: the answer has no "results" array: ${r.text.slice(0, 200)}`,
      )
      .toBe(true);
    const n = (results as unknown[]).length;
    expect
      .soft(n, `SQL list with LIMIT 20000 answered ${n} rows — at most ${SIZE_LIMITS.sqlList}`)
      .toBeLessThanOrEqual(SIZE_LIMITS.sqlList);
    expect
      .because(SQL_QUERY)
      .soft(n, 'SQL list with LIMIT 20000 answered no rows from a table of more than 10,000')
      .toBeGreaterThan(0);
  },
);

test(
  ...clause(
    'SIZE-5',
    'SQL list without LIMIT returns the default of 100 rows',
    ev.documented(
      'OA62 base_operations#querySQL, Limits: "Default: 100 rows. Maximum: 10,000 rows." (§8.5 gives the maximum only)',
    ),
  ),
  async ({ target, big }) => {
    await big.ensure(target, SIZE_LIMITS.sqlListDefault + 1);
    const r = await big.sql(target, 'SELECT _id FROM {T}');
    expectStatus(r, 200, 'SQL SELECT without LIMIT');
    const results = r.json<{ results?: unknown }>().results;
    expect(Array.isArray(results), `SQL list: the answer has no "results" array: ${r.text.slice(0, 200)}`).toBe(true);
    expect((results as unknown[]).length, `SQL list without LIMIT from a table of ${big.ids.length} rows`).toBe(
      SIZE_LIMITS.sqlListDefault,
    );
  },
);

test(
  ...clause(
    'SIZE-6',
    'an SQL UPDATE touching 20,000 rows succeeds and changes all of them',
    ev.spec('8.5 (Insert, update or delete rows with SQL: unlimited)'),
  ),
  async ({ target, big }) => {
    await big.ensure(target, 20_000);
    const total = await big.count(target);
    const mark = marker('all');
    const r = await big.sql(target, `UPDATE {T} SET Mark = '${mark}'`);
    expect(r.status, `SQL UPDATE of all ${total} rows answered ${brief(r)} — SQL writes have no row limit`).toBe(200);
    const n = await big.count(target, `Mark = '${mark}'`);
    expect(n, `SQL UPDATE of all ${total} rows answered 200 but changed ${n}`).toBe(total);
  },
);

/** What the target last announced about this base's budget (x-ratelimit-*). */
interface Budget {
  limit?: number;
  remaining?: number;
  reset?: number;
}

function noteBudget(b: Budget, r: Reply): void {
  const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((h) => Number(r.header(`x-ratelimit-${h}`)));
  if (Number.isInteger(remaining) && Number.isInteger(reset))
    Object.assign(b, { limit: Number.isInteger(limit) ? limit : undefined, remaining, reset });
}

/**
 * One call of a burst, made within the announced budget (waiting for the reset when it is
 * spent). A 429 is the target's right only when the budget could have been used up — by
 * this check or by parallel checks on the same base; a 429 while the previous answer in the
 * same window still announced a quarter of the limit (at least 50 calls) left refuses a
 * maximal call although the rate limit is respected.
 */
async function burstCall(
  target: Target,
  t: Scratch,
  method: string,
  o: { json?: unknown; query?: Record<string, string | number> },
  what: string,
  budget: Budget,
): Promise<Reply> {
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    if (budget.remaining !== undefined && budget.remaining <= 1 && budget.reset && budget.reset * 1000 > now)
      await sleep(Math.min(budget.reset * 1000 - now + 50, target.windowMs() + 2_000));
    const r = await target.gw(t.base, method, 'rows/', { ...o, raw429: true, expect: [429] });
    if (r.status !== 429) {
      noteBudget(budget, r);
      return r;
    }
    const announced = budget.reset && budget.reset * 1000 > Date.now() ? budget.remaining : undefined;
    const margin = Math.max(50, Math.floor((budget.limit ?? 200) / 4));
    expect
      .soft(
        announced === undefined || announced < margin,
        `${what} answered 429 although the answer before it announced ${announced} of ${budget.limit} calls left in this window — maximal calls must be admitted while the rate limit is respected`,
      )
      .toBe(true);
    if ((announced !== undefined && announced >= margin) || attempt >= 2) return r;
    const reset = Number(r.header('x-ratelimit-reset'));
    const until = Number.isInteger(reset) && reset * 1000 > Date.now() ? reset * 1000 : Date.now() + target.windowMs();
    await sleep(Math.min(until - Date.now() + 50, target.windowMs() + 2_000));
    budget.remaining = undefined;
  }
}

test(
  ...clause(
    'SIZE-7',
    'three appends of 1,000 rows and then three lists of 1,000 rows in a row all succeed within the rate limit',
    ev.spec('8.5 ("Several calls in a row are allowed while the rate limit is respected")'),
  ),
  async ({ target, big }) => {
    const t = await big.ensure(target, 3 * BATCH);
    const probe = await big.sql(target, 'SELECT COUNT(*) AS n FROM {T}');
    expectStatus(probe, 200, 'SQL COUNT before the burst', SQL_QUERY);
    const before = Number(Object.values(probe.json<{ results?: Record<string, unknown>[] }>().results?.[0] ?? {})[0]);
    const budget: Budget = {};
    noteBudget(budget, probe);
    const mark = marker('burst');
    for (let i = 0; i < 3; i++) {
      const what = `append ${i + 1} of 3 (1,000 rows each, in a row)`;
      const r = await burstCall(
        target,
        t,
        'POST',
        { json: { table_name: t.name, rows: numbered(i * BATCH, BATCH, mark) } },
        what,
        budget,
      );
      expect.soft(r.status, `${what} answered ${brief(r)}`).toBe(200);
      if (r.status === 200)
        big.ids.push(...(r.json<{ row_ids?: { _id: string }[] }>().row_ids ?? []).map((x) => x._id));
    }
    for (let i = 0; i < 3; i++) {
      const what = `list ${i + 1} of 3 (start ${i * BATCH}, limit ${BATCH}, in a row)`;
      const r = await burstCall(
        target,
        t,
        'GET',
        { query: { table_name: t.name, start: i * BATCH, limit: BATCH } },
        what,
        budget,
      );
      expect.soft(r.status, `${what} answered ${brief(r)}`).toBe(200);
      if (r.status === 200)
        expect.because(LIST_ROWS).soft(r.json<{ rows?: unknown[] }>().rows?.length, `${what}: rows`).toBe(BATCH);
    }
    expect.soft((await big.count(target)) - before, 'rows written by the three appends').toBe(3 * BATCH);
  },
);

test(
  ...clause(
    'SIZE-4',
    'delete of 10,000 rows is accepted; 10,001 is refused (4xx) and nothing is deleted',
    ev.spec('8.5 (Delete rows: at most 10,000 rows per call)'),
  ),
  async ({ target, big }) => {
    const t = await big.ensure(target, SIZE_LIMITS.deleteRows + 1);
    const before = await big.count(target);
    const over = big.ids.slice(0, SIZE_LIMITS.deleteRows + 1);
    const a = await target.gw(t.base, 'DELETE', 'rows/', { json: { table_name: t.name, row_ids: over } });
    expect
      .because(OVER_LIMIT_REFUSED)
      .soft(isClientError(a), `delete of ${over.length} rows answered ${brief(a)} — must be refused (4xx)`)
      .toBe(true);
    const mid = await big.count(target);
    expect
      .soft(
        before - mid,
        `the delete of ${over.length} rows deleted ${before - mid} rows — at most ${SIZE_LIMITS.deleteRows} per call`,
      )
      .toBeLessThanOrEqual(SIZE_LIMITS.deleteRows);
    if (a.status >= 300)
      expect
        .because(REFUSED_CHANGES_NOTHING)
        .soft(
          before - mid,
          `the refused delete of ${over.length} rows deleted ${before - mid} rows — nothing may be deleted`,
        )
        .toBe(0);
    const ids = big.ids.slice(0, SIZE_LIMITS.deleteRows);
    const b = await target.gw(t.base, 'DELETE', 'rows/', { json: { table_name: t.name, row_ids: ids } });
    expect.soft(b.status, `delete of ${ids.length} rows answered ${brief(b)} — must be accepted`).toBe(200);
    const after = await big.count(target);
    if (b.status === 200)
      expect.soft(mid - after, `delete of ${ids.length} rows answered 200: rows deleted`).toBe(ids.length);
    const gone = new Set(ids);
    if (mid - after === ids.length) big.ids = big.ids.filter((id) => !gone.has(id));
  },
);

test(
  ...clause(
    'SIZE-6',
    'an SQL DELETE without LIMIT removes every matching row (more than 10,000)',
    ev.spec('8.5 (Insert, update or delete rows with SQL: unlimited)'),
  ),
  async ({ target, big }) => {
    await big.ensure(target, SIZE_LIMITS.deleteRows + 1);
    const total = await big.count(target);
    const r = await big.sql(target, 'DELETE FROM {T} WHERE N >= 0');
    expect(r.status, `SQL DELETE of all ${total} rows answered ${brief(r)} — SQL writes have no row limit`).toBe(200);
    const left = await big.count(target);
    expect(left, `SQL DELETE of all ${total} rows answered 200 but left ${left}`).toBe(0);
    big.ids = [];
  },
);

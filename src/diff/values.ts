/**
 * The value sequences: rows with known cells written to a scratch table of the side's own,
 * then read back by every way the API offers (list, single row, SQL), changed and deleted (a row
 * that exists, and one that does not).
 * What is read back is deterministic — a cell as written, a count — so the diff compares the
 * values too, not only the structure.
 */
import { Undecided } from '../harness/outcome.js';
import { World } from '../harness/answers/index.js';
import type { Reply } from '../harness/target.js';
import { endpoint } from '../spec/index.js';
import type { Exchange } from './exchange.js';
import { exchangeOf, jsonBody, skippedExchange } from './normalise.js';
import type { Side } from './side.js';

const ROWS = [{ Name: 'v1', Num: 1.5, Done: true }, { Name: 'v2', Num: -3 }, { Name: 'v3' }] as const;
const COLUMNS = ['Name', 'Num', 'Done'] as const;

/** The cells of a row the sequence wrote (absent and null are one: SHAPE-1 tells them apart, the structure compares them). */
const cells = (row: unknown) =>
  Object.fromEntries(COLUMNS.map((c) => [c, (row as Record<string, unknown> | null)?.[c] ?? null]));
const rowsOf = (body: unknown) => {
  const list = body as { rows?: unknown[]; results?: unknown[] } | undefined;
  return (list?.rows ?? list?.results ?? []).map(cells).sort((a, b) => String(a.Name).localeCompare(String(b.Name)));
};

interface Step {
  ref: string;
  op: string;
  read: (body: unknown) => Record<string, unknown>;
}

const STEPS: Record<string, Step> = {
  append: {
    ref: 'values/append',
    op: 'appendRows',
    read: (b) => ({
      inserted_row_count: (b as { inserted_row_count?: unknown })?.inserted_row_count ?? null,
      ids: ((b as { row_ids?: unknown[] })?.row_ids ?? []).length,
    }),
  },
  list: { ref: 'values/list', op: 'listRows', read: (b) => ({ rows: rowsOf(b) }) },
  /** The row list answers in the table's order; order_by and direction were removed in 4.4 (ROUTE-6): here the order is the value. */
  ordered: {
    ref: 'values/list-order-by',
    op: 'listRows',
    read: (b) => ({ names: ((b as { rows?: { Name?: unknown }[] })?.rows ?? []).map((r) => r.Name ?? null) }),
  },
  get: { ref: 'values/get', op: 'getRow', read: (b) => cells(b) },
  update: { ref: 'values/update', op: 'updateRows', read: () => ({}) },
  afterUpdate: { ref: 'values/after-update', op: 'getRow', read: (b) => cells(b) },
  count: {
    ref: 'values/sql-count',
    op: 'querySql',
    read: (b) => ({
      count: Object.values(((b as { results?: Record<string, unknown>[] })?.results ?? [])[0] ?? {})[0] ?? null,
    }),
  },
  select: { ref: 'values/sql-select', op: 'querySql', read: (b) => ({ rows: rowsOf(b) }) },
  removeMissing: {
    ref: 'values/delete-missing',
    op: 'deleteRows',
    read: (b) => ({ deleted_rows: (b as { deleted_rows?: unknown })?.deleted_rows ?? null }),
  },
  remove: {
    ref: 'values/delete',
    op: 'deleteRows',
    read: (b) => ({ deleted_rows: (b as { deleted_rows?: unknown })?.deleted_rows ?? null }),
  },
  afterDelete: { ref: 'values/after-delete', op: 'listRows', read: (b) => ({ rows: rowsOf(b) }) },
};

export async function valueSequences(side: Side): Promise<Exchange[]> {
  const { target, state } = side;
  const out: Exchange[] = [];
  const world = new World();
  const take = (s: Step, r: Reply): unknown => {
    const ep = endpoint(s.op);
    const x = exchangeOf({ ref: s.ref, operation: s.op, method: ep.method, path: ep.path }, r, {
      prefix: state.tablePrefix,
      keys: side.columnKeys,
    });
    const body = r.status < 300 ? jsonBody(r) : undefined;
    out.push(body === undefined ? x : { ...x, values: { ...x.values, ...s.read(body) } });
    return body;
  };
  try {
    const t = await world.table(target, 'val', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'Num', column_type: 'number' },
      { column_name: 'Done', column_type: 'checkbox' },
    ]);
    const q = { table_name: t.name, convert_keys: true };
    const appended = take(
      STEPS.append!,
      await target.gw(0, 'POST', 'rows/', { json: { table_name: t.name, rows: ROWS } }),
    ) as { row_ids?: { _id?: string }[] } | undefined;
    const ids = (appended?.row_ids ?? []).map((x) => x._id);
    const [v1, v2, v3] = ids;
    take(STEPS.list!, await target.gw(0, 'GET', 'rows/', { query: { ...q, limit: 100 } }));
    take(
      STEPS.ordered!,
      await target.gw(0, 'GET', 'rows/', { query: { ...q, limit: 100, order_by: 'Name', direction: 'desc' } }),
    );
    if (!v1 || !v2 || !v3)
      throw new Undecided('fixture', `the append of ${ROWS.length} rows answered ${ids.length} row ids`);
    take(STEPS.get!, await target.gw(0, 'GET', `rows/${v1}/`, { query: q }));
    take(
      STEPS.update!,
      await target.gw(0, 'PUT', 'rows/', {
        json: { table_name: t.name, updates: [{ row_id: v2, row: { Num: 42, Name: 'v2 changed' } }] },
      }),
    );
    take(STEPS.afterUpdate!, await target.gw(0, 'GET', `rows/${v2}/`, { query: q }));
    take(
      STEPS.count!,
      await target.gw(0, 'POST', 'sql/', {
        json: { sql: `SELECT COUNT(*) AS n FROM \`${t.name}\``, convert_keys: true },
      }),
    );
    take(
      STEPS.select!,
      await target.gw(0, 'POST', 'sql/', {
        json: { sql: `SELECT Name, Num, Done FROM \`${t.name}\` WHERE Num > 0`, convert_keys: true },
      }),
    );
    take(
      STEPS.removeMissing!,
      await target.gw(0, 'DELETE', 'rows/', { json: { table_name: t.name, row_ids: ['AAAAAAAAAAAAAAAAAAAAAA'] } }),
    );
    take(STEPS.remove!, await target.gw(0, 'DELETE', 'rows/', { json: { table_name: t.name, row_ids: [v3] } }));
    take(STEPS.afterDelete!, await target.gw(0, 'GET', 'rows/', { query: { ...q, limit: 100 } }));
  } catch (e) {
    if (!(e instanceof Undecided)) throw e;
    // The steps not reached: the target answered a setup call otherwise.
    for (const s of Object.values(STEPS).filter((s) => !out.some((x) => x.ref === s.ref))) {
      const ep = endpoint(s.op);
      out.push(
        skippedExchange(
          { ref: s.ref, operation: s.op, method: ep.method, path: ep.path },
          `${e.kind}: ${e.message}`,
          true,
        ),
      );
    }
  } finally {
    await world.drop();
  }
  return out;
}

/**
 * The refusal sequences: requests a server must refuse or handle in one documented way — a
 * broken body, a row that is not an object, a value of the wrong type — the row rules a
 * shortcut breaks (a row's _id cannot change, an unknown option is created, a table with a
 * ctime column answers no _ctime), ROBUST's malformed requests (a 500 is a status too) and SQL's parameters and filters; and the caps (§ SIZE): one
 * row more than a call may carry, the row list's and SQL's limits, a delete of more than a
 * thousand rows (a thousand rows written: a sequence of its own). All on a scratch
 * table of the side's own; what a faulty side would wrongly accept lands there and is dropped
 * with it.
 */
import { World } from '../harness/answers/index.js';
import { Undecided } from '../harness/outcome.js';
import type { CallOptions, Reply } from '../harness/target.js';
import { endpoint, INPUT_LIMITS, SIZE_LIMITS } from '../spec/index.js';
import type { Exchange } from './exchange.js';
import { exchangeOf, jsonBody, skippedExchange } from './normalise.js';
import type { Side } from './side.js';

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `Zz${String(i + from).padStart(20, '0')}`);

type StepFn = (
  name: string,
  op: string,
  sub: string,
  o: Omit<CallOptions, 'path'>,
  values?: (body: unknown) => Record<string, unknown>,
) => Promise<Reply>;
type SqlFn = (name: string, statement: string, parameters?: unknown[]) => Promise<Reply>;

/** Run `steps` on a scratch table of the side's own (dropped after), each step an exchange `<sequence>/<name>`. */
async function onScratchTable(
  side: Side,
  sequence: string,
  steps: (step: StepFn, sql: SqlFn, table_name: string) => Promise<void>,
): Promise<Exchange[]> {
  const { target, state } = side;
  const out: Exchange[] = [];
  const world = new World();
  const n = { prefix: state.tablePrefix, keys: side.columnKeys };
  const step: StepFn = async (name, op, sub, o, values) => {
    const ep = endpoint(op);
    // A gateway path of base 0 with its base token, unless the step names a path and credential of its own.
    const path = sub.startsWith('/') ? sub : target.gatewayPath(0, sub);
    const r = await target.call({ auth: { base: 0 }, ...o, path, expect: [400, 404, 413, 415] });
    const x = exchangeOf({ ref: `${sequence}/${name}`, operation: op, method: o.method ?? 'GET', path: ep.path }, r, n);
    const body = values && r.status < 300 ? jsonBody(r) : undefined;
    out.push(body === undefined ? x : { ...x, values: { ...x.values, ...values!(body) } });
    return r;
  };
  try {
    const t = await world.table(target, sequence.slice(0, 3), [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'Num', column_type: 'number' },
      {
        column_name: 'Pick',
        column_type: 'single-select',
        column_data: { options: [{ name: 'p1', color: '#FFFCB5', textColor: '#202428', id: '100001' }] },
      },
      { column_name: 'Created', column_type: 'ctime' },
      { column_name: 'Done', column_type: 'checkbox' },
      { column_name: 'When', column_type: 'date' },
      {
        column_name: 'Tags',
        column_type: 'multiple-select',
        column_data: { options: [{ name: 't1', color: '#FFFCB5', textColor: '#202428', id: '100002' }] },
      },
    ]);
    // SQL's answers are compared by how many rows they give.
    const sql: SqlFn = (name, statement, parameters) =>
      step(
        name,
        'querySql',
        'sql/',
        { method: 'POST', json: { sql: statement.replace('{t}', `\`${t.name}\``), parameters, convert_keys: true } },
        (b) => ({ count: ((b as { results?: unknown[] }).results ?? []).length }),
      );
    await steps(step, sql, t.name);
  } catch (e) {
    if (!(e instanceof Undecided)) throw e;
    out.push(
      skippedExchange(
        { ref: `${sequence}/setup`, operation: 'appendRows', method: 'POST', path: endpoint('appendRows').path },
        `${e.kind}: ${e.message}`,
        true,
      ),
    );
  } finally {
    await world.drop();
  }
  return out;
}

/** Append rows as a setup call: the row ids, or Undecided. */
async function append(side: Side, table_name: string, rows: Record<string, unknown>[]): Promise<string[]> {
  const r = await side.target.gw(0, 'POST', 'rows/', { json: { table_name, rows } });
  const got = ((jsonBody(r) as { row_ids?: { _id?: string }[] } | undefined)?.row_ids ?? []).map((x) => x._id ?? '');
  if (r.status !== 200 || got.length !== rows.length)
    throw new Undecided('fixture', `append ${rows.length} row(s): status ${r.status}, ${got.length} id(s)`);
  return got;
}

export const refusalSequences = (side: Side) =>
  onScratchTable(side, 'refusals', async (step, sql, table_name) => {
    await step('broken-json', 'appendRows', 'rows/', {
      method: 'POST',
      rawBody: { body: `{"table_name": "${table_name}", "rows": [`, contentType: 'application/json' },
    });
    await step('row-not-object', 'appendRows', 'rows/', {
      method: 'POST',
      json: { table_name, rows: ['not an object'] },
    });
    await step('rows-not-list', 'appendRows', 'rows/', {
      method: 'POST',
      json: { table_name, rows: { Name: 'one object' } },
    });
    await step('wrong-type', 'appendRows', 'rows/', {
      method: 'POST',
      json: { table_name, rows: [{ Num: 'not a number' }] },
    });
    // ROBUST-1…4's malformed requests: each a 4xx, not a 500.
    // (Multipart: a route that takes it, the sign-in, with no credential.)
    await step('multipart-no-boundary', 'authToken', endpoint('authToken').path, {
      method: 'POST',
      auth: 'none',
      rawBody: {
        body: `--b\r\nContent-Disposition: form-data; name="username"\r\n\r\nx\r\n--b--\r\n`,
        contentType: 'multipart/form-data',
      },
    });
    await step('table-name-number', 'appendRows', 'rows/', { method: 'POST', json: { table_name: 42, rows: [] } });
    const deep = INPUT_LIMITS.jsonDepth + 1;
    await step('too-deep', 'appendRows', 'rows/', {
      method: 'POST',
      rawBody: {
        body: `{"table_name":"${table_name}","rows":${'['.repeat(deep)}${']'.repeat(deep)}}`,
        contentType: 'application/json',
      },
    });
    await step('lone-surrogate', 'appendRows', 'rows/', {
      method: 'POST',
      json: { table_name, rows: [{ Name: 'a\ud800' }] },
    });
    const [id] = await append(side, table_name, [{ Name: 'kept', Pick: 'p1' }]);
    const q = { table_name, convert_keys: true };
    await step('row-times', 'getRow', `rows/${id}/`, { query: q });
    await step('change-id', 'updateRows', 'rows/', {
      method: 'PUT',
      json: { table_name, updates: [{ row_id: id, row: { _id: ids(1, 7)[0], Num: 2 } }] },
    });
    await step('after-change-id', 'getRow', `rows/${id}/`, { query: q }, (b) => ({
      Num: (b as { Num?: unknown }).Num ?? null,
    }));
    await step('unknown-option', 'updateRows', 'rows/', {
      method: 'PUT',
      json: { table_name, updates: [{ row_id: id, row: { Pick: 'p9' } }] },
    });
    await step('after-unknown-option', 'getRow', `rows/${id}/`, { query: q }, (b) => ({
      Pick: (b as { Pick?: unknown }).Pick ?? null,
    }));
    // Wrong values the real service is recorded coercing (a number in a checkbox, text that is no date, a plain string in a multiple select), read back.
    const [coerced] = await append(side, table_name, [{ Name: 'coerced', Done: 1, When: 'no date', Tags: 't1' }]);
    await step('after-coercion', 'getRow', `rows/${coerced}/`, { query: q }, (b) => {
      const row = b as Record<string, unknown>;
      return { Done: row.Done ?? null, When: row.When ?? null, Tags: row.Tags ?? null };
    });
    // A refused append writes none of its rows.
    await step('refused-batch', 'appendRows', 'rows/', {
      method: 'POST',
      json: { table_name, rows: [{ Name: 'half' }, { Num: 'not a number' }] },
    });
    await sql('after-refused-batch', "SELECT Name FROM {t} WHERE Name = 'half'");
    // Parameters bound (a quote in one, a number compared as a number); an unknown column refused.
    await append(side, table_name, [{ Name: "it's", Num: 10 }]);
    await sql('sql-quote-parameter', 'SELECT Name FROM {t} WHERE Name = ?', ["it's"]);
    await sql('sql-number-parameter', 'SELECT Name FROM {t} WHERE Num > ?', [9]);
    await sql('sql-unknown-column', 'SELECT Name FROM {t} WHERE NoSuchColumn = 1');
  });

export const capSequences = (side: Side) =>
  onScratchTable(side, 'caps', async (step, sql, table_name) => {
    await step('append-1001', 'appendRows', 'rows/', {
      method: 'POST',
      json: { table_name, rows: Array.from({ length: 1001 }, (_, i) => ({ Name: `r${i}` })) },
    });
    await step('update-1001', 'updateRows', 'rows/', {
      method: 'PUT',
      json: { table_name, updates: ids(1001).map((row_id) => ({ row_id, row: { Num: 1 } })) },
    });
    await step('delete-10001', 'deleteRows', 'rows/', { method: 'DELETE', json: { table_name, row_ids: ids(10_001) } });
    // A thousand rows and two (one call at the append limit): the row list's cap, SQL's default limit, a delete of more than a thousand.
    const every = [
      ...(await append(
        side,
        table_name,
        Array.from({ length: 1000 }, (_, i) => ({ Name: `m${i}`, Num: -1 })),
      )),
      ...(await append(side, table_name, [{ Name: 'a' }, { Name: 'b' }])),
    ];
    await step('list-1001', 'listRows', 'rows/', { query: { table_name, limit: 1001 } }, (b) => ({
      count: ((b as { rows?: unknown[] }).rows ?? []).length,
    }));
    await sql('sql-default-limit', 'SELECT Name FROM {t}');
    await step(
      'delete-1002',
      'deleteRows',
      'rows/',
      { method: 'DELETE', json: { table_name, row_ids: every } },
      (b) => ({ deleted_rows: (b as { deleted_rows?: unknown }).deleted_rows ?? null }),
    );
    await sql('after-delete-1002', 'SELECT Name FROM {t} LIMIT 5000');
  });

/** SQL past its list cap (SIZE-5) and a write of more rows than a list may give (SIZE-6): 10,001 rows, so only where plan changes are allowed. */
export const bigCapSequences = (side: Side): Promise<Exchange[]> => {
  if (!side.state.allowPlanChanges)
    return Promise.resolve([
      skippedExchange(
        { ref: 'caps/over-10000/setup', operation: 'appendRows', method: 'POST', path: endpoint('appendRows').path },
        `writes ${SIZE_LIMITS.sqlList + 1} rows: only with --allow-plan-changes`,
        false,
      ),
    ]);
  return onScratchTable(side, 'caps/over-10000', async (step, sql, table_name) => {
    const per = SIZE_LIMITS.appendRows;
    for (let from = 0; from <= SIZE_LIMITS.sqlList; from += per) {
      const n = Math.min(per, SIZE_LIMITS.sqlList + 1 - from);
      await append(
        side,
        table_name,
        Array.from({ length: n }, (_, i) => ({ Name: `n${from + i}` })),
      );
    }
    await sql('sql-limit-over-cap', `SELECT Name FROM {t} LIMIT ${2 * SIZE_LIMITS.sqlList}`);
    await step('sql-update-all', 'querySql', 'sql/', {
      method: 'POST',
      json: { sql: `UPDATE \`${table_name}\` SET Num = 1`, convert_keys: true },
    });
  });
};

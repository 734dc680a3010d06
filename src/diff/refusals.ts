/**
 * The refusal sequences: requests a server must refuse or handle in one documented way — a
 * broken body, a row that is not an object, a value of the wrong type, one more row than a
 * call may carry (§ SIZE) — and the row rules a shortcut breaks (a row's _id cannot change, an
 * unknown option is created, a table with a ctime column answers no _ctime), SQL parameters
 * and limits, and the caps of a list and a delete. All on a scratch
 * table of the side's own; what a faulty side would wrongly accept lands there and is dropped
 * with it.
 */
import { World } from '../harness/answers/index.js';
import { Undecided } from '../harness/outcome.js';
import type { CallOptions, Reply } from '../harness/target.js';
import { endpoint } from '../spec/index.js';
import type { Exchange } from './exchange.js';
import { exchangeOf, jsonBody, skippedExchange } from './normalise.js';
import type { Side } from './side.js';

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `Zz${String(i + from).padStart(20, '0')}`);

export async function refusalSequences(side: Side): Promise<Exchange[]> {
  const { target, state } = side;
  const out: Exchange[] = [];
  const world = new World();
  const n = { prefix: state.tablePrefix, keys: side.columnKeys };
  const steps: [string, string][] = [];
  const step = async (name: string, op: string, sub: string, o: Omit<CallOptions, 'path'>, values?: (body: unknown) => Record<string, unknown>): Promise<Reply> => {
    steps.push([name, op]);
    const ep = endpoint(op);
    const r = await target.call({ ...o, auth: { base: 0 }, path: target.gatewayPath(0, sub), expect: [400, 404, 413] });
    const x = exchangeOf({ ref: `refusals/${name}`, operation: op, method: o.method ?? 'GET', path: ep.path }, r, n);
    const body = values && r.status < 300 ? jsonBody(r) : undefined;
    out.push(body === undefined ? x : { ...x, values: { ...x.values, ...values!(body) } });
    return r;
  };
  try {
    const t = await world.table(target, 'ref', [
      { column_name: 'Name', column_type: 'text' }, { column_name: 'Num', column_type: 'number' },
      { column_name: 'Pick', column_type: 'single-select', column_data: { options: [{ name: 'p1', color: '#FFFCB5', textColor: '#202428', id: '100001' }] } },
      { column_name: 'Created', column_type: 'ctime' },
    ]);
    const table_name = t.name;
    const json = (body: unknown) => ({ json: body });
    await step('broken-json', 'appendRows', 'rows/', { method: 'POST', rawBody: { body: `{"table_name": "${table_name}", "rows": [`, contentType: 'application/json' } });
    await step('row-not-object', 'appendRows', 'rows/', { method: 'POST', ...json({ table_name, rows: ['not an object'] }) });
    await step('rows-not-list', 'appendRows', 'rows/', { method: 'POST', ...json({ table_name, rows: { Name: 'one object' } }) });
    await step('wrong-type', 'appendRows', 'rows/', { method: 'POST', ...json({ table_name, rows: [{ Num: 'not a number' }] }) });
    await step('append-1001', 'appendRows', 'rows/', { method: 'POST', ...json({ table_name, rows: Array.from({ length: 1001 }, (_, i) => ({ Name: `r${i}` })) }) });
    await step('update-1001', 'updateRows', 'rows/', { method: 'PUT', ...json({ table_name, updates: ids(1001).map((row_id) => ({ row_id, row: { Num: 1 } })) }) });
    await step('delete-10001', 'deleteRows', 'rows/', { method: 'DELETE', ...json({ table_name, row_ids: ids(10_001) }) });
    const made = await target.gw(0, 'POST', 'rows/', { json: { table_name, rows: [{ Name: 'kept', Pick: 'p1' }] } });
    const id = (jsonBody(made) as { row_ids?: { _id?: string }[] } | undefined)?.row_ids?.[0]?._id;
    if (made.status !== 200 || !id) throw new Undecided('fixture', `append a row: status ${made.status}`);
    const q = { table_name, convert_keys: true };
    await step('row-times', 'getRow', `rows/${id}/`, { query: q });
    await step('change-id', 'updateRows', 'rows/', { method: 'PUT', ...json({ table_name, updates: [{ row_id: id, row: { _id: ids(1, 7)[0], Num: 2 } }] }) });
    await step('after-change-id', 'getRow', `rows/${id}/`, { query: q }, (b) => ({ Num: (b as { Num?: unknown }).Num ?? null }));
    await step('unknown-option', 'updateRows', 'rows/', { method: 'PUT', ...json({ table_name, updates: [{ row_id: id, row: { Pick: 'p9' } }] }) });
    await step('after-unknown-option', 'getRow', `rows/${id}/`, { query: q }, (b) => ({ Pick: (b as { Pick?: unknown }).Pick ?? null }));
    // SQL: parameters bound (a quote in one, a number compared as a number), an unknown column refused, the default LIMIT of 100.
    const sql = (name: string, statement: string, parameters?: unknown[]) => step(name, 'querySql', 'sql/', { method: 'POST', ...json({ sql: statement.replace('{t}', `\`${table_name}\``), parameters, convert_keys: true }) }, (b) => ({ count: ((b as { results?: unknown[] }).results ?? []).length }));
    const quoted = await target.gw(0, 'POST', 'rows/', { json: { table_name, rows: [{ Name: "it's", Num: 10 }] } });
    if (quoted.status !== 200) throw new Undecided('fixture', `append a row: status ${quoted.status}`);
    await sql('sql-quote-parameter', 'SELECT Name FROM {t} WHERE Name = ?', ["it's"]);
    await sql('sql-number-parameter', 'SELECT Name FROM {t} WHERE Num > ?', [9]);
    await sql('sql-unknown-column', 'SELECT Name FROM {t} WHERE NoSuchColumn = 1');
    // A thousand rows more (one call at the append limit): the row list's cap, the SQL default limit, a delete of more than a thousand.
    const many = await target.gw(0, 'POST', 'rows/', { json: { table_name, rows: Array.from({ length: 1000 }, (_, i) => ({ Name: `m${i}`, Num: -1 })) } });
    if (many.status !== 200) throw new Undecided('fixture', `append 1,000 rows: status ${many.status}`);
    await step('list-1001', 'listRows', 'rows/', { query: { table_name, limit: 1001 } }, (b) => ({ count: ((b as { rows?: unknown[] }).rows ?? []).length }));
    await sql('sql-default-limit', 'SELECT Name FROM {t}');
    const all = await target.gw(0, 'POST', 'sql/', { json: { sql: `SELECT _id FROM \`${table_name}\` LIMIT 5000`, convert_keys: true } });
    const every = ((jsonBody(all) as { results?: { _id?: string }[] } | undefined)?.results ?? []).map((x) => x._id);
    await step('delete-1002', 'deleteRows', 'rows/', { method: 'DELETE', ...json({ table_name, row_ids: every }) }, (b) => ({ deleted_rows: (b as { deleted_rows?: unknown }).deleted_rows ?? null }));
    await sql('after-delete-1002', 'SELECT Name FROM {t} LIMIT 5000');
  } catch (e) {
    if (!(e instanceof Undecided)) throw e;
    out.push(skippedExchange({ ref: 'refusals/setup', operation: 'appendRows', method: 'POST', path: endpoint('appendRows').path }, `${e.kind}: ${e.message}`, true));
  } finally {
    await world.drop();
  }
  return out;
}

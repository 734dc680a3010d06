/**
 * ROBUST-4's other half: a Unicode edge case a target takes must come back exactly as sent.
 * NUL, a lone surrogate and 10,000 characters, each as a cell value, a table name (with the
 * check's tag, so the run's sweep finds it) and a column name: refused with a 4xx, or
 * written and then read back — the row by its id, the names from the base's metadata —
 * character for character. A store that turns a lone surrogate into U+FFFD fails here.
 */
import type { RunState } from '../state.js';
import { existingTable, scratchTable, type Scratch } from '../tables.js';
import type { Reply, Target } from '../target.js';
import { ev } from '../../spec/index.js';
import { expect } from '../test.js';
import { BAD_TEXTS, type BadText } from './fields.js';
import { robustBase } from './plan.js';
import { tablesOf } from '../metadata.js';

const show = (s: string) =>
  s.length > 40 ? `${JSON.stringify(s.slice(0, 20))}… (${s.length} characters)` : JSON.stringify(s);
/** Refusals a client may meet here besides 400: conflict, too large, unprocessable. */
const REFUSED = [400, 404, 409, 413, 422];

/** Taken (2xx), refused (4xx) — or a violation: anything else. */
function taken(r: Reply, what: string): boolean {
  const ok = (r.status >= 200 && r.status < 300) || (r.status >= 400 && r.status < 500);
  expect
    .soft(ok, `${what}: answered ${r.status}, neither refused (4xx) nor taken (2xx): ${r.text.slice(0, 160)}`)
    .toBe(true);
  return r.status >= 200 && r.status < 300;
}

async function cell(target: Target, t: Scratch, kind: BadText, bad: string): Promise<void> {
  const what = `a cell value ${show(bad)} (${kind})`;
  const r = await target.gw(t.base, 'POST', 'rows/', {
    json: { table_name: t.name, rows: [{ Name: bad }] },
    expect: REFUSED,
  });
  if (!taken(r, `append ${what}`)) return;
  const id = r.json<{ row_ids?: { _id?: string }[] }>().row_ids?.[0]?._id;
  expect
    .because(ev.documented("OA62 base_operations#appendRows (the answer lists the new rows' _id)"))
    .soft(typeof id, `append ${what}: the answer names no row id`)
    .toBe('string');
  if (typeof id !== 'string') return;
  const got = await target.gw(t.base, 'GET', `rows/${id}/`, { query: { table_name: t.name, convert_keys: 'true' } });
  const value = got.status === 200 ? got.json<Record<string, unknown>>().Name : `<status ${got.status}>`;
  expect
    .soft(
      value === bad,
      `${what} was taken, then read back as ${typeof value === 'string' ? show(value) : JSON.stringify(value)}`,
    )
    .toBe(true);
}

async function tableName(
  target: Target,
  base: number,
  tag: string,
  kind: BadText,
  bad: string,
  created: Scratch[],
): Promise<void> {
  const name = kind === 'long' ? tag + bad.slice(tag.length) : `${tag}${bad}`;
  const what = `a table named ${show(name)} (${kind})`;
  const r = await target.gw(base, 'POST', 'tables/', {
    json: { table_name: name, columns: [{ column_name: 'Name', column_type: 'text' }] },
    expect: REFUSED,
  });
  if (!taken(r, `create ${what}`)) return;
  const stored = r.json<{ name?: unknown }>().name;
  created.push(existingTable(target, typeof stored === 'string' ? stored : name, base));
  const names = (await tablesOf(target, base)).map((t) => t.name);
  expect
    .soft(
      names.includes(name),
      `${what} was created, but the base lists no table of exactly that name${typeof stored === 'string' && stored !== name ? ` (the answer says ${show(stored)})` : ''}`,
    )
    .toBe(true);
}

async function columnName(target: Target, t: Scratch, kind: BadText, bad: string): Promise<void> {
  const what = `a column named ${show(bad)} (${kind})`;
  const r = await target.gw(t.base, 'POST', 'columns/', {
    json: { table_name: t.name, column_name: bad, column_type: 'text' },
    expect: REFUSED,
  });
  if (!taken(r, `add ${what}`)) return;
  const table = (await tablesOf(target, t.base)).find((x) => x.name === t.name);
  expect
    .soft(
      (table?.columns ?? []).some((c) => c.name === bad),
      `${what} was added, but the table's metadata has no column of exactly that name`,
    )
    .toBe(true);
}

export async function readBackCheck(target: Target, state: RunState): Promise<void> {
  const base = robustBase(state);
  const tag = `${state.tablePrefix}rb4r_`;
  const t = await scratchTable(target, 'rb4r_s', [{ column_name: 'Name', column_type: 'text' }], base);
  const created: Scratch[] = [];
  try {
    for (const [kind, bad] of Object.entries(BAD_TEXTS) as [BadText, string][]) {
      await cell(target, t, kind, bad);
      await tableName(target, base, tag, kind, bad, created);
      await columnName(target, t, kind, bad);
    }
  } finally {
    for (const c of created) await c.drop();
    await t.drop();
  }
}

/**
 * ROBUST-6, concurrent writers: appenders racing on one scratch table must lose and duplicate
 * nothing (the rows acknowledged are exactly the rows listed, and SQL counts as many), and of
 * concurrent creates of one table name exactly one wins. Bounded in calls and in time; a check
 * that could not finish its writes in time is undecided, not failed.
 */
import { randomBytes } from 'node:crypto';
import { fixtureMissing, Undecided } from '../outcome.js';
import type { RunState } from '../state.js';
import { countRows, listRows, scratchTable } from '../tables.js';
import type { Reply, Target } from '../target.js';
import { ev } from '../../spec/index.js';
import { expect } from '../test.js';

/** One table per name under concurrent creates: the API description names tables by name, but documents no refusal of a duplicate name. */
const ONE_PER_NAME = ev.inferred(
  'tables are named and addressed by name (OA62 base_operations#createTable, renameTable, deleteTable); no document or recorded answer shows the real service refusing a duplicate name',
);
import { robustBase } from './plan.js';
import { tablesOf } from '../metadata.js';

/** 20 appenders × 5 calls × 5 rows: 100 calls, 500 rows — one list call reads them all back. */
export const APPENDERS = 20;
const CALLS_EACH = 5;
const ROWS_EACH = 5;
/** Concurrent creates of one name. */
export const CREATORS = 8;
const DEADLINE_MS = 60_000;

async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Undecided('timeout', `${what} did not finish within ${DEADLINE_MS / 1000} s`)),
      DEADLINE_MS,
    );
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function appendersCheck(target: Target, state: RunState): Promise<void> {
  const t = await scratchTable(target, 'rb6a', [{ column_name: 'Name', column_type: 'text' }], robustBase(state));
  try {
    const acknowledged: { id: string; name: string }[] = [];
    const problems: string[] = [];
    const appender = async (a: number) => {
      for (let c = 0; c < CALLS_EACH; c++) {
        const names = Array.from({ length: ROWS_EACH }, (_, i) => `a${a}-c${c}-r${i}`);
        const r = await target.gw(t.base, 'POST', 'rows/', {
          json: { table_name: t.name, rows: names.map((Name) => ({ Name })) },
          expect: [400, 409],
        });
        if (r.status >= 500) {
          problems.push(`appender ${a}, call ${c}: answered ${r.status}: ${r.text.slice(0, 120)}`);
          continue;
        }
        if (r.status !== 200) continue; // refused: none of its rows may show up (checked below)
        const ids = (r.json<{ row_ids?: { _id?: unknown }[] }>().row_ids ?? []).map((x) => x._id);
        if (ids.length !== names.length || ids.some((id) => typeof id !== 'string'))
          problems.push(`appender ${a}, call ${c}: ${names.length} rows appended, ${ids.length} row ids acknowledged`);
        ids.forEach((id, i) => typeof id === 'string' && names[i] && acknowledged.push({ id, name: names[i] }));
      }
    };
    await within(
      Promise.all(Array.from({ length: APPENDERS }, (_, a) => appender(a))),
      `${APPENDERS} concurrent appenders`,
    );
    expect.soft(problems, 'every concurrent append is answered with a row id per row, never a 5xx').toEqual([]);
    if (acknowledged.length === 0) throw fixtureMissing('no concurrent append was acknowledged: nothing to compare');
    const ids = acknowledged.map((x) => x.id);
    const dupIds = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect.soft(dupIds, 'no row id is acknowledged twice').toEqual([]);
    const listed = await listRows(target, t, { limit: 1000 });
    const listedIds = listed.map((r) => r._id as string);
    const byId = new Map(listed.map((r) => [r._id as string, r.Name]));
    const lost = acknowledged.filter((x) => !byId.has(x.id)).map((x) => `${x.name} (${x.id})`);
    const extra = listedIds.filter((id) => !ids.includes(id));
    const dupNames = listed.map((r) => r.Name).filter((n, i, all) => all.indexOf(n) !== i);
    const wrong = acknowledged
      .filter((x) => byId.has(x.id) && byId.get(x.id) !== x.name)
      .map((x) => `${x.id}: ${JSON.stringify(byId.get(x.id))}, sent ${x.name}`);
    expect
      .soft(lost, `rows acknowledged to concurrent appenders but not listed (${lost.length} of ${acknowledged.length})`)
      .toEqual([]);
    expect.soft(extra, 'rows listed that no appender was acknowledged').toEqual([]);
    expect.soft(dupNames, 'rows listed twice').toEqual([]);
    expect.soft(wrong, "rows listed with another appender's value").toEqual([]);
    expect.soft(await countRows(target, t), 'rows counted by SQL = rows acknowledged').toBe(acknowledged.length);
  } finally {
    await t.drop();
  }
}

export async function creatorsCheck(target: Target, state: RunState): Promise<void> {
  const base = robustBase(state);
  const name = `${state.tablePrefix}rb6c_${randomBytes(2).toString('hex')}`;
  const create = () =>
    target.gw(base, 'POST', 'tables/', {
      json: { table_name: name, columns: [{ column_name: 'Name', column_type: 'text' }] },
      expect: [400, 409],
    });
  let answers: Reply[] = [];
  try {
    answers = await within(Promise.all(Array.from({ length: CREATORS }, create)), `${CREATORS} concurrent creates`);
    const statuses = answers.map((r) => r.status).sort();
    const wins = answers.filter((r) => r.status >= 200 && r.status < 300).length;
    expect
      .because(ONE_PER_NAME)
      .soft(
        wins,
        `of ${CREATORS} concurrent creates of table ${name}, exactly one wins (statuses: ${statuses.join(', ')})`,
      )
      .toBe(1);
    expect
      .soft(
        answers
          .filter((r) => r.status >= 300 && !(r.status >= 400 && r.status < 500))
          .map((r) => `${r.status}: ${r.text.slice(0, 100)}`),
        'the losers are refused with a 4xx',
      )
      .toEqual([]);
    const same = (await tablesOf(target, base)).filter((t) => t.name === name).length;
    expect
      .because(ONE_PER_NAME)
      .soft(same, `tables named ${name} in the base after ${CREATORS} concurrent creates`)
      .toBe(1);
  } finally {
    // However many the target made: drop until none answers (at most one per create).
    for (let i = 0; i < Math.max(1, answers.length); i++) {
      const r = await target
        .gw(base, 'DELETE', 'tables/', { json: { table_name: name }, expect: [400, 404] })
        .catch(() => undefined);
      if (!r || r.status !== 200) break;
    }
  }
}

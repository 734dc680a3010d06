/**
 * SQL (SQL-*): parameters are bound, never spliced — injection strings passed as parameters
 * are stored and compared as data, and the table survives; numeric parameters compare as
 * numbers. A SQL list with an invalid filter is refused with a 4xx and an error body, not
 * answered with unfiltered rows.
 */
import { expectStatus } from '../src/harness/assert.js';
import { appendAll, countRows, scratchTable, type Scratch } from '../src/harness/tables.js';
import { clause, expect, needsRelease, test, ev } from '../src/harness/test.js';
import type { Reply, Target } from '../src/harness/target.js';
import { ERROR_MESSAGE_FIELDS, errorMessageOfText } from '../src/spec/index.js';

type Row = Record<string, unknown>;

const COLUMNS = [
  { column_name: 'Name', column_type: 'text' },
  { column_name: 'N', column_type: 'number' },
  { column_name: 'Note', column_type: 'text' },
];

/** Injection strings, each meant to widen a WHERE or end the statement if spliced into the SQL text. */
const INJECTIONS: { label: string; value: (table: string) => string }[] = [
  { label: 'a quote and an always-true OR', value: () => "x' OR '1'='1" },
  { label: 'a quote, a DROP TABLE statement and a comment', value: (t) => `'; DROP TABLE \`${t}\`; --` },
  { label: 'a backslash-escaped quote, an always-true OR and a comment', value: () => "\\' OR 1=1 -- " },
];

const PLAIN = [
  { Name: 'alpha', N: 10 },
  { Name: 'beta', N: 11 },
  { Name: 'gamma', N: 12 },
  { Name: 'x', N: 13 },
];

/** A table holding the plain rows and every injection string as a Name (N = 1, 2, …). */
async function injectionTable(target: Target, label: string): Promise<{ t: Scratch; rows: Row[] }> {
  const t = await scratchTable(target, label, COLUMNS);
  const rows: Row[] = [...PLAIN, ...INJECTIONS.map((inj, i) => ({ Name: inj.value(t.name), N: i + 1 }))];
  try {
    await appendAll(target, t, rows);
  } catch (e) {
    await t.drop();
    throw e;
  }
  return { t, rows };
}

function sql(target: Target, t: Scratch, q: string, parameters?: unknown[], expectStatuses?: number[]): Promise<Reply> {
  // release-form: sends parameters only when a caller gives them, and those ask needsRelease(state, 'sqlParameters').
  return target.gw(t.base, 'POST', 'sql/', {
    json: { sql: q, convert_keys: true, ...(parameters ? { parameters } : {}) },
    expect: expectStatuses,
  });
}

function results(r: Reply, what: string): Row[] {
  expectStatus(r, 200, what);
  const body = r.json<{ results?: unknown }>();
  expect(Array.isArray(body.results), `${what}: the answer has no "results" array: ${r.text.slice(0, 200)}`).toBe(true);
  return body.results as Row[];
}

const names = (rows: Row[]) => rows.map((r) => r.Name);

for (const inj of INJECTIONS) {
  test(
    ...clause(
      'SQL-1',
      `a parameter holding ${inj.label} is compared as data: WHERE Name = ? matches only the row holding it, and the table survives`,
      ev.spec('4.1, 9 (5.0)'),
    ),
    async ({ target, state }) => {
      needsRelease(state, 'sqlParameters', true, 'SQL parameters (5.0)');
      const { t, rows } = await injectionTable(target, 'inject');
      try {
        const value = inj.value(t.name);
        const found = results(
          await sql(target, t, `SELECT Name, N FROM \`${t.name}\` WHERE Name = ?`, [value]),
          `SELECT … WHERE Name = ? with ${JSON.stringify(value)}`,
        );
        expect
          .soft(
            names(found),
            `WHERE Name = ? with the parameter ${JSON.stringify(value)} must match exactly the one row holding that string`,
          )
          .toEqual([value]);
        const n = await countRows(target, t);
        expect
          .soft(
            n,
            `after the query the table holds ${n} rows, ${rows.length} were appended — the parameter must not have changed the table`,
          )
          .toBe(rows.length);
      } finally {
        await t.drop();
      }
    },
  );
}

test(
  ...clause(
    'SQL-1',
    'an injection string bound as an UPDATE parameter is stored as given, in the one row the WHERE parameter names',
    ev.spec('4.1, 9 (5.0)'),
  ),
  async ({ target, state }) => {
    needsRelease(state, 'sqlParameters', true, 'SQL parameters (5.0)');
    const { t, rows } = await injectionTable(target, 'inject_upd');
    try {
      const value = INJECTIONS[0]!.value(t.name);
      const u = await sql(target, t, `UPDATE \`${t.name}\` SET Note = ? WHERE Name = ?`, [value, 'alpha']);
      expectStatus(u, 200, `UPDATE … SET Note = ? WHERE Name = ? with ${JSON.stringify(value)}, "alpha"`);
      const noted = results(
        await sql(target, t, `SELECT Name, Note FROM \`${t.name}\` WHERE Note IS NOT NULL`),
        'SELECT the rows with a Note',
      );
      expect
        .soft(
          noted.map((r) => [r.Name, r.Note]),
          'after the UPDATE exactly the row "alpha" holds the parameter as its Note, character for character',
        )
        .toEqual([['alpha', value]]);
      expect.soft(await countRows(target, t), 'rows in the table after the UPDATE').toBe(rows.length);
    } finally {
      await t.drop();
    }
  },
);

test(
  ...clause(
    'SQL-1',
    'a numeric ? parameter is bound as a number: N = ? and N > ? select by value',
    ev.spec('4.1, 9 (5.0)'),
  ),
  async ({ target, state }) => {
    needsRelease(state, 'sqlParameters', true, 'SQL parameters (5.0)');
    const t = await scratchTable(target, 'param_num', COLUMNS);
    try {
      await appendAll(target, t, PLAIN);
      const eq = results(
        await sql(target, t, `SELECT Name FROM \`${t.name}\` WHERE N = ?`, [11]),
        'SELECT … WHERE N = ? with 11',
      );
      expect.soft(names(eq), 'WHERE N = ? with the number 11 must match the row "beta" (N = 11)').toEqual(['beta']);
      const gt = results(
        await sql(target, t, `SELECT Name FROM \`${t.name}\` WHERE N > ?`, [11]),
        'SELECT … WHERE N > ? with 11',
      );
      expect
        .soft([...names(gt)].sort(), 'WHERE N > ? with the number 11 must match "gamma" (12) and "x" (13)')
        .toEqual(['gamma', 'x']);
    } finally {
      await t.drop();
    }
  },
);

/** Filters a SQL list must refuse; each would otherwise tempt a server to answer unfiltered rows. */
const INVALID_FILTERS: { label: string; where: string }[] = [
  { label: 'an unknown column', where: "NoSuchColumn = 'alpha'" },
  { label: 'an incomplete comparison', where: 'Name =' },
  { label: 'a doubled operator', where: "Name = = 'alpha'" },
];

for (const f of INVALID_FILTERS) {
  test(
    ...clause(
      'SQL-2',
      `a SQL list whose WHERE has ${f.label} is refused with a 4xx and an error body`,
      ev.spec('9 (4.1)'),
    ),
    async ({ target, state }) => {
      needsRelease(state, 'sqlFilterValidation', true, 'filter validation for SQL list (4.1)');
      const t = await scratchTable(target, 'filter', COLUMNS);
      try {
        await appendAll(target, t, PLAIN);
        const q = `SELECT * FROM \`${t.name}\` WHERE ${f.where}`;
        const r = await sql(target, t, q, undefined, [400, 404, 422]);
        expect
          .soft(
            r.status >= 400 && r.status < 500,
            `${q} answered ${r.status}: ${r.text.slice(0, 200)} — an invalid filter must be refused (4xx), never answered with unfiltered rows`,
          )
          .toBe(true);
        expect
          .soft(
            errorMessageOfText(r.text),
            `${q}: the refusal carries no error message (${ERROR_MESSAGE_FIELDS.join(', ')}): ${r.text.slice(0, 200)}`,
          )
          .toBeTruthy();
      } finally {
        await t.drop();
      }
    },
  );
}

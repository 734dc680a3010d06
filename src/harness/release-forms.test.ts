/**
 * A check that calls an operation whose form changed between releases asks the release it
 * judges (src/spec/versioned-operations.ts). Every top-level block of the checks' sources
 * (suites/ and src/harness/) that shows such a call (the operation's `marks`) must consult the
 * release: name its behaviour switch (needsRelease, behaviour(state).x), call its form builder
 * (release-forms.ts), or say why it needs neither in a `release-form:` comment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  behaviourAt,
  compareVersions,
  EMULATED_VERSIONS,
  endpoint,
  RELEASES,
  VERSIONED_OPERATIONS,
  type Behaviour,
  type VersionedOperation,
} from '../spec/index.js';
import { archiveBody, sqlBody } from './release-forms.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The form builders of the request-side operations. */
const BUILDERS: Partial<Record<keyof Behaviour, readonly { name: string }[]>> = {
  archiveByViewName: [archiveBody],
  sqlParameters: [sqlBody],
};

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && e.name !== 'release-forms.ts') yield p;
  }
}

/** Top-level blocks: a new one starts at each line that starts with a name at column 0 (import, const, function, test, for …). */
export function blocks(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  text.split('\n').forEach((l, i) => {
    if (/^[A-Za-z]/.test(l) || !out.length) out.push({ line: i + 1, text: l });
    else out[out.length - 1]!.text += `\n${l}`;
  });
  return out;
}

const nameOf = (block: string) => /^(?:export )?(?:async )?(?:function\*? |const |let )(\w+)/.exec(block)?.[1];

/**
 * Where `text` shows a call of `op` without consulting the release: the blocks' first lines.
 * A block consults when it names the switch, calls a form builder, carries a `release-form:`
 * reason, calls a function of the file that consults, or is a function only consulting blocks call.
 */
export function unconsulted(text: string, op: VersionedOperation): number[] {
  const builders = BUILDERS[op.behaviour] ?? [];
  // Imports and evidence citations (`const X = ev.documented('… monthly_automation_limit_per_user …')`) name an operation without calling it.
  const all = blocks(text).filter(
    (b) => !/^import /.test(b.text) && !/^(?:export )?const \w+ = ev\.\w+\(/.test(b.text),
  );
  const ok = new Set(
    all.filter(
      (b) =>
        new RegExp(`\\b${op.behaviour}\\b`).test(b.text) ||
        builders.some((f) => b.text.includes(`${f.name}(`)) ||
        /release-form: \S/.test(b.text),
    ),
  );
  const calls = (b: { text: string }, name: string) =>
    b !== all.find((x) => nameOf(x.text) === name) && new RegExp(`\\b${name}\\(`).test(b.text);
  for (let grew = true; grew;) {
    grew = false;
    for (const b of all) {
      if (ok.has(b)) continue;
      const own = nameOf(b.text);
      const callers = own ? all.filter((x) => calls(x, own)) : [];
      const callsConsulting = [...ok].some((x) => {
        const n = nameOf(x.text);
        return !!n && calls(b, n);
      });
      if (callsConsulting || (callers.length && callers.every((x) => ok.has(x)))) {
        ok.add(b);
        grew = true;
      }
    }
  }
  return all.filter((b) => op.marks.test(b.text) && !ok.has(b)).map((b) => b.line);
}

const FILES = [...sources(join(ROOT, 'suites')), ...sources(join(ROOT, 'src', 'harness'))];

test('every versioned operation is a row of ENDPOINTS whose form the named release changed, within the emulated releases', () => {
  for (const op of VERSIONED_OPERATIONS) {
    for (const id of op.endpoints) expect(() => endpoint(id), id).not.toThrow();
    const r = RELEASES.find((x) => x.version === op.changed);
    expect(r && op.behaviour in r.changes, `${op.behaviour}: release ${op.changed} does not flip it`).toBe(true);
    expect(EMULATED_VERSIONS.includes(op.changed), `${op.changed} is emulated`).toBe(true);
    const before = EMULATED_VERSIONS.filter((v) => compareVersions(v, op.changed) < 0).at(-1)!;
    expect(behaviourAt(before)[op.behaviour], `${op.behaviour} at ${before} and ${op.changed}`).not.toEqual(
      behaviourAt(op.changed)[op.behaviour],
    );
  }
});

test('the form builders give each release its own form', () => {
  expect(archiveBody('5.3', 'T', { view: 'V', where: 'N > 1' })).toEqual({ table_name: 'T', where: 'N > 1' });
  expect(archiveBody('6.0', 'T', { view: 'V', where: 'N > 1' })).toEqual({ table_name: 'T', view_name: 'V' });
  expect(sqlBody('5.0', 'SELECT * FROM t WHERE a = ? AND b = ?', ['x', 2])).toEqual({
    sql: 'SELECT * FROM t WHERE a = ? AND b = ?',
    parameters: ['x', 2],
    convert_keys: true,
  });
  expect(sqlBody('4.4', 'SELECT * FROM t WHERE a = ? AND b = ?', ["it's", 2])).toEqual({
    sql: "SELECT * FROM t WHERE a = 'it''s' AND b = 2",
    convert_keys: true,
  });
  expect(() => sqlBody('4.4', 'SELECT ?', [])).toThrow(/more \?/);
});

test('every check that calls an operation whose form changed asks the release it judges', () => {
  const found: string[] = [];
  const bad: string[] = [];
  for (const file of FILES) {
    const text = readFileSync(file, 'utf8');
    for (const op of VERSIONED_OPERATIONS) {
      if (op.marks.test(text)) found.push(`${relative(ROOT, file)} ${op.behaviour}`);
      for (const line of unconsulted(text, op))
        bad.push(
          `${relative(ROOT, file)}:${line} calls ${op.endpoints.join('/')} (${op.what}) without asking the release: use behaviour(state).${op.behaviour}${BUILDERS[op.behaviour] ? ` or ${BUILDERS[op.behaviour]!.map((f) => f.name).join('/')}` : ''}`,
        );
    }
  }
  expect(bad).toEqual([]);
  // The scan sees the known callers (it is not looking at nothing).
  expect(found).toEqual(
    expect.arrayContaining([
      'suites/base-records.spec.ts archiveByViewName',
      'src/harness/answers/recipes-rows.ts archiveByViewName',
      'suites/sql.spec.ts sqlParameters',
      'suites/account.spec.ts teamLogFilters',
    ]),
  );
});

test('the scan flags a check that sends the newest form by hand, and passes one that asks', () => {
  const archive = VERSIONED_OPERATIONS.find((o) => o.behaviour === 'archiveByViewName')!;
  const byHand =
    "import x from 'y';\ntest('BASE-6 x', async ({ target }) => {\n  await target.gw(0, 'POST', 'archive-view/', { json: { table_name: 'T', view_name: 'V' } });\n});\n";
  expect(unconsulted(byHand, archive)).toEqual([2]);
  // An evidence citation names the operation without calling it; a call beside it is still seen.
  const cited = "const CITE = ev.documented('OA62 archiveView: archive-view/ takes view_name');\n";
  expect(unconsulted(cited, archive)).toEqual([]);
  expect(unconsulted(cited + byHand, archive)).toEqual([3]);
  expect(
    unconsulted(
      byHand.replace("{ table_name: 'T', view_name: 'V' }", "archiveBody(state.apiVersion, 'T', rows)"),
      archive,
    ),
  ).toEqual([]);
});

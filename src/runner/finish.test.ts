/**
 * Baselines that shrink and the one verdict, without a run: a results.json of a few checks,
 * `finish` applied with baselines of check and clause entries — each report it writes
 * (results.json, clauses.md, junit.xml) says what the exit code says; a stale entry fails the
 * run unless allowed; `--write-baseline` over an existing file only removes, unless
 * `--update-baseline`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { fakeResults } from '../../test/helpers/reports.js';
import { Results } from '../reports/results-schema.js';
import { finish } from './finish.js';
import { parseRunOptions, runDefaults } from './options.js';

const A = 'SHAPE-1 text column';
const B = 'SHAPE-1 number column';
const C = 'ROUTE-4 ping answers';

function runFinish(baseline: Record<string, string>, flags: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'finish-'));
  writeFileSync(
    join(dir, 'results.json'),
    JSON.stringify(
      fakeResults([
        ['SHAPE-1', A, 'fail'],
        ['SHAPE-1', B, 'fail'],
        ['ROUTE-4', C, 'pass'],
      ]),
    ),
  );
  const file = join(dir, 'baseline.json');
  writeFileSync(file, JSON.stringify({ expected_failures: baseline }));
  const o = parseRunOptions({
    ...runDefaults(),
    html: false,
    baseline: file,
    ...flags,
    ...(flags.writeBaseline === true ? { writeBaseline: file } : {}),
  });
  const err = process.stderr.write;
  let said = '';
  process.stderr.write = ((s: string) => {
    said += s;
    return true;
  }) as typeof process.stderr.write;
  try {
    const out = finish({
      o,
      reportDir: dir,
      workDir: dir,
      info: { startedAt: new Date().toISOString(), selected: ['SHAPE-1', 'ROUTE-4'] },
      interrupted: false,
      timings: [],
      phases: [],
    });
    const results = Results.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    return {
      ...out,
      results,
      said,
      file,
      md: readFileSync(join(dir, 'clauses.md'), 'utf8'),
      junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
    };
  } finally {
    process.stderr.write = err;
  }
}

const failures = (xml: string) => Number(/<testsuites [^>]*failures="(\d+)"/.exec(xml)?.[1]);

test('a clause entry forgives every failing check of its clause and says how many; the reports agree with exit 0', () => {
  const r = runFinish({ 'SHAPE-1': 'known' });
  expect(r.exitCode).toBe(0);
  expect(r.results.baseline?.entries).toEqual([{ entry: 'SHAPE-1', kind: 'clause', forgives: 2, status: 'known' }]);
  expect(r.said).toMatch(/clause entry SHAPE-1 forgives 2 failing check\(s\)/);
  expect(r.results.verdict?.exitCode).toBe(0);
  expect(r.md).toMatch(/^# Conformance: PASSED \(known failures only\) \(exit 0\)/);
  expect(failures(r.junit)).toBe(0);
  expect(r.junit.match(/<skipped message="baseline: clause entry SHAPE-1: known — fail: because"/g)).toHaveLength(2);
});

test('a check entry forgives that check only: the other is new, exit 1, JUnit counts one failure', () => {
  const r = runFinish({ [A]: 'known' });
  expect(r.exitCode).toBe(1);
  expect(r.results.baseline?.newChecks).toEqual([B]);
  expect(failures(r.junit)).toBe(1);
  expect(r.md).toMatch(/^# Conformance: FAILED \(exit 1\)/);
});

test('an entry that now passes is stale: exit 1 naming it, unless --allow-stale-baseline', () => {
  const stale = runFinish({ 'SHAPE-1': 'known', [C]: 'was broken' });
  expect(stale.exitCode).toBe(1);
  expect(stale.said).toMatch(
    /stale baseline entry: remove "ROUTE-4 ping answers" from .*baseline\.json \(it passes now\)/,
  );
  expect(stale.results.verdict).toEqual({ exitCode: 1, text: 'FAILED (stale baseline entries)' });
  expect(failures(stale.junit)).toBe(1);
  expect(stale.junit).toMatch(/<failure type="stale-baseline"/);
  const allowed = runFinish({ 'SHAPE-1': 'known', [C]: 'was broken' }, { allowStaleBaseline: true });
  expect(allowed.exitCode).toBe(0);
  expect(allowed.said).toMatch(/stale baseline entry \(allowed\): remove "ROUTE-4 ping answers"/);
  expect(failures(allowed.junit)).toBe(0);
});

test('--write-baseline over an existing file only removes stale entries; --update-baseline adds the new failures', () => {
  const only = runFinish({ [A]: 'known', [C]: 'was broken' }, { writeBaseline: true });
  expect(JSON.parse(readFileSync(only.file, 'utf8')).expected_failures).toEqual({ [A]: 'known' });
  expect(only.said).toMatch(/1 new failure\(s\) not added \(SHAPE-1 number column\) — add them with --update-baseline/);
  const updated = runFinish({ [A]: 'known', [C]: 'was broken' }, { writeBaseline: true, updateBaseline: true });
  expect(JSON.parse(readFileSync(updated.file, 'utf8')).expected_failures).toEqual({
    [A]: 'known',
    [B]: 'fail: because',
  });
});

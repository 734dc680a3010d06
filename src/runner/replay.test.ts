/** `conformance replay`'s options: the report's own, narrowed to the checks that failed (or its whole selection with --all), the target as given. */
import { expect, test } from '@playwright/test';
import { fakeResults } from '../../test/helpers/reports.js';
import { replayRunOptions, type ReplayRequest } from './replay.js';

const report = () => {
  const r = fakeResults([
    ['SHAPE-1', 'SHAPE-1 text column "Name" (a|b)', 'fail'],
    ['ROUTE-4', 'ROUTE-4 ping', 'error'],
    ['ROUTE-4', 'ROUTE-4 other', 'pass'],
  ]);
  r.run.options = {
    targetFile: '/t/target.json',
    seed: 7,
    edition: 'cloud',
    apiVersion: '6.1',
    clauses: 'SHAPE-*,ROUTE-4',
    grep: 'x',
    workers: 1,
  };
  return r;
};
const req = (over: Partial<ReplayRequest> = {}): ReplayRequest => ({
  report: 'r',
  all: false,
  target: {},
  html: false,
  ...over,
});
const failed = (r: ReturnType<typeof report>) => r.tests.filter((t) => t.outcome !== 'pass');

test("exactly the failed and errored checks, with the report's seed, release, edition and options", () => {
  const r = report();
  const o = replayRunOptions(r, req(), failed(r));
  expect(o).toMatchObject({
    seed: 7,
    edition: 'cloud',
    apiVersion: '6.1',
    workers: 1,
    targetFile: '/t/target.json',
    clauses: 'SHAPE-1,ROUTE-4',
  });
  const grep = new RegExp(o.grep!);
  expect(grep.test('functional x.spec.ts SHAPE-1 text column "Name" (a|b)')).toBe(true);
  expect(grep.test('functional x.spec.ts ROUTE-4 ping')).toBe(true);
  expect(grep.test('functional x.spec.ts ROUTE-4 other')).toBe(false);
  expect(grep.test('functional x.spec.ts ROUTE-4 ping twice')).toBe(false);
});

test("--all keeps the report's selection; a target given replaces the report's; a target given by flags must be given again", () => {
  const r = report();
  expect(replayRunOptions(r, req({ all: true }), failed(r))).toMatchObject({ clauses: 'SHAPE-*,ROUTE-4', grep: 'x' });
  expect(replayRunOptions(r, req({ target: { targetFile: '/other.json' } }), failed(r)).targetFile).toBe('/other.json');
  r.run.options = { target: 'http://127.0.0.1:1', seed: 1 };
  expect(() => replayRunOptions(r, req(), failed(r))).toThrow(
    /credentials given as flags, which reports never keep: give --target-file/,
  );
});

/** Baselines across harness versions: renamed and split clauses are mapped, new ones named. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { clausesAddedSince, mapClause, type HarnessRelease } from '../spec/clause-history.js';
import { identity } from '../spec/identity.js';
import { readBaseline } from './baseline.js';

const now = identity().version;
const HISTORY: HarnessRelease[] = [
  { version: '0.0.9', added: ['OLD-1', 'SHAPE-3'], renamed: {} },
  { version: '0.1.0', added: ['SHAPE-1', 'SHAPE-2'], renamed: { 'OLD-1': ['SHAPE-1', 'SHAPE-2'] } },
  { version: now, added: ['ROUTE-8'], renamed: {} },
];

test("a clause split since the baseline's version maps to every clause that carries it; new clauses are named", () => {
  expect(mapClause('OLD-1', '0.0.9', now, HISTORY)).toEqual(['SHAPE-1', 'SHAPE-2']);
  expect(mapClause('SHAPE-3', '0.0.9', now, HISTORY)).toEqual(['SHAPE-3']);
  expect(clausesAddedSince('0.0.9', now, HISTORY)).toEqual(['ROUTE-8']);
  const file = join(mkdtempSync(join(tmpdir(), 'bl-')), 'b.json');
  writeFileSync(
    file,
    JSON.stringify({ harness_version: '0.0.9', expected_failures: { 'OLD-1': 'split since', 'SHAPE-3': 'kept' } }),
  );
  const b = readBaseline(file, HISTORY);
  expect(b.expected).toEqual({ 'SHAPE-1': 'split since', 'SHAPE-2': 'split since', 'SHAPE-3': 'kept' });
  expect(b.mapped).toEqual({ 'OLD-1': ['SHAPE-1', 'SHAPE-2'] });
});

test('a baseline naming an unknown clause, or written by a newer harness, is a usage error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bl-'));
  writeFileSync(join(dir, 'unknown.json'), JSON.stringify({ expected_failures: { 'NOPE-1': 'x' } }));
  expect(() => readBaseline(join(dir, 'unknown.json'))).toThrow(/NOPE-1: not a clause ID/);
  writeFileSync(join(dir, 'future.json'), JSON.stringify({ harness_version: '99.0.0', expected_failures: {} }));
  expect(() => readBaseline(join(dir, 'future.json'))).toThrow(/newer than this one/);
});

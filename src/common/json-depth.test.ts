/** JSON depth without recursion: texts (before parsing) and parsed values agree, strings do not count. */
import { expect, test } from '@playwright/test';
import { jsonTextDepth, jsonValueDepth } from './json-depth.js';

test('text and value depth agree on ordinary JSON', () => {
  const cases: [string, number][] = [
    ['1', 0],
    ['"[[["', 0],
    ['{}', 1],
    ['[]', 1],
    ['{"a":[1]}', 2],
    ['[[],[[{}]]]', 4],
    ['{"a":"]}]}","b":{"c":["\\"[["]}}', 3],
    ['["\\\\", [1], "\\\\\\"["]', 2],
  ];
  for (const [text, depth] of cases) {
    expect(jsonTextDepth(text), text).toBe(depth);
    expect(jsonValueDepth(JSON.parse(text)), text).toBe(depth);
  }
});

test('a text 1,000,000 levels deep is measured without overflowing the stack, and the scan stops early', () => {
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
  expect(jsonTextDepth(deep)).toBe(1_000_000);
  expect(jsonTextDepth(deep, 64)).toBe(65);
  let v: unknown = 1;
  for (let i = 0; i < 100_000; i++) v = [v];
  expect(jsonValueDepth(v)).toBe(100_000);
  expect(jsonValueDepth(v, 64)).toBe(65);
});

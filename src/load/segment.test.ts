/**
 * k6's execution-segment arithmetic (lib/execution_segment.go). Expected values are worked
 * out by hand from k6's striping algorithm and match the tables in its source's comments.
 */
import { test, expect } from '@playwright/test';
import { executionTuple, globalIndex, parseSegment, segmentString } from './engine/segment.js';

const THIRDS = '0,1/3,2/3,1';
const tuples = (seq: string) => {
  const p = seq.split(',');
  return p.slice(1).map((to, i) => executionTuple(`${p[i]}:${to}`, seq));
};

test('segments parse as k6 parses them: fractions, decimals, whole percents, a lone end; bad ones are errors', () => {
  expect(segmentString(parseSegment('1/3:2/3'))).toBe('1/3:2/3');
  expect(segmentString(parseSegment('50%:75%'))).toBe('1/2:3/4');
  expect(segmentString(parseSegment('0.25'))).toBe('0:1/4');
  expect(segmentString(parseSegment(''))).toBe('0:1');
  expect(() => parseSegment('1/2:1/3')).toThrow(/must be less than its end/);
  expect(() => parseSegment('0:3/2')).toThrow(/can't be more than 1/);
  expect(() => parseSegment('x')).toThrow(/not a valid/);
  expect(() => executionTuple('1/4:1/2', THIRDS)).toThrow(/couldn't find segment 1\/4:1\/2/);
  expect(() => executionTuple('0:1/3', '0,1/3,1/2:1')).toThrow();
});

test('10 VUs over thirds: 4, 3, 3 — the first stripe takes the remainder (ScaleInt64)', () => {
  expect(tuples(THIRDS).map((t) => t.scale(10))).toEqual([4, 3, 3]);
  // The stripes: every third index, starting at 0, 1, 2 (LCD 3, offsets [3]).
  expect(tuples(THIRDS).map((t) => t.sequence.offsets[t.index])).toEqual([
    [0, 3],
    [1, 3],
    [2, 3],
  ]);
});

test("the unequal split of k6's comment (½, ¼, ¼): stripes 0 2 4 …, 1 5 9 …, 3 7 11 …, and its ScaleInt64 table", () => {
  const [a, b, c] = tuples('0,1/2,3/4,1');
  const first = (t: typeof a) => Array.from({ length: 6 }, (_, n) => globalIndex(t!.stripe(), n));
  expect(first(a)).toEqual([0, 2, 4, 6, 8, 10]);
  expect(first(b)).toEqual([1, 5, 9, 13, 17, 21]);
  expect(first(c)).toEqual([3, 7, 11, 15, 19, 23]);
  const row = (t: typeof a) => Array.from({ length: 12 }, (_, i) => t!.scale(i + 1));
  expect(row(a)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
  expect(row(b)).toEqual([0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]);
  expect(row(c)).toEqual([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3]);
});

test('the parts always sum to the whole, and the stripes partition every index exactly once', () => {
  for (const seq of [THIRDS, '0,1/2,3/4,1', '0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0,1/7,3/5,1']) {
    const ts = tuples(seq);
    for (let v = 0; v <= 200; v++)
      expect(
        ts.reduce((a, t) => a + t.scale(v), 0),
        `${seq} value ${v}`,
      ).toBe(v);
    const seen = new Map<number, number>();
    ts.forEach((t, i) => {
      for (let n = 0; n < t.scale(500); n++) seen.set(globalIndex(t.stripe(), n), i);
    });
    expect([...seen.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  }
});

test('re-segmented by a value (shared iterations, arrival rates): 240 iterations of 20 VUs over thirds are 84, 84, 72', () => {
  // 20 VUs split 7, 7, 6: the sequence is re-cut as 7/20, 7/20, 6/20, and the iterations follow it.
  const re = tuples(THIRDS).map((t) => t.resegment(20)!);
  expect(re.map((t) => t.share)).toEqual([0.35, 0.35, 0.3]);
  expect(re.map((t) => t.scale(240))).toEqual([84, 84, 72]);
  // A part that gets nothing of the value has no work (k6: HasWork false).
  expect(executionTuple('2/3:1', THIRDS).resegment(1)).toBeNull();
  expect(executionTuple('0:1/3', THIRDS).resegment(1)!.scale(7)).toBe(7);
});

test('no segment: the whole run, nothing scaled', () => {
  const t = executionTuple();
  expect(t.split).toBe(false);
  expect(t.scale(10)).toBe(10);
  expect(globalIndex(t.stripe(), 41)).toBe(41);
});

/**
 * Counting values before an HDR histogram gets them (bulk-record.ts) must leave the histogram
 * exactly as recording them one by one does: same counts, extremes, percentiles and encoding.
 */
import { test, expect } from '@playwright/test';
import { BulkRecorder } from './bulk-record.js';
import { histToBase64, newHistogram, TrendSink } from './sinks.js';
import { TimeSeries } from './timeseries.js';

/** Latency-like integers from 0 to past 2^31, with runs of zeros and repeats. */
function values(n: number, huge = true): number[] {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    out.push(r < 0.2 ? 0 : r < 0.25 && huge ? 2 ** 31 + Math.floor(rand() * 1e9) : Math.floor(Math.exp(rand() * 22)));
  }
  return out;
}

for (const [digits, huge] of [
  [3, true],
  [2, true],
  [3, false],
  [2, false],
] as const) {
  test(`a bulk-recorded histogram (${digits} digits${huge ? ', values past 2^31' : ''}) equals one recorded value by value`, () => {
    const one = newHistogram(digits);
    const bulk = new BulkRecorder(newHistogram(digits), digits);
    const list = values(20_000, huge);
    for (const [i, v] of list.entries()) {
      one.recordValue(v);
      bulk.record(v);
      if (i === 7_000) bulk.flush();
    }
    bulk.flush();
    const h = bulk.target;
    expect(h.totalCount).toBe(one.totalCount);
    for (const p of [0, 1, 25, 50, 90, 95, 99, 99.9, 100])
      expect(h.getValueAtPercentile(p)).toBe(one.getValueAtPercentile(p));
    expect(histToBase64(h)).toBe(histToBase64(one));
  });
}

test('a bulk recorder moved to another histogram hands its counts to the first one first', () => {
  const a = newHistogram(2),
    b = newHistogram(2);
  const r = new BulkRecorder(a, 2);
  r.record(150);
  r.retarget(b).record(300);
  r.flush();
  expect([a.totalCount, a.getValueAtPercentile(100)]).toEqual([1, 150]);
  const direct = newHistogram(2);
  direct.recordValue(300);
  expect([b.totalCount, b.getValueAtPercentile(100)]).toEqual([1, direct.getValueAtPercentile(100)]);
});

test("a trend's and a time series' histograms hold every value recorded before they are read", () => {
  const t = new TrendSink();
  for (let i = 1; i <= 20_000; i++) t.add(i / 10);
  expect(t.hist.totalCount).toBe(20_000);
  expect(t.p(50)).toBeCloseTo(1000, -1);
  const s = new TimeSeries(0);
  // More endpoints than histograms counted into at once, over two buckets.
  for (let i = 0; i < 200; i++) s.request(i < 100 ? 10 : 150, 1 + i, 200, false, 'k', `n${i}`);
  const b = [...s.buckets.values()];
  expect(b.map((x) => x.dur.totalCount)).toEqual([100, 100]);
  expect(b.flatMap((x) => Object.values(x.byName).map((n) => n.dur.totalCount))).toEqual(Array(200).fill(1));
  expect(s.toJSON()[1]!.dur).toBe(histToBase64(b[1]!.dur));
});

/** The capacity rule: a rate counts only when all its seconds, and all lower rates, held. */
import { test, expect } from '@playwright/test';
import { TimeSeries } from './metrics/timeseries.js';
import { capacity } from './report/capacity.js';

function series(rows: [offered: number, failed: number, dropped: number, ms: number][]): TimeSeries {
  const s = new TimeSeries(0, 1000);
  rows.forEach(([offered, failed, dropped, ms], i) => {
    s.offered(i, offered);
    for (let k = 0; k < 20; k++) s.request(i * 1000 + k, ms, failed > k ? 500 : 200, failed > k, 'k', 'get');
    s.dropped(i * 1000, dropped);
  });
  return s;
}

test('a plateau with one bad second is not sustained; later recoveries do not count', () => {
  const c = capacity(
    series([
      [10, 0, 0, 5],
      [10, 0, 0, 5],
      [20, 0, 0, 5],
      [20, 0, 3, 5],
      [30, 0, 0, 5],
      [5, 0, 0, 5],
    ]),
    500,
  )!;
  expect(c.sustainedRate).toBe(10);
  expect(c.limitedBy).toContain('3 dropped iterations at 20.0 it/s');
  expect(c.peakOfferedRate).toBe(30);
});

test('p95 over the budget or a failed request ends the climb; with none, every rate is sustained', () => {
  expect(
    capacity(
      series([
        [10, 0, 0, 5],
        [20, 0, 0, 900],
      ]),
      500,
    )!.sustainedRate,
  ).toBe(10);
  expect(
    capacity(
      series([
        [10, 0, 0, 5],
        [20, 1, 0, 5],
      ]),
      500,
    )!.limitedBy,
  ).toContain('1 failed requests');
  const ok = capacity(
    series([
      [10, 0, 0, 5],
      [20, 0, 0, 5],
    ]),
    500,
  )!;
  expect(ok).toMatchObject({
    sustainedRate: 20,
    droppedAtSustained: 0,
    limitedBy: 'not reached: every offered rate was sustained',
  });
  expect(capacity(new TimeSeries(0), 500)).toBeUndefined();
});

test('with plateaus, a clean one-second climb between them is judged but is not the figure: it was never held', () => {
  const c = capacity(
    series([
      [10, 0, 0, 5],
      [10, 0, 0, 5],
      [15, 0, 0, 5],
      [20, 0, 0, 5],
      [20, 0, 2, 5],
    ]),
    500,
  )!;
  expect(c.sustainedRate).toBe(10);
  expect(c.limitedBy).toContain('2 dropped iterations at 20.0 it/s');
  // A climb second that fails still ends the climb.
  expect(
    capacity(
      series([
        [10, 0, 0, 5],
        [10, 0, 0, 5],
        [15, 1, 0, 5],
        [20, 0, 0, 5],
        [20, 0, 0, 5],
      ]),
      500,
    )!.limitedBy,
  ).toContain('1 failed requests at 15.0');
  // A continuous ramp (no rate offered twice) is judged second by second.
  expect(
    capacity(
      series([
        [10, 0, 0, 5],
        [15, 0, 0, 5],
        [20, 0, 0, 900],
      ]),
      500,
    )!.sustainedRate,
  ).toBe(15);
});

test('a climb ended while the generator was saturated says so: the figure measures the generator, not the target', () => {
  const s = series([
    [10, 0, 0, 5],
    [10, 0, 0, 5],
    [20, 0, 0, 5],
    [20, 0, 4, 5],
  ]);
  s.health(3000, { cpu: 48, elu: 0.97, lag: 35 });
  const c = capacity(s, 500)!;
  expect(c.bottleneck).toBe('generator');
  expect(c.limitedBy).toMatch(
    /^the generator, not the target: the generator was saturated \(busiest VU thread busy 97 %.*\) when 4 dropped iterations at 20\.0 it\/s/,
  );
  // The same drops with an idle generator: the target (or its answers) ended the climb.
  const t = series([
    [10, 0, 0, 5],
    [10, 0, 0, 5],
    [20, 0, 0, 5],
    [20, 0, 4, 5],
  ]);
  t.health(3000, { cpu: 20, elu: 0.3, lag: 4 });
  expect(capacity(t, 500)!.bottleneck).toBe('target');
});

/** The capacity search's rule and bounds on a simulated target, and each step's verdict from a series. */
import { test, expect } from '@playwright/test';
import { TimeSeries } from '../metrics/timeseries.js';
import type { SearchStep } from '../report/schema.js';
import { judgeStep, type Slo } from './judge.js';
import { CapacitySearch, DEFAULT_BOUNDS, type SearchBounds } from './search.js';

const SLO: Slo = { p95Ms: 100, errorPct: 1 };

/** A step of `seconds` at `rate`: requests taking `ms`, `failed` of them 500, `s429` of them 429, with drops and generator health. */
function step(
  rate: number,
  o: { ms?: number; failed?: number; s429?: number; dropped?: number; elu?: number; seconds?: number } = {},
): TimeSeries {
  const s = new TimeSeries(0);
  const n = Math.round(rate * (o.seconds ?? 1));
  for (let k = 0; k < n; k++) {
    const t = (k * 1000) / rate;
    const status = k < (o.s429 ?? 0) ? 429 : k < (o.s429 ?? 0) + (o.failed ?? 0) ? 500 : 200;
    s.request(t, o.ms ?? 10, status, status !== 200, 'k', 'get');
    s.iteration(t);
  }
  if (o.dropped) s.dropped(500, o.dropped);
  for (let t = 0; t < 1000; t += 100) s.health(t, { cpu: 20, elu: o.elu ?? 0.2, lag: 3 });
  return s;
}

/** Search a simulated target that holds up to `capacity` it/s (latency past it), on a fake clock: each step costs `stepMs`. */
function simulate(
  capacity: number,
  bounds: Partial<SearchBounds> = {},
  stepMs = 2000,
  verdict?: (rate: number) => SearchStep,
) {
  let now = 0;
  const s = new CapacitySearch({ ...DEFAULT_BOUNDS, stepSeconds: 1, ...bounds }, SLO, 1, () => now);
  const tried: number[] = [];
  for (let rate = s.next(), n = 0; rate !== undefined && n < 100; rate = s.next(), n++) {
    tried.push(rate);
    now += stepMs;
    s.record(
      verdict
        ? verdict(rate)
        : judgeStep(
            step(rate, { ms: rate <= capacity ? 10 : 400 }),
            { rate, seconds: 1, atMs: now, durationMs: stepMs },
            SLO,
          ),
      stepMs,
    );
  }
  return { result: s.result(), tried, elapsed: now };
}

test('the search doubles until the SLO breaks, then bisects to within its precision: a known capacity is found within ±10 %', () => {
  for (const capacity of [37, 137, 640]) {
    const { result, tried } = simulate(capacity);
    expect(result.stoppedBy).toBe('converged');
    expect(Math.abs(result.figure - capacity) / capacity).toBeLessThanOrEqual(0.1);
    expect(result.brokeAt).toBeGreaterThan(capacity);
    expect(result.cause).toBe('latency');
    expect(result.why).toMatch(
      new RegExp(
        `^${result.figure} it/s sustained \\(p95 ≤ 100 ms, failed requests ≤ 1 %\\); broke at ${result.brokeAt} it/s: p95 40\\d(\\.\\d+)? ms over the SLO's 100 ms`,
      ),
    );
    expect(tried.slice(0, 3)).toEqual([10, 20, 40]);
    expect(tried.length).toBeLessThan(16);
  }
});

test('--max-rate: never offered above it; held there, the figure says it was not reached', () => {
  const { result, tried } = simulate(5000, { maxRate: 300 });
  expect(Math.max(...tried)).toBe(300);
  expect(result).toMatchObject({ figure: 300, brokeAt: null, stoppedBy: 'max-rate' });
  expect(result.why).toContain('not reached: --max-rate 300 it/s was sustained');
});

test('--max-duration: no step starts that could end past it, and the search says where it stopped', () => {
  const { result, elapsed } = simulate(100_000, { maxDurationMs: 9000 }, 2000);
  expect(elapsed).toBeLessThanOrEqual(9000);
  expect(result.stoppedBy).toBe('max-duration');
  expect(result.steps.length).toBe(4);
  expect(result.why).toContain('stopped at --max-duration 9 s, still climbing');
  // A step that took longer than planned (engine start-up) makes the search expect as much of the next.
  const slow = simulate(100_000, { maxDurationMs: 9000 }, 3500);
  expect(slow.elapsed).toBeLessThanOrEqual(9000);
  expect(slow.result.steps.length).toBe(2);
  // And the count bound.
  expect(simulate(100_000, { maxSteps: 3, maxRate: 100_000 }).result).toMatchObject({
    stoppedBy: 'max-steps',
    figure: 40,
  });
});

test('each step names what broke: latency (or VUs all waiting on the target), failed requests, 429s, or a saturated generator', () => {
  const at = { rate: 50, seconds: 1, atMs: 0, durationMs: 1000 };
  expect(judgeStep(step(50), at, SLO)).toMatchObject({ ok: true, cause: null });
  const slow = judgeStep(step(50, { ms: 250 }), at, SLO);
  expect(slow).toMatchObject({ ok: false, cause: 'latency' });
  expect(slow.why).toMatch(/^p95 25\d(\.\d+)? ms over the SLO's 100 ms at 50 it\/s$/);
  expect(judgeStep(step(50, { failed: 5 }), at, SLO)).toMatchObject({
    ok: false,
    cause: 'errors',
    errorPct: 10,
    why: '10 % of requests failed at 50 it/s (SLO: at most 1 %)',
  });
  const limited = judgeStep(step(50, { s429: 10 }), at, SLO);
  expect(limited).toMatchObject({ ok: false, cause: '429', errorPct: 0, share429Pct: 20 });
  expect(limited.why).toContain('its rate limit, not its capacity');
  const gen = judgeStep(step(50, { ms: 250, elu: 0.97 }), at, SLO);
  expect(gen).toMatchObject({ ok: false, cause: 'generator' });
  expect(gen.why).toMatch(
    /^the generator was the bottleneck: use more instances \(saturated in 100 % of the step: busiest VU thread busy up to 97 %/,
  );
  expect(judgeStep(step(50, { dropped: 10 }), at, SLO)).toMatchObject({
    ok: false,
    cause: 'latency',
    why: "10 of 50 iterations at 50 it/s could not be started: every VU (sized for the SLO's latency) was waiting on the target",
  });
  expect(judgeStep(step(50, { dropped: 10, elu: 0.95 }), at, SLO).cause).toBe('generator');
  // One dropped iteration is within the tolerance; a saturated generator whose target held ends the climb, figure kept.
  expect(judgeStep(step(50, { dropped: 1 }), at, SLO).ok).toBe(true);
  const { result } = simulate(0, {}, 1000, (rate) =>
    judgeStep(step(rate, { elu: rate >= 40 ? 0.95 : 0.2 }), { ...at, rate }, SLO),
  );
  expect(result).toMatchObject({ figure: 40, brokeAt: null, stoppedBy: 'generator', cause: 'generator' });
  expect(result.why).toContain(
    'the generator was the bottleneck: use more instances (it was saturated at 40 it/s while the target still held)',
  );
  // A step broken with the generator saturated ends the search there: the figure is the last rate that held.
  const broken = simulate(0, {}, 1000, (rate) =>
    judgeStep(step(rate, { ms: rate >= 40 ? 300 : 10, elu: rate >= 40 ? 0.95 : 0.2 }), { ...at, rate }, SLO),
  ).result;
  expect(broken).toMatchObject({ figure: 20, brokeAt: 40, stoppedBy: 'generator', cause: 'generator' });
});

test('a target that holds nothing: bisected down to 1 it/s, figure 0', () => {
  const { result } = simulate(0);
  expect(result).toMatchObject({ figure: 0, stoppedBy: 'minimum-rate' });
  expect(result.why).toMatch(/^no rate was sustained/);
});

test('the break that would end the climb is tried again first: a cold first step does not halve the figure', () => {
  let n = 0;
  const at = { seconds: 1, atMs: 0, durationMs: 1000 };
  const { result, tried } = simulate(0, {}, 1000, (rate) =>
    judgeStep(step(rate, { ms: n++ === 0 || rate > 150 ? 400 : 10 }), { ...at, rate }, SLO),
  );
  expect(tried.slice(0, 3)).toEqual([10, 10, 20]);
  expect(result.steps[0]!.why).toContain('tried again before it ends the climb');
  expect(Math.abs(result.figure - 150) / 150).toBeLessThanOrEqual(0.1);
  // A break seen twice is trusted: the climb ends at the first rate that broke again.
  expect(tried.filter((r) => r === 160)).toHaveLength(2);
});

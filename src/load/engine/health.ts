/**
 * The generator's own health while it runs, so a report can tell a saturated generator from
 * a saturated target: every 100 ms, the process's CPU (as a share of the machine's cores),
 * the busiest VU thread's event-loop utilisation (read from the main thread, no message
 * needed) and the main thread's event-loop delay (it keeps the arrival-rate clocks).
 */
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay, type EventLoopUtilization } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import type { TimeSeries } from '../metrics/timeseries.js';

const EVERY_MS = 100;

export class HealthSampler {
  private readonly timer: NodeJS.Timeout;
  private readonly delay = monitorEventLoopDelay({ resolution: 10 });
  private readonly last = new Map<Worker, EventLoopUtilization>();
  private cpu = process.cpuUsage();
  private at = performance.now();
  /** A second series that also gets the samples: the current step's, in a stepped run. */
  step: TimeSeries | undefined;

  constructor(
    private readonly series: TimeSeries,
    private readonly threads: () => Iterable<Worker>,
  ) {
    this.delay.enable();
    this.timer = setInterval(() => this.sample(), EVERY_MS);
    this.timer.unref();
  }

  private sample(): void {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const used = (cpu.user - this.cpu.user + cpu.system - this.cpu.system) / 1000;
    const share = (used / Math.max(1, now - this.at) / availableParallelism()) * 100;
    this.cpu = cpu;
    this.at = now;
    let elu = 0;
    for (const w of this.threads()) {
      const u = w.performance.eventLoopUtilization();
      const prev = this.last.get(w);
      if (prev) elu = Math.max(elu, w.performance.eventLoopUtilization(u, prev).utilization);
      this.last.set(w, u);
    }
    const lag = Number.isFinite(this.delay.max) ? this.delay.max / 1e6 : 0;
    this.delay.reset();
    const h = { cpu: Math.round(share * 10) / 10, elu: Math.round(elu * 1000) / 1000, lag: Math.round(lag * 10) / 10 };
    this.series.health(Date.now(), h);
    this.step?.health(Date.now(), h);
  }

  stop(): void {
    clearInterval(this.timer);
    this.delay.disable();
  }
}

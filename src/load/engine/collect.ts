/**
 * Where samples land: the registry (for thresholds and the summary) and the time series (for
 * the capacity report). HTTP samples are built here from a finished request with k6's system
 * tags and the expected_response / http_req_failed semantics of setResponseCallback.
 */
import type { Registry } from '../metrics/registry.js';
import type { TimeSeries } from '../metrics/timeseries.js';
import type { DeclaredMetric, HttpRequestSpec, Sample } from '../runtime/protocol.js';
import type { Measured } from './io.js';
import type { CheckTally } from '../metrics/summary.js';

/** setup() and teardown() samples: in the metrics, as in k6, but not in the load's time series. */
export const isLifecycle = (tags: Readonly<Record<string, string>>) => tags.group === '::setup' || tags.group === '::teardown';

export class Collector {
  /** Checks by group and name, for the summary's root_group (as k6 reports them). */
  readonly checks = new Map<string, CheckTally>();
  constructor(readonly reg: Registry, readonly series: TimeSeries) {}

  declare(list: readonly DeclaredMetric[] | undefined): void {
    for (const m of list ?? []) this.reg.declare(m.name, m.type, m.isTime ? 'time' : 'default');
  }

  samples(list: readonly Sample[]): void {
    for (let i = 0; i < list.length; i++) {
      const [name, value, tags, time] = list[i]!;
      this.reg.add(name, value, tags, undefined, time);
      if (name === 'iterations') this.series.iteration(time);
      else if (name === 'checks') {
        const key = `${tags.group ?? ''}\u0000${tags.check ?? ''}`;
        let c = this.checks.get(key);
        if (!c) this.checks.set(key, (c = { group: tags.group ?? '', name: tags.check ?? '', passes: 0, fails: 0 }));
        if (value) c.passes++; else c.fails++;
      }
    }
  }

  http(spec: HttpRequestSpec, m: Measured, time: number): void {
    const r = m.result;
    const tags: Record<string, string> = {
      ...spec.tags,
      method: spec.method,
      url: spec.url,
      name: spec.tags.name ?? spec.url,
      status: String(r.status),
      proto: r.proto,
    };
    let failed = false;
    if (spec.expected) {
      const ok = spec.expected.some(([lo, hi]) => r.status >= lo && r.status <= hi);
      failed = !ok;
      tags.expected_response = ok ? 'true' : 'false';
    }
    if (r.error_code) { tags.error = r.error; tags.error_code = String(r.error_code); }
    const t = r.timings;
    const reg = this.reg;
    reg.add('http_reqs', 1, tags, undefined, time);
    reg.add('http_req_duration', t.duration, tags, undefined, time);
    reg.add('http_req_blocked', t.blocked, tags, undefined, time);
    reg.add('http_req_connecting', t.connecting, tags, undefined, time);
    reg.add('http_req_tls_handshaking', t.tls_handshaking, tags, undefined, time);
    reg.add('http_req_sending', t.sending, tags, undefined, time);
    reg.add('http_req_waiting', t.waiting, tags, undefined, time);
    reg.add('http_req_receiving', t.receiving, tags, undefined, time);
    if (spec.expected) reg.add('http_req_failed', failed ? 1 : 0, tags, undefined, time);
    reg.add('data_sent', m.bytesSent, tags, undefined, time);
    reg.add('data_received', m.bytesReceived, tags, undefined, time);
    if (!isLifecycle(spec.tags)) this.series.request(time, t.duration, r.status, failed || r.status === 0, spec.tags.key ?? '(untagged)');
  }

  dropped(scenario: string, time: number): void {
    this.reg.add('dropped_iterations', 1, { scenario }, undefined, time);
    this.series.dropped(time);
  }

  vus(active: number, max: number, time: number): void {
    this.reg.add('vus', active, {}, undefined, time);
    this.reg.add('vus_max', max, {}, undefined, time);
    this.series.vus(time, active);
  }
}

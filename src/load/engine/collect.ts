/**
 * Where samples land: the registry (for thresholds and the summary) and the time series (for
 * the capacity report). VUs send their samples in columnar batches (runtime/samples.ts); for
 * each VU's metric and tag set the sinks a sample feeds — the metric's and every matching
 * submetric's — are worked out once and reused until the registry changes.
 */
import type { Registry, Tags } from '../metrics/registry.js';
import type { Sink } from '../metrics/sinks.js';
import type { TimeSeries } from '../metrics/timeseries.js';
import {
  RECORD_UNITS,
  REQUEST_METRICS,
  SAMPLE_RECORD,
  type DeclaredMetric,
  type SampleBatch,
} from '../runtime/protocol.js';
import { FLAG_SHIFT, TAG_SHIFT } from '../runtime/samples.js';
import type { CheckTally } from '../metrics/summary.js';
import type { JsonOut } from './json-out.js';

/** setup() and teardown() samples: in the metrics, as in k6, but not in the load's time series. */
export const isLifecycle = (tags: Readonly<Record<string, string>>) =>
  tags.group === '::setup' || tags.group === '::teardown';

const FAILED = REQUEST_METRICS.indexOf('http_req_failed');

/** What one (metric, tag set) pair feeds. */
interface Route {
  sinks: Sink[];
  iteration: boolean;
  check: CheckTally | undefined;
  /** For request samples: the time series' view of the tags, or null for setup/teardown. */
  request: { status: number; failed: boolean; key: string; name: string } | null;
  /** The sample's k6 JSON line up to its time (`--out json`), or ''. */
  json: string;
}

interface Dictionary {
  names: string[];
  /** The numbers of REQUEST_METRICS among `names` (found at the first request record). */
  requestMetrics: number[] | undefined;
  tags: Tags[];
  routes: (Route | undefined)[][];
  version: number;
}

export class Collector {
  /** Checks by group and name, for the summary's root_group (as k6 reports them). */
  readonly checks = new Map<string, CheckTally>();
  private readonly dicts = new Map<number, Dictionary>();
  /** k6's `--out json`, when asked for. */
  out: JsonOut | undefined;
  /** A second series that also gets the samples: the current step's, in a stepped run. */
  step: TimeSeries | undefined;
  constructor(
    readonly reg: Registry,
    readonly series: TimeSeries,
  ) {}

  declare(list: readonly DeclaredMetric[] | undefined): void {
    for (const m of list ?? []) this.reg.declare(m.name, m.type, m.isTime ? 'time' : 'default');
  }

  batch(vu: number, b: SampleBatch | null): void {
    if (!b) return;
    let d = this.dicts.get(vu);
    if (!d)
      this.dicts.set(
        vu,
        (d = { names: [], tags: [], routes: [], version: this.reg.version, requestMetrics: undefined }),
      );
    if (b.reset) {
      d.tags = [];
      d.routes = [];
    }
    for (const n of b.names) d.names.push(n);
    for (const t of b.tags) d.tags.push(t);
    if (d.version !== this.reg.version) {
      d.routes = [];
      d.version = this.reg.version;
    }
    const data = b.data;
    for (let i = 0; i < data.length;) {
      const key = data[i]!;
      const flags = Math.floor(key / FLAG_SHIFT);
      const metric = Math.floor((key - flags * FLAG_SHIFT) / TAG_SHIFT);
      const tags = key - flags * FLAG_SHIFT - metric * TAG_SHIFT;
      if (flags & SAMPLE_RECORD) {
        this.record(d, tags, data, i);
        i += RECORD_UNITS * 3;
      } else {
        this.feed(d, metric, tags, data[i + 1]!, data[i + 2]!, false);
        i += 3;
      }
    }
  }

  /** A request record (runtime/samples.ts pushRequest): its samples in k6's order; the duration counts the request in the series. */
  private record(d: Dictionary, tags: number, data: Float64Array, i: number): void {
    const ids = (d.requestMetrics ??= REQUEST_METRICS.map((m) => d.names.indexOf(m)));
    const time = data[i + 1]!;
    this.feed(d, ids[0]!, tags, 1, time, false);
    this.feed(d, ids[1]!, tags, data[i + 2]!, time, true);
    for (let j = 2; j < ids.length; j++) {
      const v = data[i + j + 1]!;
      if (j !== FAILED || v >= 0) this.feed(d, ids[j]!, tags, v, time, false);
    }
  }

  /** One sample into its sinks, the checks, `--out json` and the time series (`request`: it is a request's duration). */
  private feed(d: Dictionary, metric: number, tags: number, value: number, time: number, request: boolean): void {
    const byTags = (d.routes[metric] ??= []);
    const route = (byTags[tags] ??= this.route(d.names[metric]!, d.tags[tags]!));
    for (let s = 0; s < route.sinks.length; s++) {
      const sink = route.sinks[s]!;
      if (sink.type === 'gauge') sink.add(value, time);
      else sink.add(value);
    }
    if (route.json) this.out!.point(route.json, value, time);
    if (route.iteration) {
      this.series.iteration(time);
      this.step?.iteration(time);
    } else if (route.check) {
      if (value) route.check.passes++;
      else route.check.fails++;
    }
    if (request && route.request) {
      const r = route.request;
      this.series.request(time, value, r.status, r.failed || r.status === 0, r.key, r.name);
      this.step?.request(time, value, r.status, r.failed || r.status === 0, r.key, r.name);
    }
  }

  private route(name: string, tags: Tags): Route {
    let check: CheckTally | undefined;
    if (name === 'checks') {
      const key = `${tags.group ?? ''}\u0000${tags.check ?? ''}`;
      check = this.checks.get(key);
      if (!check)
        this.checks.set(key, (check = { group: tags.group ?? '', name: tags.check ?? '', passes: 0, fails: 0 }));
    }
    return {
      sinks: this.reg.sinksFor(name, tags),
      iteration: name === 'iterations',
      check,
      request: isLifecycle(tags)
        ? null
        : {
            status: Number(tags.status),
            failed: tags.expected_response === 'false',
            key: tags.key ?? '(untagged)',
            name: tags.name ?? tags.url ?? '',
          },
      json: this.out ? this.out.prefix(name, tags) : '',
    };
  }

  dropped(scenario: string, time: number, n = 1): void {
    this.reg.add('dropped_iterations', n, { scenario }, undefined, time);
    this.out?.sample('dropped_iterations', n, { scenario }, time);
    this.series.dropped(time, n);
    this.step?.dropped(time, n);
  }

  vus(active: number, max: number, time: number): void {
    this.reg.add('vus', active, {}, undefined, time);
    this.reg.add('vus_max', max, {}, undefined, time);
    this.out?.sample('vus', active, {}, time);
    this.out?.sample('vus_max', max, {}, time);
    this.series.vus(time, active);
    this.step?.vus(time, active);
  }
}

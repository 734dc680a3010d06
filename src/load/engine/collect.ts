/**
 * Where samples land: the registry (for thresholds and the summary) and the time series (for
 * the capacity report). VUs send their samples in columnar batches (runtime/samples.ts); for
 * each VU's metric and tag set the sinks a sample feeds — the metric's and every matching
 * submetric's — are worked out once and reused until the registry changes.
 */
import type { Registry, Tags } from '../metrics/registry.js';
import type { Sink } from '../metrics/sinks.js';
import type { TimeSeries } from '../metrics/timeseries.js';
import { SAMPLE_REQUEST, type DeclaredMetric, type SampleBatch } from '../runtime/protocol.js';
import { FLAG_SHIFT, TAG_SHIFT } from '../runtime/samples.js';
import type { CheckTally } from '../metrics/summary.js';
import type { JsonOut } from './json-out.js';

/** setup() and teardown() samples: in the metrics, as in k6, but not in the load's time series. */
export const isLifecycle = (tags: Readonly<Record<string, string>>) =>
  tags.group === '::setup' || tags.group === '::teardown';

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
    if (!d) this.dicts.set(vu, (d = { names: [], tags: [], routes: [], version: this.reg.version }));
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
    for (let i = 0; i < data.length; i += 3) {
      const key = data[i]!;
      const flags = Math.floor(key / FLAG_SHIFT);
      const metric = Math.floor((key - flags * FLAG_SHIFT) / TAG_SHIFT);
      const tags = key - flags * FLAG_SHIFT - metric * TAG_SHIFT;
      const byTags = (d.routes[metric] ??= []);
      const route = (byTags[tags] ??= this.route(d.names[metric]!, d.tags[tags]!));
      const value = data[i + 1]!,
        time = data[i + 2]!;
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
      if (flags & SAMPLE_REQUEST && route.request) {
        const r = route.request;
        this.series.request(time, value, r.status, r.failed || r.status === 0, r.key, r.name);
        this.step?.request(time, value, r.status, r.failed || r.status === 0, r.key, r.name);
      }
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

/**
 * The metric registry: k6's built-in and custom metrics, and the submetrics that thresholds
 * name (`http_req_duration{expected_response:true}`, `checks{clause:RATE-3}`). A sample
 * counts toward a submetric when every tag of the selector matches, as in k6.
 */
import { newSink, sinkFromJSON, type Contains, type MetricType, type Sink, type SinkJSON } from './sinks.js';

export type Tags = Readonly<Record<string, string>>;

interface Submetric {
  readonly name: string;
  readonly tags: Tags;
  readonly sink: Sink;
}

interface Metric {
  readonly name: string;
  readonly type: MetricType;
  readonly contains: Contains;
  readonly sink: Sink;
  readonly subs: Submetric[];
}

/** k6's built-in metrics (those this harness emits). */
const BUILTIN_METRICS: Readonly<Record<string, [MetricType, Contains]>> = {
  vus: ['gauge', 'default'],
  vus_max: ['gauge', 'default'],
  iterations: ['counter', 'default'],
  iteration_duration: ['trend', 'time'],
  dropped_iterations: ['counter', 'default'],
  data_received: ['counter', 'data'],
  data_sent: ['counter', 'data'],
  checks: ['rate', 'default'],
  group_duration: ['trend', 'time'],
  http_reqs: ['counter', 'default'],
  http_req_failed: ['rate', 'default'],
  http_req_duration: ['trend', 'time'],
  http_req_blocked: ['trend', 'time'],
  http_req_connecting: ['trend', 'time'],
  http_req_tls_handshaking: ['trend', 'time'],
  http_req_sending: ['trend', 'time'],
  http_req_waiting: ['trend', 'time'],
  http_req_receiving: ['trend', 'time'],
};

/** Parse `name{tag:value,other:"v"}` into the metric name and the selector's tags. */
export function parseSelector(sel: string): { name: string; tags: Record<string, string> } | { error: string } {
  const open = sel.indexOf('{');
  if (open < 0) return { name: sel.trim(), tags: {} };
  if (!sel.trimEnd().endsWith('}')) return { error: `missing "}" in ${sel}` };
  const name = sel.slice(0, open).trim();
  const tags: Record<string, string> = {};
  const body = sel.slice(open + 1, sel.trimEnd().length - 1);
  for (const part of body.split(',')) {
    if (!part.trim()) continue;
    const c = part.indexOf(':');
    if (c < 0) return { error: `tag "${part.trim()}" in ${sel} needs key:value` };
    tags[part.slice(0, c).trim()] = part
      .slice(c + 1)
      .trim()
      .replace(/^["'`](.*)["'`]$/, '$1');
  }
  return { name, tags };
}

const selectorName = (name: string, tags: Tags): string => {
  const keys = Object.keys(tags);
  return keys.length === 0 ? name : `${name}{${keys.map((k) => `${k}:${tags[k]}`).join(',')}}`;
};

export class Registry {
  readonly metrics = new Map<string, Metric>();
  /** Bumped when a metric or submetric is added, so callers caching sinksFor() know to ask again. */
  version = 0;

  declare(name: string, type: MetricType, contains: Contains = 'default'): Metric {
    const have = this.metrics.get(name);
    if (have) {
      if (have.type !== type) throw new Error(`metric ${name} is already a ${have.type}, not a ${type}`);
      return have;
    }
    const m: Metric = { name, type, contains, sink: newSink(type), subs: [] };
    this.metrics.set(name, m);
    this.version++;
    return m;
  }

  declareBuiltins(): void {
    for (const [n, [t, c]] of Object.entries(BUILTIN_METRICS)) this.declare(n, t, c);
    this.submetric('http_req_duration', { expected_response: 'true' });
  }

  /** A submetric of a declared metric; the same selector always yields the same sink. */
  submetric(name: string, tags: Tags): Submetric {
    const m = this.metrics.get(name);
    if (!m) throw new Error(`no metric name ${name} found`);
    const key = selectorName(name, tags);
    const have = m.subs.find((s) => s.name === key);
    if (have) return have;
    const sub: Submetric = { name: key, tags: { ...tags }, sink: newSink(m.type) };
    m.subs.push(sub);
    this.version++;
    return sub;
  }

  /** The sinks a sample of `name` with `tags` feeds: the metric's and its matching submetrics' (none if undeclared). */
  sinksFor(name: string, tags: Tags): Sink[] {
    const m = this.metrics.get(name);
    if (!m) return [];
    return [m.sink, ...m.subs.filter((s) => matches(s.tags, tags)).map((s) => s.sink)];
  }

  /** Record one sample. Unknown metrics are declared on first use with the given type. */
  add(name: string, value: number, tags: Tags, type?: MetricType, time?: number): void {
    let m = this.metrics.get(name);
    if (!m) {
      if (!type) return;
      m = this.declare(name, type);
    }
    addTo(m.sink, value, time);
    for (let i = 0; i < m.subs.length; i++) {
      const s = m.subs[i]!;
      if (matches(s.tags, tags)) addTo(s.sink, value, time);
    }
  }

  toJSON(): MetricJSON[] {
    return [...this.metrics.values()].map((m) => ({
      name: m.name,
      type: m.type,
      contains: m.contains,
      sink: m.sink.toJSON(),
      subs: m.subs.map((s) => ({ name: s.name, tags: { ...s.tags }, sink: s.sink.toJSON() })),
    }));
  }

  /** Add serialised metrics of another instance into this registry. */
  mergeJSON(list: readonly MetricJSON[]): void {
    for (const j of list) {
      const m = this.declare(j.name, j.type, j.contains);
      mergeSink(m.sink, sinkFromJSON(j.sink));
      for (const s of j.subs) mergeSink(this.submetric(j.name, s.tags).sink, sinkFromJSON(s.sink));
    }
  }
}

interface MetricJSON {
  name: string;
  type: MetricType;
  contains: Contains;
  sink: SinkJSON;
  subs: { name: string; tags: Record<string, string>; sink: SinkJSON }[];
}

function matches(want: Tags, have: Tags): boolean {
  for (const k in want) if (have[k] !== want[k]) return false;
  return true;
}

function addTo(sink: Sink, v: number, t?: number): void {
  if (sink.type === 'gauge') sink.add(v, t);
  else sink.add(v);
}

function mergeSink(into: Sink, from: Sink): void {
  // The types match: both come from the same declared metric.
  (into as { merge(o: Sink): void }).merge(from);
}

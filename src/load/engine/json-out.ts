/**
 * k6's `--out json=FILE` for the built-in runner: one `Metric` line when a metric is first
 * seen, then one `Point` line per sample, in the envelope k6 writes (internal/output/json),
 * so `conformance load merge` — and any tool that reads k6's JSON — takes the built-in
 * runner's output and stock k6's alike. Lines are joined per tag set once and written in
 * large chunks: the output costs the main thread a string concatenation per sample.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Contains, MetricType } from '../metrics/sinks.js';
import type { Registry, Tags } from '../metrics/registry.js';

const FLUSH_AT = 1 << 20;

export class JsonOut {
  private readonly fd: number;
  private buf = '';
  private readonly seen = new Set<string>();

  constructor(
    readonly file: string,
    private readonly reg: Registry,
  ) {
    this.fd = openSync(file, 'w');
  }

  /** The part of a Point line before its time, for a metric and tag set (callers cache it). */
  prefix(metric: string, tags: Tags): string {
    this.declare(metric);
    return `{"metric":${JSON.stringify(metric)},"type":"Point","data":{"tags":${JSON.stringify(tags)},"time":"`;
  }

  /** A sample, given its cached prefix. */
  point(prefix: string, value: number, time: number): void {
    this.buf += `${prefix}${new Date(time).toISOString()}","value":${Number.isFinite(value) ? value : 0}}}\n`;
    if (this.buf.length >= FLUSH_AT) this.flush();
  }

  /** A sample without a cached prefix (the few the main thread itself records). */
  sample(metric: string, value: number, tags: Tags, time: number): void {
    this.point(this.prefix(metric, tags), value, time);
  }

  private declare(metric: string): void {
    if (this.seen.has(metric)) return;
    this.seen.add(metric);
    const m = this.reg.metrics.get(metric);
    const type: MetricType = m?.type ?? 'counter';
    const contains: Contains = m?.contains ?? 'default';
    this.buf += `${JSON.stringify({ type: 'Metric', data: { name: metric, type, contains, thresholds: [], submetrics: null }, metric })}\n`;
  }

  flush(): void {
    if (this.buf) writeSync(this.fd, this.buf);
    this.buf = '';
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * The capacity report: one self-contained, offline HTML file. Chart.js's UMD build is inlined;
 * the data is the per-second series of results.json, with percentiles computed from each
 * second's histogram. Five charts: offered vs achieved rate, latency percentiles, 429 share
 * per key, errors, dropped iterations.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { histFromBase64 } from '../metrics/sinks.js';
import type { Results } from './schema.js';

const require = createRequire(import.meta.url);
let chartJs: string | undefined;
const chartSource = () => (chartJs ??= readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8').replace(/<\/script/gi, '<\\/script'));

export interface ChartData {
  labels: number[];
  offered: number[]; achieved: number[]; rps: number[];
  p50: (number | null)[]; p95: (number | null)[]; p99: (number | null)[];
  share429: Record<string, (number | null)[]>;
  failed: number[]; errors: number[]; dropped: number[]; vus: number[];
}

export function chartData(r: Results): ChartData {
  const perSec = 1000 / r.series.widthMs;
  const byT = new Map(r.series.buckets.map((b) => [b.t, b]));
  const last = Math.max(0, ...r.series.buckets.map((b) => b.t));
  const keys = [...new Set(r.series.buckets.flatMap((b) => Object.keys(b.byKey)))].sort();
  const d: ChartData = { labels: [], offered: [], achieved: [], rps: [], p50: [], p95: [], p99: [], share429: Object.fromEntries(keys.map((k) => [k, []])), failed: [], errors: [], dropped: [], vus: [] };
  for (let t = 0; t <= last; t++) {
    const b = byT.get(t);
    d.labels.push(t);
    d.offered.push(round((b?.offered ?? 0)));
    d.achieved.push(round((b?.iterations ?? 0) * perSec));
    d.rps.push(round((b?.reqs ?? 0) * perSec));
    const h = b && b.reqs > 0 ? histFromBase64(b.dur, 2) : undefined;
    d.p50.push(h ? round(h.getValueAtPercentile(50) / 1000) : null);
    d.p95.push(h ? round(h.getValueAtPercentile(95) / 1000) : null);
    d.p99.push(h ? round(h.getValueAtPercentile(99) / 1000) : null);
    for (const k of keys) { const c = b?.byKey[k]; d.share429[k]!.push(c && c.reqs > 0 ? round((c.s429 / c.reqs) * 100) : null); }
    d.failed.push(b?.failed ?? 0);
    d.errors.push(b?.errors ?? 0);
    d.dropped.push(b?.dropped ?? 0);
    d.vus.push(b?.vus ?? 0);
  }
  return d;
}

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
const round = (n: number) => Math.round(n * 100) / 100;

export function html(r: Results): string {
  const data = JSON.stringify(chartData(r)).replace(/</g, '\\u003c');
  const cap = r.capacity;
  const rows = r.thresholds.map((t) => `<tr class="${t.ok ? 'ok' : 'bad'}"><td>${t.ok ? '✓' : '✗'}</td><td>${esc(t.clauses.join(' '))}</td><td><code>${esc(t.selector)}</code></td><td><code>${esc(t.source)}</code></td><td>${t.measured}</td></tr>`).join('');
  const checks = r.checks.map((c) => `<tr class="${c.fails ? 'bad' : 'ok'}"><td>${esc(c.group || '(root)')}</td><td>${esc(c.name)}</td><td>${c.passes}</td><td>${c.fails}</td></tr>`).join('');
  const capHtml = cap
    ? `<p class="cap">Highest arrival rate sustained with p95 ≤ ${cap.p95BudgetMs} ms, no failed requests and no dropped iterations: <strong>${cap.sustainedRate} iterations/s</strong> (${cap.achievedRps} requests/s, p95 ${cap.p95AtSustainedMs} ms, ${cap.droppedAtSustained} dropped). Peak offered: ${cap.peakOfferedRate} it/s. Limited by: ${esc(cap.limitedBy)}.</p>`
    : '<p class="cap">No arrival-rate executor in this scenario: no capacity figure.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load report: ${esc(r.scenario)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:18px}
.chart{border:1px solid #ddd;border-radius:6px;padding:10px;height:300px;position:relative}
table{border-collapse:collapse;margin-top:8px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
tr.bad td{background:#fde8e8}tr.ok td:first-child{color:#176f2c}.cap{background:#f4f7ff;padding:10px;border-radius:6px}
code{font-size:12px}
</style></head><body>
<h1>Load report: ${esc(r.scenario)} <small>(${esc(r.engine)} engine, ${r.instances} instance${r.instances > 1 ? 's' : ''})</small></h1>
<p>Target ${esc(r.target.url)} (${esc(r.target.edition)}, API ${esc(r.target.api_version)}), started ${esc(r.startedAt)}, ${(r.durationMs / 1000).toFixed(1)} s, exit code ${r.exitCode}${r.aborted ? `, aborted: ${esc(r.aborted)}` : ''}. Clauses: ${esc(r.clauses.join(', '))}.</p>
<h2>Capacity</h2>${capHtml}
<div class="grid">
<div class="chart"><canvas id="rate" aria-label="offered vs achieved rate"></canvas></div>
<div class="chart"><canvas id="latency" aria-label="latency percentiles"></canvas></div>
<div class="chart"><canvas id="share429" aria-label="429 share per key"></canvas></div>
<div class="chart"><canvas id="errors" aria-label="errors"></canvas></div>
<div class="chart"><canvas id="dropped" aria-label="dropped iterations"></canvas></div>
</div>
<h2>Thresholds</h2><table><tr><th></th><th>clause</th><th>metric</th><th>threshold</th><th>measured</th></tr>${rows}</table>
<h2>Checks</h2><table><tr><th>group</th><th>check</th><th>passes</th><th>fails</th></tr>${checks}</table>
${r.errors.length ? `<h2>Errors</h2><pre>${esc(r.errors.slice(0, 20).join('\n'))}</pre>` : ''}
<script>${chartSource()}</script>
<script id="data" type="application/json">${data}</script>
<script>
(function(){
  var d = JSON.parse(document.getElementById('data').textContent);
  var colors = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#17becf'];
  function ds(label, values, i, extra){ var o = {label: label, data: values, borderColor: colors[i % colors.length], backgroundColor: colors[i % colors.length] + '55', pointRadius: 0, borderWidth: 2, spanGaps: true}; for (var k in (extra||{})) o[k] = extra[k]; return o; }
  function chart(id, type, sets, y){
    return new Chart(document.getElementById(id), {type: type, data: {labels: d.labels, datasets: sets},
      options: {animation: false, responsive: true, maintainAspectRatio: false, interaction: {mode: 'index', intersect: false},
        plugins: {title: {display: true, text: y.title}}, scales: {x: {title: {display: true, text: 'second of the run'}}, y: {beginAtZero: true, title: {display: true, text: y.unit}}}}});
  }
  var keys = Object.keys(d.share429);
  var made = [
    chart('rate', 'line', [ds('offered (iterations/s)', d.offered, 0), ds('achieved (iterations/s)', d.achieved, 2), ds('requests/s', d.rps, 3)], {title: 'Offered vs achieved rate', unit: 'per second'}),
    chart('latency', 'line', [ds('p50', d.p50, 2), ds('p95', d.p95, 3), ds('p99', d.p99, 1)], {title: 'Latency percentiles (from merged histograms)', unit: 'ms'}),
    chart('share429', 'line', keys.map(function(k, i){ return ds(k, d.share429[k], i); }), {title: '429 share per key', unit: '% of requests'}),
    chart('errors', 'bar', [ds('failed requests', d.failed, 1), ds('transport errors', d.errors, 4)], {title: 'Errors', unit: 'per second'}),
    chart('dropped', 'bar', [ds('dropped iterations', d.dropped, 5)], {title: 'Dropped iterations', unit: 'per second'})
  ];
  window.__chartsRendered = made.length;
})();
</script>
</body></html>
`;
}

/**
 * The capacity report: one self-contained, offline HTML file. Chart.js's UMD build is inlined;
 * the data is results.json's series (chart-data.ts): offered vs achieved rate, latency
 * percentiles, p95 per endpoint, 429 share per key, errors, dropped iterations, the
 * generator's health — each drawn only when it has something to show, else one line why —
 * and a table of p50/p95/p99 per endpoint.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chartData } from './chart-data.js';
import type { Results } from './schema.js';
import { searchChart, searchSection } from './search-html.js';

const require = createRequire(import.meta.url);
let chartJs: string | undefined;
const chartSource = () =>
  (chartJs ??= readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8').replace(
    /<\/script/gi,
    '<\\/script',
  ));

/**
 * The start of a report page's chart code: Chart.js inline (the page fetches nothing), the
 * page's data as JSON, and an open function with `d` (that data) and `colors`; the caller
 * writes the charts and closes it with `})();</script>`.
 */
export const chartPrelude = (data: string): string => `<script>${chartSource()}</script>
<script id="data" type="application/json">${data}</script>
<script>
(function(){
  var d = JSON.parse(document.getElementById('data').textContent);
  var colors = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#17becf'];`;

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

export function html(r: Results): string {
  const cd = chartData(r);
  const data = JSON.stringify(cd).replace(/</g, '\\u003c');
  const eps = cd.endpoints
    .map(
      (e) =>
        `<tr><td><code>${esc(e.name)}</code></td><td>${e.reqs}</td><td>${e.p50}</td><td>${e.p95}</td><td>${e.p99}</td><td>${e.failed}</td><td>${e.s429}</td></tr>`,
    )
    .join('');
  const cap = r.capacity;
  const rows = r.thresholds
    .map(
      (t) =>
        `<tr class="${t.ok ? 'ok' : 'bad'}"><td>${t.ok ? '✓' : '✗'}</td><td>${esc(t.clauses.join(' '))}</td><td><code>${esc(t.selector)}</code></td><td><code>${esc(t.source)}</code></td><td>${t.measured}</td></tr>`,
    )
    .join('');
  const checks = r.checks
    .map(
      (c) =>
        `<tr class="${c.fails ? 'bad' : 'ok'}"><td>${esc(c.group || '(root)')}</td><td>${esc(c.name)}</td><td>${c.passes}</td><td>${c.fails}</td></tr>`,
    )
    .join('');
  const capHtml = cap
    ? `<p class="cap${cap.bottleneck === 'generator' ? ' gen' : ''}">Highest arrival rate sustained with p95 ≤ ${cap.p95BudgetMs} ms, no failed requests and no dropped iterations: <strong>${cap.sustainedRate} iterations/s</strong> (${cap.achievedRps} requests/s, p95 ${cap.p95AtSustainedMs} ms, ${cap.droppedAtSustained} dropped). Peak offered: ${cap.peakOfferedRate} it/s. Limited by: ${esc(cap.limitedBy)}.</p>`
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
.cap.gen{background:#fff4e0}.empty{color:#555;margin:6px 0}.health{color:#333}
code{font-size:12px}
</style></head><body>
<h1>Load report: ${esc(r.scenario)} <small>(${esc(r.engine)} engine, ${r.instances} instance${r.instances > 1 ? 's' : ''})</small></h1>
<p>Target ${esc(r.target.url)} (${esc(r.target.edition)}, API ${esc(r.target.api_version)}${r.target.tls ? `, ${esc(r.target.tls)}` : ''}), started ${esc(r.startedAt)}, ${(r.durationMs / 1000).toFixed(1)} s, exit code ${r.exitCode}${r.aborted ? `, aborted: ${esc(r.aborted)}` : ''}. Clauses: ${esc(r.clauses.join(', '))}. Charts in ${r.series.widthMs >= 1000 ? `${r.series.widthMs / 1000}-s` : `${r.series.widthMs}-ms`} steps.</p>
${r.search ? searchSection(r.search) : `<h2>Capacity</h2>${capHtml}`}
<p class="health">${esc(cd.health)}</p>
<div class="grid">
${cd.charts.map((c) => `<div class="chart"><canvas id="${c.id}" aria-label="${esc(c.title)}"></canvas></div>`).join('\n')}
</div>
${cd.empty.map((e) => `<p class="empty" id="${e.id}">${esc(e.title)}: ${esc(e.why)}</p>`).join('\n')}
<h2>Latency per endpoint</h2>${eps ? `<table><tr><th>endpoint</th><th>requests</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>failed</th><th>429</th></tr>${eps}</table>` : '<p class="empty">No endpoint was recorded.</p>'}
<h2>Thresholds</h2><table><tr><th></th><th>clause</th><th>metric</th><th>threshold</th><th>measured</th></tr>${rows}</table>
<h2>Checks</h2><table><tr><th>group</th><th>check</th><th>passes</th><th>fails</th></tr>${checks}</table>
${r.errors.length ? `<h2>Errors</h2><pre>${esc(r.errors.slice(0, 20).join('\n'))}</pre>` : ''}
${chartPrelude(data)}
  function ds(label, values, i, extra){ var o = {label: label, data: values, borderColor: colors[i % colors.length], backgroundColor: colors[i % colors.length] + '55', pointRadius: 0, borderWidth: 2, spanGaps: true}; for (var k in (extra||{})) o[k] = extra[k]; return o; }
  function chart(id, type, sets, y){
    return new Chart(document.getElementById(id), {type: type, data: {labels: d.labels, datasets: sets},
      options: {animation: false, responsive: true, maintainAspectRatio: false, interaction: {mode: 'index', intersect: false},
        plugins: {title: {display: true, text: y.title}}, scales: Object.assign({x: {title: {display: true, text: 'second of the run'}}, y: {beginAtZero: true, title: {display: true, text: y.unit}}},
          y.y1 ? {y1: {beginAtZero: true, position: 'right', grid: {drawOnChartArea: false}, title: {display: true, text: y.y1}}} : {})}});
  }
  var made = d.charts.map(function(c){
    var sets = c.sets.map(function(s, i){ return ds(s.label, s.data, i, s.axis ? {yAxisID: s.axis} : {}); });
    return chart(c.id, c.kind, sets, {title: c.title, unit: c.unit, y1: c.y1});
  });
  window.__chartsRendered = made.length;
  window.__chartsEmpty = d.empty.length;
})();
</script>
${r.search ? searchChart : ''}
</body></html>
`;
}

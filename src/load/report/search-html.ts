/**
 * The capacity search in the load report: the figure, the SLO, where it broke and why, the
 * steps in a table and in a chart (offered and achieved rate per step, p95 against the SLO).
 * Drawn by the page's Chart.js (html.ts inlines it), in its own closure.
 */
import type { Search } from './schema.js';

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

export function searchSection(s: Search): string {
  const rows = s.steps
    .map(
      (st, i) =>
        `<tr class="${st.ok ? 'ok' : 'bad'}"><td>${i + 1}</td><td>${st.rate}</td><td>${st.achievedRate}</td><td>${st.p95Ms}</td><td>${st.errorPct}</td><td>${st.share429Pct}</td><td>${st.dropped}</td><td>${st.ok ? 'held' : esc(st.cause ?? '')}</td><td>${esc(st.ok ? st.generator : st.why)}</td></tr>`,
    )
    .join('');
  return `<h2>Capacity search</h2>
<p class="cap${s.cause === 'generator' ? ' gen' : ''}" id="search-verdict">Capacity found: <strong>${s.figure} iterations/s</strong> within the SLO (p95 ≤ ${s.slo.p95Ms} ms, failed requests ≤ ${s.slo.errorPct} %).
${s.brokeAt !== null ? `It broke at <strong>${s.brokeAt} it/s</strong> (${esc(s.cause ?? '')}).` : 'No rate broke the SLO.'} ${esc(s.why)}. Search: ${s.steps.length} steps in ${(s.durationMs / 1000).toFixed(1)} s, ended by ${esc(s.stoppedBy)}
(bounds: from ${s.bounds.startRate} it/s, at most ${s.bounds.maxRate} it/s, ${s.bounds.maxDurationMs / 1000} s, ${s.bounds.maxSteps} steps of ${s.bounds.stepSeconds} s, precision ${s.bounds.precisionPct} %).</p>
<div class="chart"><canvas id="search" aria-label="The capacity search's steps"></canvas></div>
<table><tr><th>step</th><th>offered it/s</th><th>achieved it/s</th><th>p95 ms</th><th>failed %</th><th>429 %</th><th>dropped</th><th>verdict</th><th>why</th></tr>${rows}</table>
<script id="search-data" type="application/json">${JSON.stringify({ steps: s.steps.map((st) => ({ rate: st.rate, achieved: st.achievedRate, p95: st.p95Ms, ok: st.ok })), slo: s.slo.p95Ms }).replace(/</g, '\\u003c')}</script>`;
}

/** The search chart's code, run after Chart.js is loaded. */
export const searchChart = `<script>
(function(){
  var el = document.getElementById('search-data'); if (!el) return;
  var d = JSON.parse(el.textContent);
  var labels = d.steps.map(function(s, i){ return 'step ' + (i + 1); });
  var marks = d.steps.map(function(s){ return s.ok ? '#2ca02c' : '#d62728'; });
  new Chart(document.getElementById('search'), {type: 'line', data: {labels: labels, datasets: [
    {label: 'offered (it/s; green held, red broke)', data: d.steps.map(function(s){ return s.rate; }), borderColor: '#1f77b4', pointBackgroundColor: marks, pointBorderColor: marks, pointRadius: 6, showLine: true},
    {label: 'achieved (it/s)', data: d.steps.map(function(s){ return s.achieved; }), borderColor: '#17becf', pointRadius: 3},
    {label: 'p95 (ms)', data: d.steps.map(function(s){ return s.p95; }), borderColor: '#ff7f0e', pointRadius: 3, yAxisID: 'y1'},
    {label: 'SLO p95 (ms)', data: d.steps.map(function(){ return d.slo; }), borderColor: '#d62728', borderDash: [6, 4], pointRadius: 0, yAxisID: 'y1'}]},
    options: {animation: false, responsive: true, maintainAspectRatio: false, plugins: {title: {display: true, text: 'Capacity search: the rate of each step, and its p95'}},
      scales: {y: {beginAtZero: true, title: {display: true, text: 'iterations/s'}}, y1: {beginAtZero: true, position: 'right', grid: {drawOnChartArea: false}, title: {display: true, text: 'ms'}}}}});
  window.__searchRendered = d.steps.length;
})();
</script>`;

/**
 * The comparison as people read it: markdown (a CI step summary) and an offline HTML page
 * with Chart.js inlined — p95 per endpoint against the offered rate (or per endpoint, for
 * runs without an arrival rate), before and after — and the table of every figure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartPrelude } from '../report/html.js';
import { MIN_DELTA_MS, type Comparison, type Figure } from './compare.js';

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
const num = (n: number | null) => (n === null ? '—' : String(n));
const change = (f: Figure) =>
  f.change === null ? '—' : `${f.change > 0 ? '+' : ''}${f.change}${f.unit.startsWith('%') ? ' pt' : ' %'}`;
const verdict = (f: Figure) => (f.regression ? 'REGRESSION' : f.judged ? 'ok' : (f.note ?? 'not judged'));
const where = (f: Figure) =>
  [f.endpoint ? `\`${f.endpoint}\`` : '', f.rate !== null ? `at ${f.rate} it/s` : ''].filter(Boolean).join(' ');

export function headline(c: Comparison): string {
  const gate = c.maxRegressionPct === null ? 'no gate (--max-regression not given)' : `gate ${c.maxRegressionPct} %`;
  return `${c.scenario}: ${c.regressions.length} regression${c.regressions.length === 1 ? '' : 's'} of ${c.figures.filter((f) => f.judged).length} judged figures, ${gate}`;
}

export function markdown(c: Comparison): string {
  const rows = c.figures.map(
    (f) => `| ${f.what} | ${where(f)} | ${num(f.before)} | ${num(f.after)} | ${change(f)} | ${verdict(f)} |`,
  );
  return [
    `## Load compare: ${c.scenario}`,
    '',
    `Before: \`${c.before.file}\` (${c.before.startedAt}, ${c.before.engine}, ${c.before.instances} instance(s), ${c.before.target})  `,
    `After: \`${c.after.file}\` (${c.after.startedAt}, ${c.after.engine}, ${c.after.instances} instance(s), ${c.after.target})`,
    '',
    `**${headline(c)}**`,
    '',
    '| figure | where | before | after | change | verdict |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Latency is compared per endpoint at each offered rate both runs had; capacity and p95 are judged in % of the before value (a p95 must also move by ${MIN_DELTA_MS} ms or more), the error share in percentage points.`,
    '',
  ].join('\n');
}

/** Charts: p95 per endpoint, before (dashed) and after, by offered rate — or per endpoint when there is no rate. */
function charts(c: Comparison): unknown {
  const p95 = c.figures.filter((f) => f.what === 'p95');
  const endpoints = [...new Set(p95.map((f) => f.endpoint!))];
  const rates = [...new Set(p95.map((f) => f.rate))].sort((a, b) => (a ?? 0) - (b ?? 0));
  if (rates.length > 1) {
    return {
      id: 'p95',
      kind: 'line',
      title: 'p95 per endpoint by offered rate (dashed: before)',
      x: 'offered iterations/s',
      labels: rates,
      sets: endpoints.flatMap((e, i) =>
        (['before', 'after'] as const).map((side) => ({
          label: `${e} ${side}`,
          color: i,
          dashed: side === 'before',
          data: rates.map((r) => p95.find((f) => f.endpoint === e && f.rate === r)?.[side] ?? null),
        })),
      ),
    };
  }
  return {
    id: 'p95',
    kind: 'bar',
    title: 'p95 per endpoint',
    x: 'endpoint',
    labels: endpoints,
    sets: (['before', 'after'] as const).map((side, i) => ({
      label: side,
      color: i,
      dashed: false,
      data: endpoints.map((e) => p95.find((f) => f.endpoint === e)?.[side] ?? null),
    })),
  };
}

function html(c: Comparison): string {
  const data = JSON.stringify(charts(c)).replace(/</g, '\\u003c');
  const rows = c.figures
    .map(
      (f) =>
        `<tr class="${f.regression ? 'bad' : ''}"><td>${esc(f.what)}</td><td>${esc(where(f).replace(/`/g, ''))}</td><td>${num(f.before)}</td><td>${num(f.after)}</td><td>${esc(change(f))}</td><td>${esc(verdict(f))}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load compare: ${esc(c.scenario)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}.chart{border:1px solid #ddd;border-radius:6px;padding:10px;height:340px;position:relative;max-width:1000px}
table{border-collapse:collapse;margin-top:12px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}tr.bad td{background:#fde8e8}.head{background:#f4f7ff;padding:10px;border-radius:6px}</style></head><body>
<h1>Load compare: ${esc(c.scenario)}</h1>
<p>Before: <code>${esc(c.before.file)}</code> (${esc(c.before.startedAt)}, ${esc(c.before.engine)}, ${c.before.instances} instance(s), ${esc(c.before.target)})<br>
After: <code>${esc(c.after.file)}</code> (${esc(c.after.startedAt)}, ${esc(c.after.engine)}, ${c.after.instances} instance(s), ${esc(c.after.target)})</p>
<p class="head"><strong>${esc(headline(c))}</strong></p>
<div class="chart"><canvas id="p95" aria-label="p95 before and after"></canvas></div>
<table><tr><th>figure</th><th>where</th><th>before</th><th>after</th><th>change</th><th>verdict</th></tr>${rows}</table>
<p>Latency is compared per endpoint at each offered rate both runs had; capacity and p95 are judged in % of the before value (a p95 must also move by ${MIN_DELTA_MS} ms or more), the error share in percentage points.</p>
${chartPrelude(data)}
  var sets = d.sets.map(function(s){ var c = colors[s.color % colors.length]; return {label: s.label, data: s.data, borderColor: c, backgroundColor: c + (s.dashed ? '55' : 'bb'), borderDash: s.dashed ? [6, 4] : [], pointRadius: 2, borderWidth: 2, spanGaps: true}; });
  new Chart(document.getElementById(d.id), {type: d.kind, data: {labels: d.labels, datasets: sets},
    options: {animation: false, responsive: true, maintainAspectRatio: false, plugins: {title: {display: true, text: d.title}},
      scales: {x: {title: {display: true, text: d.x}}, y: {beginAtZero: true, title: {display: true, text: 'ms'}}}}});
  window.__chartsRendered = 1;
})();
</script></body></html>
`;
}

interface CompareWritten {
  markdown: string;
  html: string;
  json: string;
}

export function writeComparison(dir: string, c: Comparison): CompareWritten {
  mkdirSync(dir, { recursive: true });
  const out = { markdown: join(dir, 'compare.md'), html: join(dir, 'compare.html'), json: join(dir, 'compare.json') };
  writeFileSync(out.markdown, markdown(c));
  writeFileSync(out.html, html(c));
  writeFileSync(out.json, `${JSON.stringify(c, null, 1)}\n`);
  return out;
}

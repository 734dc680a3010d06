/**
 * `diff.html`: one self-contained page. Per exchange a row with its verdict; a diverged one
 * opens to the two answers side by side (status, media type, rate-limit headers, the body's
 * normalised sample) with the lines found on one side only marked. A filter shows only the
 * divergences (the default) or everything.
 */
import type { Compared } from './compare.js';
import type { Exchange } from './exchange.js';
import type { DiffReport } from './report.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function answerText(x: Exchange | undefined): string {
  if (!x) return '(no exchange)';
  if (x.skipped !== undefined) return `(not made: ${x.skipped})`;
  const head = [
    `${x.request.method} ${x.request.path}`,
    `status ${x.status}`,
    `content-type ${x.contentType ?? 'none'}`,
    `rate-limit headers ${(x.rateHeaders ?? []).join(', ') || 'none'}`,
  ];
  if (x.errorForm) head.push(`error fields ${x.errorForm.join(', ') || 'none'}`);
  if (x.values) head.push(`values ${JSON.stringify(x.values)}`);
  return `${head.join('\n')}\n\n${x.sample ?? ''}`;
}

/** The lines of `text`, those not among `other`'s marked. */
function marked(text: string, other: string): string {
  const theirs = new Set(other.split('\n'));
  return text
    .split('\n')
    .map((l) => (theirs.has(l) ? esc(l) : `<mark>${esc(l)}</mark>`))
    .join('\n');
}

function row(r: Compared, labels: [string, string]): string {
  const [a, b] = [answerText(r.a), answerText(r.b)];
  const open = r.divergences.some((d) => !d.accepted);
  const cls =
    r.verdict === 'diverged' ? (open ? 'diverged' : 'accepted') : r.verdict === 'same' ? 'same' : 'not-compared';
  const list = r.divergences
    .map(
      (d) =>
        `<li class="${d.accepted ? 'accepted' : 'open'}"><b>${esc(d.kind)}</b>: ${esc(d.detail)}${d.accepted ? ` <i>(accepted: ${esc(d.accepted)})</i>` : ''}</li>`,
    )
    .join('');
  return `<tr class="x ${cls}" data-ref="${esc(r.ref)}"><td><code>${esc(r.ref)}</code></td><td>${esc(r.verdict)}${r.why ? `<br><small>${esc(r.why)}</small>` : ''}</td><td>
<details${open ? ' open' : ''}><summary>${r.divergences.length ? `<ul>${list}</ul>` : 'the two answers'}</summary>
<div class="pair"><div><h4>${esc(labels[0])}</h4><pre class="a">${marked(a, b)}</pre></div><div><h4>${esc(labels[1])}</h4><pre class="b">${marked(b, a)}</pre></div></div></details></td></tr>`;
}

export function diffHtml(r: DiffReport): string {
  const s = r.summary;
  const labels: [string, string] = [`target: ${r.target.label}`, `against: ${r.against.label}`];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>conformance diff</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse;width:100%}td{border-top:1px solid #ddd;vertical-align:top;padding:.4em}
tr.diverged td:first-child{border-left:4px solid #c62828}tr.accepted td:first-child{border-left:4px solid #f9a825}tr.same td:first-child{border-left:4px solid #2e7d32}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em;white-space:pre-wrap}
mark{background:#ffd7d7}li.open b{color:#c62828}summary ul{display:inline-block;margin:0;padding-left:1.2em}
body.only-divergences tr.x:not(.diverged):not(.accepted){display:none}
</style></head>
<body class="only-divergences">
<h1>conformance diff: <span id="verdict">${s.open ? `${s.open} divergence(s)` : 'no divergence'}</span></h1>
<p>${esc(labels[0])} — ${esc(r.target.release)} ${esc(r.target.edition)}<br>${esc(labels[1])} — ${esc(r.against.release)} ${esc(r.against.edition)}${r.against.recording ? ` (recording "${esc(r.against.recording.name)}", made ${esc(r.against.recording.madeAt)})` : ''}</p>
<p id="summary">${s.exchanges} exchanges: ${s.same} the same, ${s.diverged} diverged, ${s.notCompared} not compared; ${s.accepted} accepted. Harness ${esc(r.harness.version)}, ${esc(r.madeAt)}, ${(r.durationMs / 1000).toFixed(1)} s.</p>
${r.stale.length ? `<p id="stale">Stale --accept entries: ${r.stale.map((e) => `<code>${esc(e.ref)}</code>`).join(', ')}</p>` : ''}
<label><input type="checkbox" id="only" checked> only divergences</label>
<table><tbody>
${r.results.map((x) => row(x, labels)).join('\n')}
</tbody></table>
<script>
document.getElementById('only').addEventListener('change', (e) => document.body.classList.toggle('only-divergences', e.target.checked));
</script>
</body></html>`;
}

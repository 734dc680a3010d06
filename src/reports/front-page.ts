/**
 * The HTML report's front page (`html/index.html`): the verdict, run errors and warnings,
 * then the clause table with pass / fail / error / skip apart — the same outcomes as the
 * terminal and results.json — each clause linking to its checks, each check showing why it
 * did not pass (violations with expected / seen and the call, or the harness's causes),
 * its redacted exchanges, and a link to its page in Playwright's report
 * (`html/playwright/`), which keeps every attachment. One self-contained file, no script.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Results, TestResultT } from './results-schema.js';
import { EXCHANGES_FILE } from './results-reporter.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const BADGE: Record<string, string> = { pass: 'pass', fail: 'fail', error: 'error', skip: 'skip', 'not covered': 'not covered', warning: 'assertion warnings' };
const anchor = (id: string) => `clause-${id}`;

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1f24}h1{font-size:22px}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}.b{display:inline-block;padding:0 8px;border-radius:10px;font-weight:600}
.pass{background:#dafbe1;color:#116329}.fail{background:#ffebe9;color:#a40e26}.error{background:#fff8c5;color:#7d4e00}.skip,.not{background:#eaeef2;color:#57606a}
.totals span{margin-right:14px}pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:360px;font-size:12px}section{margin-top:28px}
.warning{background:#fff1e5;color:#953800}.check{margin:10px 0;padding:8px;border-left:4px solid #d0d7de}.check.fail{border-color:#cf222e}.check.error{border-color:#bf8700}.warn{color:#7d4e00}`;

function badge(outcome: string, n?: number): string {
  return `<span class="b ${outcome.split(' ')[0]}" data-outcome="${esc(outcome)}">${esc(BADGE[outcome] ?? outcome)}${n === undefined ? '' : ` ${n}`}</span>`;
}

/** The anchor of exchange `n` of check `id` in this page's transcript. */
const exchangeAnchor = (id: string | undefined, n: number | undefined) => (id && n ? `x-${id}-${n}` : undefined);
const exchangeNo = (line: string | undefined) => (line ? Number(/^#(\d+) /.exec(line)?.[1]) || undefined : undefined);

/** A violation or an assertion warning: its message, expected and seen, its evidence, and the exchange that shows it (linked into the transcript, with its curl line). */
function assertionHtml(kind: string, v: NonNullable<TestResultT['violations']>[number], id: string | undefined, linked: boolean): string {
  const a = linked ? exchangeAnchor(id, exchangeNo(v.exchange)) : undefined;
  return `<div class="${kind === 'violation' ? 'violation' : 'warn'}">${kind}: ${esc(v.message)}${v.expected !== undefined ? `<br>expected: <code>${esc(v.expected)}</code>` : ''}${v.seen !== undefined ? `<br>seen: <code>${esc(v.seen)}</code>` : ''}`
    + `${v.evidence ? `<br>evidence: <span class="evidence" data-class="${esc(v.evidence.class)}">${esc(v.evidence.class)} — ${esc(v.evidence.cite)}</span>` : ''}`
    + `${v.exchange ? `<br>exchange: ${a ? `<a href="#${esc(a)}"><code>${esc(v.exchange)}</code></a>` : `<code>${esc(v.exchange)}</code>`}` : ''}${v.curl ? `<br>reproduce: <code>${esc(v.curl)}</code>` : ''}</div>`;
}

/** The transcript with an anchor on each exchange (`#n METHOD url` starts one). */
function transcriptHtml(id: string, text: string): string {
  return text.split(/\n\n(?=#\d+ )/).map((part) => {
    const n = exchangeNo(part);
    return n ? `<span id="${esc(exchangeAnchor(id, n)!)}">${esc(part)}</span>` : esc(part);
  }).join('\n\n');
}

function checkHtml(t: TestResultT, exchanges: Record<string, string>): string {
  const parts = [`<div class="check ${t.outcome}" data-check="${esc(t.title)}">${badge(t.outcome)}${t.baseline ? ` <span class="known" data-baseline="${esc(t.baseline)}">known (baseline)</span>` : ''} <b>${esc(t.title)}</b> <small>(${t.evidence ? `${esc(t.evidence.class)}: ${esc(t.evidence.cite)}` : t.basis ?? 'spec'}, ${esc(t.file)}, ${t.durationMs} ms)</small>`];
  const x = t.id ? exchanges[t.id] : undefined;
  for (const v of t.violations ?? []) parts.push(assertionHtml('violation', v, t.id, !!x));
  for (const w of t.assertionWarnings ?? []) parts.push(assertionHtml('assertion warning (evidence only inferred; not a failure)', w, t.id, !!x));
  for (const e of t.errors ?? []) parts.push(`<div>harness could not decide (<b>${esc(e.cause)}</b>): ${esc(e.message)}</div>`);
  if (t.outcome === 'skip' && t.message) parts.push(`<div>skipped: ${esc(t.message)}</div>`);
  if (x) parts.push(`<details${t.outcome === 'fail' ? ' open' : ''}><summary>requests and responses</summary><pre>${transcriptHtml(t.id!, x)}</pre></details>`);
  if (t.har) parts.push(`<div><a class="har" href="../${esc(t.har)}" download>exchanges as a HAR file</a> (open in a browser's network tab or an HTTP tool)</div>`);
  if (t.id) parts.push(`<div><a href="playwright/index.html#?testId=${encodeURIComponent(t.id)}">details, attachments and curl reproducer</a></div>`);
  return `${parts.join('\n')}</div>`;
}

function frontPageHtml(r: Results, exchanges: Record<string, string> = {}): string {
  const t = r.totals;
  const verdict = r.verdict ? `${r.verdict.text} (exit ${r.verdict.exitCode})` : r.runErrors.length ? 'INCOMPLETE' : t.fail ? 'FAILED' : t.error ? 'UNDECIDED' : 'PASSED';
  const head = [
    `<h1>Conformance: ${verdict}</h1>`,
    `<p>Target ${esc(r.run.target ?? '?')} held to release ${esc(r.run.apiVersion ?? '?')} (${esc(r.run.edition ?? '?')} edition)${r.run.embedded ? ', embedded reference server' : ''}${r.run.tls ? `, ${esc(r.run.tls)}` : ''}.</p>`,
    `<p class="judge">Judged by ${esc(r.tool.name)} ${esc(r.tool.version)}, specification ${esc(r.tool.specRevision)}, clause table ${esc(r.tool.clauseTableHash)}.</p>`,
    `<p class="totals"><span>${badge('pass', t.pass)}</span><span>${badge('fail', t.fail)}</span><span>${badge('error', t.error)}</span><span>${badge('skip', t.skip)}</span> of ${t.tests} checks; <span>${badge('warning', t.assertionWarnings)}</span> (evidence only inferred: not failures${r.run.strict ? '; this run is --strict: they fail' : '; --strict fails them'})</p>`,
    ...(r.baseline ? [`<h2>Baseline</h2><p class="baseline">${esc(r.baseline.file)}: ${r.baseline.known.length} known, ${r.baseline.new.length} new, ${r.baseline.fixed.length} fixed.</p><ul>`, ...r.baseline.stale.map((e) => `<li class="stale">stale baseline entry: remove ${esc(JSON.stringify(e))} (it passes now)</li>`), '</ul>'] : []),
    ...(r.runErrors.length ? ['<h2>Run errors</h2><ul>', ...r.runErrors.map((e) => `<li class="run-error">${e.phase ? `(${esc(e.phase)}) ` : ''}${esc(e.reason)}</li>`), '</ul>'] : []),
    ...(r.warnings.length ? ['<h2>Warnings</h2><ul>', ...r.warnings.map((w) => `<li class="warn">${esc(w.check)}: ${esc(w.what)}${w.accountChanged ? ' — the account was left changed' : ''}</li>`), '</ul>'] : []),
    ...(r.run.limits ? [`<p>Rate limits held to: ${esc(Object.entries(r.run.limits.values).map(([k, v]) => `${k} ${v ?? 'unlimited'}`).join(', '))} (${esc(r.run.limits.source)}).</p>`] : []),
  ];
  const rows = r.clauses.map((c) => `<tr><td><a href="#${anchor(c.id)}">${c.id}</a></td><td>${badge(c.outcome)}${c.baseline ? ` (${esc(c.baseline)})` : ''}</td><td>${c.tests.pass}</td><td>${c.tests.fail}</td><td>${c.tests.error}</td><td>${c.tests.skip}</td><td>${c.assertionWarnings}</td><td>${esc(c.text)}</td><td>§${esc(c.source)}</td></tr>`);
  const sections = r.clauses.map((c) => {
    const checks = r.tests.filter((x) => x.clause === c.id);
    return `<section id="${anchor(c.id)}"><h2>${c.id} ${badge(c.outcome)}</h2><p>${esc(c.text)}</p>${checks.length ? checks.map((x) => checkHtml(x, exchanges)).join('\n') : '<p>No selected check covers this clause.</p>'}</section>`;
  });
  const other = r.tests.filter((x) => !x.clause);
  if (other.length) sections.push(`<section id="clause-none"><h2>Checks without a clause</h2>${other.map((x) => checkHtml(x, exchanges)).join('\n')}</section>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Conformance report</title><style>${STYLE}</style></head><body>
${head.join('\n')}
<h2>Clauses</h2><p>The clause texts and sources are the harness's <code>spec/clauses.md</code> (the specification's clauses) and <code>spec/clauses-extended.md</code> (the real service's documented API).</p><table id="clauses"><thead><tr><th>Clause</th><th>Outcome</th><th>pass</th><th>fail</th><th>error</th><th>skip</th><th>warnings</th><th>Clause text</th><th>Source</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<p><a href="playwright/index.html">Playwright's report of every check</a> (it calls a check the harness could not decide "failed"; this page keeps them apart).</p>
${sections.join('\n')}
</body></html>
`;
}

export function writeFrontPage(reportDir: string, r: Results, workDir: string): void {
  let exchanges: Record<string, string> = {};
  const f = join(workDir, EXCHANGES_FILE);
  if (existsSync(f)) { try { exchanges = JSON.parse(readFileSync(f, 'utf8')) as Record<string, string>; } catch { /* none */ } }
  mkdirSync(join(reportDir, 'html'), { recursive: true });
  writeFileSync(join(reportDir, 'html', 'index.html'), frontPageHtml(r, exchanges));
}

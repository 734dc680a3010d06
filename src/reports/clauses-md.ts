/** `clauses.md`: the clause-by-clause table a person reads (also the GitHub step summary). */
import type { Results } from './results-schema.js';

const ICON: Record<string, string> = { pass: '✅ pass', fail: '❌ fail', skip: '⏭️ skip', error: '⚠️ error', 'not covered': '▫️ not covered' };
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

export function clausesMarkdown(r: Results): string {
  const t = r.totals;
  // The runner's verdict (with the baseline applied) when it gave one; else what the outcomes alone say.
  const verdict = r.verdict ? `${r.verdict.text} (exit ${r.verdict.exitCode})` : r.runErrors.length ? 'INCOMPLETE (run errors)' : t.fail ? 'FAILED' : t.error ? 'UNDECIDED (errors)' : 'PASSED';
  const lines = [
    `# Conformance: ${verdict}`,
    '',
    `Target ${r.run.target ?? '?'} held to release ${r.run.apiVersion ?? '?'} (${r.run.edition ?? '?'} edition)${r.run.embedded ? ', embedded reference server' : ''}${r.run.tls ? `, ${r.run.tls}` : ''}.`,
    `Judged by ${r.tool.name} ${r.tool.version} (specification ${r.tool.specRevision}, clause table ${r.tool.clauseTableHash}).`,
    `${t.tests} checks: ${t.pass} passed, ${t.fail} failed, ${t.error} errors, ${t.skip} skipped — in ${(r.run.durationMs / 1000).toFixed(1)} s; ${t.assertionWarnings} assertion warning(s)${r.run.strict ? ' (--strict: they fail)' : ' (evidence only inferred: not failures; --strict fails them)'}.`,
    ...(r.runErrors.length ? ['', '## Run errors', '', ...r.runErrors.map((e) => `- ${e.phase ? `(${e.phase}) ` : ''}${cell(e.reason)}`)] : []),
    ...(r.warnings.length ? ['', '## Warnings', '', ...r.warnings.map((w) => `- ${cell(w.check)}: ${cell(w.what)}${w.accountChanged ? ' — **the account was left changed**' : ''}`)] : []),
    ...(r.run.limits ? ['', `Rate limits held to: ${Object.entries(r.run.limits.values).map(([k, v]) => `${k} ${v ?? 'unlimited'}`).join(', ')} (${r.run.limits.source}).`] : []),
    '',
    'Clause texts and sources: `spec/clauses.md` (the specification\'s clauses) and `spec/clauses-extended.md` (the real service\'s documented API) of the harness.',
    '',
    '| Clause | Outcome | Checks (pass/fail/error/skip) | Assertion warnings | Clause text | Source |',
    '|---|---|---|---|---|---|',
    ...r.clauses.map((c) => `| ${c.id} | ${ICON[c.outcome]}${c.baseline ? ` (${c.baseline})` : ''} | ${c.tests.pass}/${c.tests.fail}/${c.tests.error}/${c.tests.skip} | ${c.assertionWarnings} | ${cell(c.text)} | §${c.source} |`),
  ];
  const warned = r.tests.filter((x) => x.assertionWarnings?.length);
  if (warned.length) {
    lines.push('', '## Assertion warnings', '', 'Violated assertions whose evidence is only inferred (the harness\'s reasoning): not failures of the target; `--strict` fails them.', '');
    for (const x of warned) for (const w of x.assertionWarnings!) lines.push(`- ${cell(x.title)} — ${cell(w.message.split('\n')[0]!.slice(0, 400))}${w.exchange ? ` [${cell(w.exchange)}]` : ''} (inferred: ${cell(w.evidence?.cite ?? '?')})`);
  }
  const notable = r.tests.filter((x) => x.outcome !== 'pass' && x.message);
  if (notable.length) {
    lines.push('', '## Failures, errors and skips', '');
    for (const x of notable) lines.push(`- **${x.outcome}**${x.baseline ? ` (known — baseline ${cell(x.baseline)})` : ''} ${cell(x.title)} — ${cell(x.message!.split('\n')[0]!.slice(0, 400))}${x.har ? ` ([HAR](${x.har}))` : ''}`);
  }
  if (r.baseline) {
    const b = r.baseline;
    lines.push('', `## Baseline (${b.file}${b.harnessVersion ? `, written by harness ${b.harnessVersion}` : ''})`, '', `Known failures: ${b.known.join(', ') || 'none'}.`, `New failures: ${b.new.join(', ') || 'none'}.`, `Fixed: ${b.fixed.join(', ') || 'none'}.`);
    for (const e of b.entries.filter((x) => x.kind === 'clause' && x.forgives)) lines.push(`Clause entry ${e.entry} forgives ${e.forgives} failing check(s).`);
    for (const e of b.stale) lines.push(`Stale baseline entry: remove "${cell(e)}" (it passes now).`);
    for (const [old, now] of Object.entries(b.mapped ?? {})) lines.push(`Renamed or split since: ${old} → ${now.join(', ')}.`);
    if (b.newSince?.clauses.length) lines.push(`New since harness ${b.harnessVersion}: clauses ${b.newSince.clauses.join(', ')}.`);
    if (b.newSince?.checks?.length) lines.push('', `New checks since the baseline (${b.newSince.checks.length}):`, '', ...b.newSince.checks.map((t) => `- ${cell(t)}`));
  }
  return lines.join('\n') + '\n';
}

/** The selftest's outputs: `selftest.json`, `selftest.md` (a table per run) and the terminal summary. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mutant } from './catalog.js';
import type { MutantReport, SelftestReport } from './selftest.js';

const cell = (s: string, max = 400) => {
  const one = s.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
  return one.length > max ? `${one.slice(0, max)}…` : one;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const ICON: Record<string, string> = {
  killed: '✅ killed',
  warned: '🔸 warned (inferred only)',
  survived: '❌ survived',
  undecided: '⚠️ undecided',
  'no-results': '⚠️ no results',
};

/** Why a mutant was not killed, as far as the results tell. */
function survivorCause(m: MutantReport): string {
  if (m.problem) return m.problem;
  if (m.ran.checks === 0) return `no check reaches its fault(s): ${m.ran.why ?? ''} (coverage gap)`;
  if (m.verdict.status === 'warned')
    return `its only effect on ${m.clause} is assertion warnings (evidence only inferred): not a failure outside --strict — ${m.verdict.evidence ?? ''}`;
  if (m.verdict.status === 'undecided')
    return `its clause ended as error (the harness could not decide): ${m.verdict.evidence ?? ''}`;
  if (m.cleanOutcome && m.cleanOutcome !== 'pass')
    return `${m.clause} is "${m.cleanOutcome}" in the clean run too: no check of it runs against this target (coverage gap)`;
  if (m.verdict.clauseOutcome === 'not covered') return `no check of ${m.clause} ran`;
  return `the checks of ${m.clause} passed against the mutant (${m.verdict.clauseOutcome}): a suite gap, or the fault does not reach what they check${m.verdict.evidence ? ` — ${m.verdict.evidence}` : ''}`;
}

function markdown(r: SelftestReport): string {
  const lines = [
    `# Selftest: ${r.ok ? 'PASSED' : 'FAILED'}`,
    '',
    `Mutation score **${r.score.killed}/${r.score.total}**${r.score.warned ? ` (${r.score.warned} more only warned: their clause's assertions are inferred)` : ''}; wall time ${secs(r.wallMs)} with ${r.parallel} runs in parallel (${r.workers} worker(s) each, ${r.rateWindowSeconds} s rate window); ${r.selection === 'coverage' ? 'each mutant ran the checks that reach its faults in the clean run' : 'each mutant ran every check'}.`,
    '',
    '## Clean runs',
    '',
    '| Run | Verdict | pass/fail/error/skip | Time | Broken clauses |',
    '|---|---|---|---|---|',
    ...r.clean.map(
      (c) =>
        `| ${c.label} | ${c.verdict.ok ? '✅ ok' : '❌ broken'} | ${c.verdict.totals ? `${c.verdict.totals.pass}/${c.verdict.totals.fail}/${c.verdict.totals.error}/${c.verdict.totals.skip}` : '-'} | ${secs(c.durationMs)} | ${cell(c.verdict.broken.map((b) => `${b.clause} ${b.outcome}${b.message ? `: ${cell(b.message, 160)}` : ''}`).join('; ') || c.problem || '', 1200)} |`,
    ),
    '',
    '## Mutants',
    '',
    '| Mutant | Clause | Faults | Edition | Checks run | Verdict | Also broke | Time |',
    '|---|---|---|---|---|---|---|---|',
    ...r.mutants.map(
      (m) =>
        `| ${m.id} | ${m.clause} | ${m.faults.map((f) => `\`${f}\``).join(' ')} | ${m.edition} ${m.apiVersion} | ${m.ran.checks} | ${ICON[m.verdict.status]}${m.attempts > 1 ? ` (attempt ${m.attempts})` : ''} | ${cell([...m.verdict.collateral.map((c) => `${c.clause} (${c.outcome})`), ...m.verdict.undecidedElsewhere.map((c) => `${c.clause} (error)`)].join(', '))} | ${secs(m.durationMs)}${m.batch ? ` (${m.batch})` : ''} |`,
    ),
  ];
  const warned = r.mutants.filter((m) => m.verdict.status === 'warned');
  if (warned.length)
    lines.push(
      '',
      '## Mutants that only warned',
      '',
      'Their only effect on their clause is assertion warnings (evidence only inferred); counted apart, not kills.',
      '',
      ...warned.map((m) => `- **${m.id}** (${m.clause}, ${m.description}) — ${cell(survivorCause(m))}`),
    );
  const notKilled = r.mutants.filter((m) => m.verdict.status !== 'killed' && m.verdict.status !== 'warned');
  if (notKilled.length)
    lines.push(
      '',
      '## Survivors',
      '',
      ...notKilled.map((m) => `- **${m.id}** (${m.clause}, ${m.description}) — ${cell(survivorCause(m))}`),
    );
  const coll = r.mutants.filter((m) => m.verdict.collateral.length);
  if (coll.length) {
    lines.push('', '## Mutants that also broke unrelated clauses', '');
    for (const m of coll)
      for (const c of m.verdict.collateral)
        lines.push(`- **${m.id}** → ${c.clause} ${c.outcome}${c.message ? `: ${cell(c.message)}` : ''}`);
  }
  const undecided = r.mutants.filter((m) => m.verdict.undecidedElsewhere.length);
  if (undecided.length) {
    lines.push(
      '',
      '## Unrelated clauses left undecided (error) where the clean run decided them',
      '',
      'Usually timing on a loaded machine (the rate family cannot outrun a window); not counted as breaks.',
      '',
    );
    for (const m of undecided)
      for (const c of m.verdict.undecidedElsewhere)
        lines.push(`- **${m.id}** → ${c.clause}${c.message ? `: ${cell(c.message)}` : ''}`);
  }
  return lines.join('\n') + '\n';
}

export function writeReports(dir: string, r: SelftestReport): void {
  writeFileSync(join(dir, 'selftest.json'), JSON.stringify(r, null, 2));
  writeFileSync(join(dir, 'selftest.md'), markdown(r));
}

export function summary(r: SelftestReport, dir: string): string {
  const out = [
    `selftest: mutation score ${r.score.killed}/${r.score.total}${r.score.warned ? `, ${r.score.warned} only warned (inferred assertions)` : ''} in ${secs(r.wallMs)} (${r.parallel} in parallel)`,
  ];
  for (const c of r.clean.filter((x) => !x.verdict.ok))
    out.push(
      `selftest: clean run ${c.label} broke: ${c.verdict.broken.map((b) => `${b.clause} ${b.outcome}`).join(', ') || c.problem}`,
    );
  for (const m of r.mutants.filter((x) => x.verdict.status === 'warned'))
    out.push(`selftest: only warned ${m.id} (${m.clause}): ${survivorCause(m)}`);
  for (const m of r.mutants.filter((x) => x.verdict.status !== 'killed' && x.verdict.status !== 'warned'))
    out.push(`selftest: survivor ${m.id} (${m.clause}): ${survivorCause(m)}`);
  for (const m of r.mutants.filter((x) => x.verdict.collateral.length))
    out.push(
      `selftest: ${m.id} (${m.clause}) also broke ${m.verdict.collateral.map((c) => `${c.clause} (${c.outcome})`).join(', ')}`,
    );
  for (const m of r.mutants.filter((x) => x.verdict.undecidedElsewhere.length))
    out.push(
      `selftest: ${m.id} (${m.clause}) left undecided: ${m.verdict.undecidedElsewhere.map((c) => c.clause).join(', ')}`,
    );
  out.push(`selftest: ${r.ok ? 'PASSED' : 'FAILED'} — reports in ${dir}`);
  return out.join('\n') + '\n';
}

export function catalogTable(list: readonly Mutant[]): string {
  const w = Math.max(...list.map((m) => m.id.length));
  return (
    list
      .map(
        (m) =>
          `${m.clause.padEnd(8)} ${m.id.padEnd(w)}  ${m.faults.join(' ')}${m.serverOptions ? `  [${Object.values(m.serverOptions).join(' ')}]` : ''}\n${' '.repeat(9 + w + 2)}${m.description}`,
      )
      .join('\n') + `\n${list.length} mutant(s)\n`
  );
}

/** `diff.md`: the diff in Markdown, ready for `$GITHUB_STEP_SUMMARY`: the sides, the counts, every open divergence, what --accept found stale. */
import type { DiffReport } from './report.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const sideLine = (s: DiffReport['target']) =>
  `${s.label} — ${s.release} ${s.edition}${s.recording ? ` (recording "${s.recording.name}", made ${s.recording.madeAt} by harness ${s.recording.harness})` : `, ${s.calls} calls`}`;

export function diffMarkdown(r: DiffReport): string {
  const s = r.summary;
  const out = [
    `# conformance diff: ${s.open ? `${s.open} divergence(s)` : 'no divergence'}`,
    '',
    `- target: ${sideLine(r.target)}`,
    `- against: ${sideLine(r.against)}`,
    `- ${s.exchanges} exchanges: ${s.same} the same, ${s.diverged} diverged, ${s.notCompared} not compared; ${s.accepted} divergence(s) accepted; ${(r.durationMs / 1000).toFixed(1)} s; harness ${r.harness.version}, ${r.madeAt}`,
    '',
  ];
  const open = r.results.flatMap((x) => x.divergences.filter((d) => !d.accepted).map((d) => ({ x, d })));
  if (open.length) {
    out.push('| exchange | kind | difference (target against the other side) |', '|---|---|---|');
    for (const { x, d } of open) out.push(`| \`${x.ref}\` | ${d.kind} | ${cell(d.detail)} |`);
    out.push('');
  }
  const accepted = r.results.flatMap((x) =>
    x.divergences
      .filter((d) => d.accepted)
      .map((d) => `- \`${x.ref}\` ${d.kind}: ${cell(d.detail)} — accepted: ${cell(d.accepted!)}`),
  );
  if (accepted.length) out.push('## Accepted', '', ...accepted, '');
  if (r.stale.length)
    out.push(
      '## Stale --accept entries (they match no divergence)',
      '',
      ...r.stale.map((e) => `- \`${e.ref}\`${e.kind ? ` ${e.kind}` : ''}: ${cell(e.reason)}`),
      '',
    );
  if (r.evidence) {
    out.push(
      `## Recording "${r.evidence.recording}" as evidence`,
      '',
      `It confirms ${r.evidence.confirms.length} behaviour(s) of the target and contradicts ${r.evidence.contradicts.length}.`,
      '',
    );
    if (r.evidence.contradicts.length) out.push(...r.evidence.contradicts.map((c) => `- contradicts \`${c}\``), '');
  }
  if (r.problems.length) out.push('## Problems', '', ...r.problems.map((p) => `- ${cell(p)}`), '');
  return out.join('\n');
}

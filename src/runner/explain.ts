/**
 * `conformance explain CLAUSE`: what a clause asks, where it comes from and on what evidence,
 * which checks judge it, what a failure of each usually means for an implementation, and the
 * command that runs just that clause. The checks are listed by Playwright itself (`--list`),
 * so the titles are exactly those a run reports.
 */
import { spawnSync } from 'node:child_process';
import { clause, CLAUSES, isClauseId, type ClauseId, type EvidenceClass } from '../spec/index.js';
import { codeFile } from '../spec/layout.js';
import { grepFor, PLAYWRIGHT_CLI, playwrightEnv } from './phases.js';
import { harnessEnvVars } from '../common/harness-env.js';

/** What a failure in each family usually means for an implementation (a reading aid: the clause and the check's violation are the verdict). */
const FAILURE_MEANS: Record<string, string> = {
  ROUTE:
    'a route or method clients call is missing or answers as if absent (404/405): clients written for the real service break at once',
  GONE: 'a route the service removed is still offered: clients may depend on something the real service no longer has',
  SHAPE:
    "an answer's JSON differs from the real service's (a field missing, a type or a form different): clients that parse it misread or crash",
  SIZE: 'a size limit is not the documented one: clients that page or batch by it lose rows, or their batches are refused',
  SQL: 'the SQL endpoint treats input unlike the real service (parameters spliced, bad filters accepted): a correctness or security fault',
  AUTH: 'a credential is accepted or refused unlike the real service: clients cannot sign in, or calls that must be refused are not',
  RATE: 'rate limiting differs from the documented one (what is counted, the limit, the 429, the headers): clients that pace themselves by it misbehave',
  ACCT: 'an account or team operation lacks a field or a filter clients use',
  HOOK: 'a change is not announced to a registered webhook: clients that rely on webhooks must poll instead',
  BASE: 'a structure operation (views, columns, tables, links, big data, locks, comments) loses or changes data unlike the real service',
  CLIENT:
    'a method of the official JavaScript client does not work against the implementation: its users meet the failure as is',
  ROBUST:
    'malformed or concurrent input makes the implementation fail (5xx, reset, hang, lost or duplicated writes) where the real service answers a 4xx or stays consistent',
};

/** What a failing check's evidence class makes of the failure (src/spec/evidence.ts). */
const EVIDENCE_MEANS: Record<EvidenceClass, string> = {
  spec: 'the implementation breaks the specification',
  documented: "the implementation differs from the real service's documented API",
  recorded: 'the implementation answers unlike an answer recorded from the real service',
  client: 'an official client that depends on this breaks against the implementation',
  inferred: 'our own reasoning only (HTTP semantics, robustness): an assertion warning, a failure only with --strict',
};

/** The clause's source, and the evidence its checks stand on (each check's default; an assertion may cite its own, see docs/clauses.md). */
function evidenceLines(id: ClauseId, listed: readonly ListedCheck[]): string[] {
  const c = clause(id);
  const classes = [...new Set(listed.map((t) => t.evidence?.split(':')[0]).filter(Boolean))];
  return [
    c.table === 'spec'
      ? `source: §${c.source} of spec/base-data-api.md (the specification), clause table spec/clauses.md`
      : `source: ${c.source} (the real service's documentation or an official client), clause table spec/clauses-extended.md`,
    `evidence of its checks: ${classes.join(', ') || 'named per assertion'} (each assertion's own: docs/clauses.md)`,
  ];
}

interface ListedCheck {
  title: string;
  project: string;
  evidence?: string;
}

/** The checks of a clause, as Playwright lists them from the suites. */
function checksOf(id: ClauseId): ListedCheck[] {
  const r = spawnSync(
    process.execPath,
    [
      PLAYWRIGHT_CLI,
      'test',
      '--config',
      // The runner's config as this process runs (`.ts` from a checkout, `.js` compiled: the package has no TypeScript).
      codeFile('src', 'runner', 'playwright.config'),
      '--list',
      '--reporter=json',
      '--grep',
      grepFor(id, undefined)!,
    ],
    {
      encoding: 'utf8',
      env: playwrightEnv({ ...process.env, ...harnessEnvVars({ terminalReporter: 'dot' }) }),
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  let doc: { suites?: Suite[] };
  try {
    doc = JSON.parse(r.stdout) as { suites?: Suite[] };
  } catch {
    throw new Error(`could not list the checks of ${id}: ${(r.stderr || r.stdout).split('\n')[0]}`);
  }
  const out: ListedCheck[] = [];
  const walk = (s: Suite) => {
    for (const sp of s.specs ?? [])
      out.push({
        title: sp.title,
        project: sp.tests?.[0]?.projectName ?? '',
        evidence: sp.tests?.[0]?.annotations?.find((a) => a.type === 'evidence')?.description,
      });
    for (const c of s.suites ?? []) walk(c);
  };
  for (const s of doc.suites ?? []) walk(s);
  return out;
}
interface Suite {
  specs?: {
    title: string;
    tests?: { projectName: string; annotations?: { type: string; description?: string }[] }[];
  }[];
  suites?: Suite[];
}

function meaning(evidence: string | undefined): string {
  const cls = evidence?.split(':')[0] as EvidenceClass | undefined;
  return cls && cls in EVIDENCE_MEANS
    ? EVIDENCE_MEANS[cls]
    : 'the implementation does not behave as the clause says (see the evidence of each assertion)';
}

/** The explanation of a clause, as lines; an unknown ID is an error naming the near ones. */
export function explain(id: string, checks: (id: ClauseId) => ListedCheck[] = checksOf): string[] {
  const wanted = id.toUpperCase();
  const family = wanted.split('-')[0];
  if (!isClauseId(wanted)) {
    const near = CLAUSES.filter((c) => c.family === family).map((c) => c.id);
    throw new Error(
      `${id}: not a clause ID${near.length ? ` (the ${family} clauses: ${near.join(', ')})` : ' (the clause table: spec/clauses.md, spec/clauses-extended.md)'}`,
    );
  }
  const c = clause(wanted);
  const listed = checks(wanted);
  const means = FAILURE_MEANS[c.family] ?? 'the implementation does not behave as the clause says';
  return [
    `${c.id} (${c.family})`,
    '',
    c.text,
    '',
    ...evidenceLines(wanted, listed),
    '',
    `checks (${listed.length}):`,
    ...listed.map((t) =>
      [
        `  - ${t.title}${t.project === 'rate' ? ' [rate phase]' : ''}`,
        ...(t.evidence ? [`      evidence: ${t.evidence}`] : []),
        `      a failure means: ${meaning(t.evidence)} — it does not hold that ${t.title.slice(c.id.length + 1)}`,
      ].join('\n'),
    ),
    '',
    `a failure of ${c.family} usually means: ${means}.`,
    '',
    'run just this clause:',
    `  conformance run --target-file target.json --clauses ${c.id}`,
    ...(listed.length
      ? [`  one check: conformance run --target-file target.json --clauses ${c.id} --grep '<words of its title>'`]
      : []),
  ];
}

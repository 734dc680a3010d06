/**
 * `conformance diff` over the whole mutant catalog, once: for each mutant, the reference server
 * with the mutant's faults against a recording of the reference server (made once per release
 * and edition a mutant needs, so each mutant costs one side). Prints, per mutant, the
 * exchanges that diverged (JSON lines on stdout) and writes the summary to bench/diff-catalog.md:
 * diverged, none (each with why no answer a diff sees changes), errors.
 * Usage: npx tsx scripts/diff-catalog.ts [substring of ids or a clause] > out.jsonl
 * Two processes share the catalog on a busy machine: the second with `--reverse --until-in
 * out.jsonl` (from the end, stopping at a mutant the first has done) > back.jsonl; then
 * `--summarise out.jsonl back.jsonl` writes the summary of both.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diff, diffDone } from '../src/diff/diff.js';
import { MUTANTS } from '../src/mutants/catalog.js';
import type { Edition } from '../src/spec/index.js';

/** Why a mutant changes no answer the diff's sequences see: bursts, waits, deliveries or races they do not make. */
const WHY_NONE: Record<string, string> = {
  'limit-server-info':
    'RATE-1: server-info is limited only when a burst spends its budget (its headers are the same below the limit)',
  'limit-per-ip': 'RATE-2: the budget keyed per address shows only when a second source address spends it',
  'account-limit-global': 'RATE-2: one global account budget shows only when two keys together pass the limit',
  '429-json-body': 'RATE-3: the body of a 429, which needs a burst past the limit',
  'window-never-resets': 'RATE-4: a window that never resets shows only after a limit is reached and a window waited',
  'limit-plus-one': 'RATE-5: one call more than the limit before a 429 (a burst of limit + 1 calls)',
  'ignore-config': "RATE-7: limits configured on the server (a run's config), not compared by a diff",
  'quota-not-raised': 'RATE-8: a raised monthly quota shows only after the quota is spent',
  'bulk-calls-weighted': 'SIZE-7: bulk calls weighed against the rate budget show only in a burst',
  'webhook-bad-signature': "HOOK-1: a delivery's signature, seen by a webhook receiver, not in an answer",
  'webhook-no-delivery': 'HOOK-1: a delivery that never comes, seen only by a receiver after a wait',
  'connect-hangs': 'ROBUST-5: a CONNECT that hangs until the client gives up (a timeout of the side, not an answer)',
  'append-race': 'ROBUST-6: rows lost by concurrent appends, a race of many parallel writers',
};

interface Line {
  id: string;
  clause: string;
  ms?: number;
  calls?: number;
  diverged?: { ref: string; kinds: string[]; detail?: string }[];
  error?: string;
}

const args = process.argv.slice(2);
/** A flag's value (`--name value`), or '' for a flag without one (`boolean`); undefined: not given. */
const flag = (name: string, boolean = false) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : (args.splice(i, boolean ? 1 : 2)[1] ?? '');
};
const reverse = flag('--reverse', true) !== undefined;
const untilIn = flag('--until-in');
const summarise = flag('--summarise', true) !== undefined;
const only = summarise ? undefined : args[0];
const doneIn = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line)
    : [];
const root = mkdtempSync(join(tmpdir(), 'diff-catalog-'));
const recordings = new Map<string, string>();
/** The reference server of `apiVersion` and `edition`, recorded once. */
async function recordingOf(apiVersion: string | undefined, edition: Edition | undefined): Promise<string> {
  const key = `${apiVersion ?? 'newest'}-${edition ?? 'self-hosted'}`;
  let dir = recordings.get(key);
  if (!dir) {
    dir = join(root, `rec-${key}`);
    await diff({ reportDir: join(root, `self-${key}`), record: dir, apiVersion, edition });
    recordings.set(key, dir);
  }
  return dir;
}

const lines: Line[] = summarise ? [...new Map(args.flatMap(doneIn).map((l) => [l.id, l])).values()] : [];
const started = Date.now();
const chosen = summarise ? [] : MUTANTS.filter((x) => !only || x.id.includes(only) || x.clause === only);
try {
  for (const m of reverse ? chosen.reverse() : chosen) {
    if (untilIn && doneIn(untilIn).some((l) => l.id === m.id)) break;
    const dir = mkdtempSync(join(root, 'm-'));
    const t0 = Date.now();
    let line: Line;
    try {
      const { apiVersion, edition } = m.serverOptions ?? {};
      const r = await diff({
        reportDir: dir,
        targetFaults: m.faults,
        againstRecording: await recordingOf(apiVersion, edition),
        apiVersion,
        edition,
      });
      const diverged = r.results
        .filter((x) => x.verdict === 'diverged')
        .map((x) => ({
          ref: x.ref,
          kinds: x.divergences.map((d) => d.kind),
          detail: x.divergences[0]?.detail.slice(0, 160),
        }));
      line = { id: m.id, clause: m.clause, ms: Date.now() - t0, calls: r.target.calls, diverged };
    } catch (e) {
      line = { id: m.id, clause: m.clause, error: (e as Error).message };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    lines.push(line);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
  await diffDone();
}

const seen = lines.filter((l) => l.diverged?.length);
const none = lines.filter((l) => l.diverged && !l.diverged.length);
const errors = lines.filter((l) => l.error);
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const md = [
  '# `conformance diff` over the mutant catalog',
  '',
  `Made by \`scripts/diff-catalog.ts\` on ${new Date(started).toISOString()}${only ? ` (only ${only})` : ''}: each mutant is the reference server with its faults, diffed against a recording of the reference server. ${lines.length} mutants: **${seen.length} diverged, ${none.length} none, ${errors.length} errors**; per mutant a median of ${Math.round(median(lines.flatMap((l) => l.ms ?? [])) / 1000)} s and ${median(lines.flatMap((l) => l.calls ?? []))} calls (one side).`,
  '',
  '## No divergence, and why',
  '',
  ...none.map((l) => `- \`${l.id}\` (${l.clause}): ${WHY_NONE[l.id] ?? '**no reason known: a gap in the sequences**'}`),
  '',
  ...(errors.length ? ['## Errors', '', ...errors.map((l) => `- \`${l.id}\` (${l.clause}): ${l.error}`), ''] : []),
  '## Diverged, where',
  '',
  '| Mutant | Clause | Exchanges (first 4) |',
  '|---|---|---|',
  ...seen.map(
    (l) =>
      `| \`${l.id}\` | ${l.clause} | ${l
        .diverged!.slice(0, 4)
        .map((d) => `\`${d.ref}\` ${d.kinds.join('+')}`)
        .join('; ')}${l.diverged!.length > 4 ? `; and ${l.diverged!.length - 4} more` : ''} |`,
  ),
  '',
];
writeFileSync(
  join(import.meta.dirname, '..', 'bench', only ? 'diff-catalog.partial.md' : 'diff-catalog.md'),
  md.join('\n'),
);
process.stderr.write(
  `${lines.length} mutants: ${seen.length} diverged, ${none.length} none, ${errors.length} errors\n`,
);

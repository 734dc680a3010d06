/**
 * The ROBUST family's share of the generated probes: per row (per path for methods), one probe
 * of each sampling group the clause names, at a bounded number of fields — seeded, so a run
 * is reproducible from its seed and another seed covers other probes. A choice is a hash of
 * (seed, row, group, probe), never a position in a list: adding a row or a probe to the
 * table leaves every other row's sample as it was.
 */
import { createHash } from 'node:crypto';
import type { ClauseId } from '../../spec/index.js';
import type { Probe } from './probes.js';

interface SampleRule {
  /** Groups sent per row (one probe each); undefined: every group of the clause. */
  readonly groups?: readonly string[];
  /** Fields of a row probed (field-bound groups): the sample's bound on wide rows. */
  readonly fields: number;
  /** At most this many groups per row, seeded (ROBUST-5: one method per path). */
  readonly groupsPerRow?: number;
}

/** What each clause sends per row; the counts are what keeps the family to a few seconds. */
const SAMPLE_RULES: Readonly<Partial<Record<ClauseId, SampleRule>>> = {
  'ROBUST-1': {
    groups: ['broken-json', 'content-type', 'multipart:no-boundary', 'multipart:unterminated', 'urlencoded'],
    fields: 0,
    groupsPerRow: 3,
  },
  'ROBUST-2': { groups: ['top-level', 'field-type'], fields: 3, groupsPerRow: 3 },
  'ROBUST-3': { groups: ['depth:over', 'depth:5000', 'size'], fields: 1 },
  'ROBUST-4': { fields: 1, groupsPerRow: 2 },
  'ROBUST-5': { fields: 0, groupsPerRow: 1 },
};

/** A stable rank of `parts` under `seed`. */
const rank = (seed: number, ...parts: string[]) =>
  createHash('sha256')
    .update([String(seed), ...parts].join('\u0000'))
    .digest('hex');

/** The `n` of `items` ranked first under (seed, key): a seeded choice that no other choice shifts. */
function choose<T>(seed: number, key: string, items: readonly T[], n: number, id: (t: T) => string): T[] {
  return [...items]
    .map((t) => ({ t, r: rank(seed, key, id(t)) }))
    .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
    .slice(0, n)
    .map((x) => x.t);
}

/** The row a probe belongs to for sampling: its endpoint, or its path for a method probe (one per path). */
const rowOf = (p: Probe) => (p.kind === 'method' ? `path ${p.path}` : p.ep ? `row ${p.ep.id}` : `path ${p.path}`);

/** The probes of `clause` a run with `seed` sends. */
export function sampleProbes(all: readonly Probe[], clause: ClauseId, seed: number): Probe[] {
  const rule = SAMPLE_RULES[clause];
  if (!rule) return [];
  const mine = all.filter((p) => p.clause === clause && (!rule.groups || rule.groups.includes(p.group)));
  const byRow = new Map<string, Probe[]>();
  for (const p of mine) byRow.set(rowOf(p), [...(byRow.get(rowOf(p)) ?? []), p]);
  const out: Probe[] = [];
  for (const [row, probes] of byRow) {
    const fields = [...new Set(probes.flatMap((p) => (p.field ? [p.field] : [])))];
    const keep = new Set(choose(seed, `${row} fields`, fields, rule.fields, (f) => f));
    const usable = probes.filter((p) => !p.field || keep.has(p.field));
    const groups = [...new Set(usable.map((p) => `${p.group}\u0000${p.field ?? ''}`))];
    const picked =
      rule.groupsPerRow === undefined ? groups : choose(seed, `${row} groups`, groups, rule.groupsPerRow, (g) => g);
    for (const g of picked)
      out.push(
        ...choose(
          seed,
          `${row} ${g}`,
          usable.filter((p) => `${p.group}\u0000${p.field ?? ''}` === g),
          1,
          (p) => p.what,
        ),
      );
  }
  return out;
}

/**
 * The clause table across harness releases: which clauses each release added, and which it
 * renamed or split. A baseline records the harness version it was written with; an upgrade
 * maps its clauses forward through this table and names what is new since then, so an
 * implementer sees why an upgrade turned their gate red.
 */
import { CLAUSES } from './clauses.js';

export interface HarnessRelease {
  readonly version: string;
  /** Clauses this release added. */
  readonly added: readonly string[];
  /** Clauses this release renamed or split: old ID → the IDs that carry it now. */
  readonly renamed: Readonly<Record<string, readonly string[]>>;
}

const specClauses = CLAUSES.filter((c) => c.table === 'spec').map((c) => c.id);
const extendedClauses = CLAUSES.filter((c) => c.table === 'extended').map((c) => c.id);

export const HARNESS_RELEASES: readonly HarnessRelease[] = [
  { version: '0.1.0', added: specClauses, renamed: {} },
  { version: '0.2.0', added: extendedClauses, renamed: {} },
];

/** -1, 0, 1 for dotted numeric versions. */
export function compareHarnessVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** The releases after `since` up to and including `until`. */
function between(since: string, until: string, history: readonly HarnessRelease[]): HarnessRelease[] {
  return history.filter((r) => compareHarnessVersions(r.version, since) > 0 && compareHarnessVersions(r.version, until) <= 0);
}

/** A clause ID of release `since`, as the clauses of release `until` name it (a split gives several). */
export function mapClause(id: string, since: string, until: string, history: readonly HarnessRelease[] = HARNESS_RELEASES): string[] {
  let ids = [id];
  for (const r of between(since, until, history)) ids = ids.flatMap((x) => r.renamed[x] ?? [x]);
  return ids;
}

/** Clauses added after release `since` (up to `until`), renamed ones excluded. */
export function clausesAddedSince(since: string, until: string, history: readonly HarnessRelease[] = HARNESS_RELEASES): string[] {
  const renamedTo = new Set(between(since, until, history).flatMap((r) => Object.values(r.renamed).flat()));
  return between(since, until, history).flatMap((r) => r.added).filter((id) => !renamedTo.has(id));
}

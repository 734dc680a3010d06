/**
 * The run's own tables in the target's bases, created through the gateway's tables/ and
 * columns/ endpoints and named with the run's prefix: one with every column type, linked
 * to a second. Removed at the end of the run — also on failure and on SIGINT — and
 * `conformance clean` sweeps what earlier runs left.
 */
import { tablesOf } from '../harness/metadata.js';
import { buildTypeTables } from '../harness/type-table.js';
import type { RunState } from '../harness/state.js';
import type { Target } from '../harness/target.js';
import { PREFIX_RE } from '../common/run-id.js';

/** The run's id and table prefix (shared with the load scripts). */
export { PREFIX_RE, newRunId } from '../common/run-id.js';

/** The run's every-type table and its linked table in base 0 (src/harness/type-table.ts). */
export async function createFixtures(target: Target, prefix: string): Promise<NonNullable<RunState['fixtures']>> {
  return buildTypeTables(target, { types: `${prefix}types`, linked: `${prefix}linked` });
}

export interface Sweep {
  removed: string[];
  /** What could not be listed or removed: the base, and why. */
  problems: string[];
}

/** Delete every table whose name starts with `prefix` (or matches the run pattern and is older than `olderThanMs`). */
export async function sweepTables(target: Target, match: (name: string) => boolean): Promise<Sweep> {
  const sweep: Sweep = { removed: [], problems: [] };
  for (let i = 0; i < target.state.target.bases.length; i++) {
    const label = `base #${i + 1} (${target.base(i).name})`;
    let tables: string[];
    try {
      tables = (await tablesOf(target, i)).map((t) => t.name);
    } catch (e) {
      sweep.problems.push(`${label}: cannot list its tables: ${(e as Error).message}`);
      continue;
    }
    for (const name of tables.filter(match)) {
      try {
        const d = await target.gw(i, 'DELETE', 'tables/', { json: { table_name: name } });
        if (d.status === 200) sweep.removed.push(name);
        else
          sweep.problems.push(
            `${label}: cannot delete table ${name}: DELETE tables/ answered ${d.status}: ${d.text.slice(0, 160)}`,
          );
      } catch (e) {
        sweep.problems.push(`${label}: cannot delete table ${name}: ${(e as Error).message}`);
      }
    }
  }
  return sweep;
}

export function olderThan(name: string, ms: number, now = Date.now()): boolean {
  const m = PREFIX_RE.exec(name);
  if (!m) return false;
  const s = m[1]!;
  const t = Date.UTC(
    +s.slice(0, 4),
    +s.slice(4, 6) - 1,
    +s.slice(6, 8),
    +s.slice(8, 10),
    +s.slice(10, 12),
    +s.slice(12, 14),
  );
  return now - t >= ms;
}

/**
 * "Nothing is written", as far as a client can see: the base's tables that are not the run's
 * (other checks' tables come and go meanwhile), the check's own tables (its scratch table and
 * anything named with its tag) with their columns and views, and the scratch table's rows
 * counted by SQL. Compared before and after a check's probes.
 */
import { tablesOf, type TableInfo } from '../metadata.js';
import { countRows, type Scratch } from '../tables.js';
import type { Target } from '../target.js';

interface Visible {
  /** One line per table: `name [columns] {views}`, sorted. */
  tables: string[];
  /** `gone`: a malformed request removed or renamed it. */
  scratchRows: number | 'gone';
}

const line = (t: TableInfo) =>
  `${JSON.stringify(t.name)} [${t.columns.map((c) => `${c.name}:${c.type}`).join(', ')}] {${t.views.map((v) => v.name).join(', ')}}`;

/** What the check's probes must leave as it is: tables not of the run (`runPrefix`), tables of the check (`tag`), the scratch table's row count. */
export async function visibleState(target: Target, scratch: Scratch, runPrefix: string, tag: string): Promise<Visible> {
  const all = await tablesOf(target, scratch.base);
  const tables = all.filter(
    (t) => typeof t.name === 'string' && (!t.name.startsWith(runPrefix) || t.name.startsWith(tag)),
  );
  const present = all.some((t) => t.name === scratch.name);
  return { tables: tables.map(line).sort(), scratchRows: present ? await countRows(target, scratch) : 'gone' };
}

/** What changed between two states, one line each (empty: nothing). */
export function changes(before: Visible, after: Visible): string[] {
  const gone = before.tables.filter((t) => !after.tables.includes(t));
  const added = after.tables.filter((t) => !before.tables.includes(t));
  return [
    ...gone.map((t) => `table changed or removed: ${t}`),
    ...added.map((t) => `table changed or added: ${t}`),
    ...(before.scratchRows !== after.scratchRows
      ? [
          `the scratch table had ${before.scratchRows} rows, now ${after.scratchRows === 'gone' ? 'it is gone' : after.scratchRows}`,
        ]
      : []),
  ];
}

/**
 * The calls whose form changed between releases (src/spec/versioned-operations.ts), built in
 * the form of the release the run judges. Checks build them here, not by hand: the scan of
 * release-forms.test.ts fails a check that calls one without asking its release.
 */
import { behaviourAt } from '../spec/index.js';

/** The rows Move Rows to Big Data is to move, both ways: a view (6.0+) and the SQL condition that selects the same rows (before). */
interface ArchiveRows {
  readonly view: string;
  readonly where: string;
}

/** The body of Move Rows to Big Data in release `version`'s form. */
export function archiveBody(version: string, table: string, rows: ArchiveRows): Record<string, string> {
  return behaviourAt(version).archiveByViewName
    ? { table_name: table, view_name: rows.view }
    : { table_name: table, where: rows.where };
}

type SqlValue = string | number;
const literal = (v: SqlValue) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`);

/**
 * An SQL query's body with its `?` values: bound `parameters` from 5.0 (sent empty too, as
 * ever), before that written into the statement as literals (4.4 knows no `parameters`).
 */
export function sqlBody(
  version: string,
  sql: string,
  values: readonly SqlValue[] = [],
): { sql: string; parameters?: SqlValue[]; convert_keys: true } {
  if (behaviourAt(version).sqlParameters) return { sql, parameters: [...values], convert_keys: true };
  let i = 0;
  const inlined = sql.replace(/\?/g, () => {
    if (i >= values.length) throw new Error(`sqlBody: more ? than values in ${sql}`);
    return literal(values[i++]!);
  });
  if (i !== values.length) throw new Error(`sqlBody: ${values.length} values for ${i} ? in ${sql}`);
  return { sql: inlined, convert_keys: true };
}

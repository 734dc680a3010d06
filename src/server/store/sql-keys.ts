/**
 * An SQL answer keyed by column keys (`convert_keys` false, the default): select cells carry
 * option ids, as the real service's dtable-db answers them — option names only with
 * `convert_keys` true (seatable-scripts manual/python/sql.md, "single-select"). Clients turn
 * ids into names through the answer's `metadata`: the official JS client's `query()` builds
 * its option map from `metadata[].data.options[].id` and its column map from `metadata[].key`.
 */
import type { ApiRow } from './cells.js';
import type { ColumnMeta } from './model.js';
import type { Faults } from '../faults.js';

export interface SqlColumn {
  key: string;
  name: string;
  type: string;
  data: unknown;
}

interface Option {
  id?: unknown;
  name?: unknown;
}
const optionsOf = (col: ColumnMeta): Option[] =>
  Array.isArray(col.data?.options) ? (col.data.options as Option[]) : [];

/** A column of the answer's `metadata`. */
export function sqlColumn(col: ColumnMeta, byName: boolean, faults: Faults): SqlColumn {
  const meta: SqlColumn = { key: col.key, name: col.name, type: col.type, data: col.data };
  if (byName) return meta;
  // Mutants (CLIENT-1), where only a client reading rows by key looks: metadata that names a
  // column by a key its rows do not use; options listed without the ids the cells carry.
  if (faults.has('sql-metadata-key-renamed')) meta.key = col.name;
  if (optionsOf(col).length && faults.has('sql-metadata-options-without-ids')) {
    meta.data = { ...col.data, options: optionsOf(col).map(({ id: _id, ...rest }) => rest) };
  }
  return meta;
}

/** The select cells of `rows` (keyed by column key) as option ids, in place. */
export function selectCellsAsIds(
  rows: ApiRow[],
  columns: readonly { key: string; col: ColumnMeta }[],
  faults: Faults,
): void {
  const selects = columns.filter((c) => c.col.type === 'single-select' || c.col.type === 'multiple-select');
  if (!selects.length || !rows.length) return;
  if (faults.has('sql-raw-select-names')) return; // mutant (CLIENT-1): option names where the metadata maps ids
  for (const { key, col } of selects) {
    const ids = new Map(
      optionsOf(col)
        .filter((o) => typeof o.name === 'string' && typeof o.id === 'string')
        .map((o) => [o.name as string, o.id as string]),
    );
    const idOf = (v: unknown) => (typeof v === 'string' ? (ids.get(v) ?? v) : v);
    for (const row of rows) {
      if (!(key in row)) continue;
      const v = row[key];
      row[key] = Array.isArray(v) ? v.map(idOf) : idOf(v);
    }
  }
}

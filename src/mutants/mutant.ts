/** One mutant of the catalog (src/mutants/catalog.ts): a known-bad reference server, by its fault switches. */
import type { FaultName } from '../server/faults.js';
import type { ClauseId, Edition } from '../spec/index.js';

export interface Mutant {
  /** Stable, kebab-case; `--mutants` matches it (or the clause) by glob. */
  readonly id: string;
  /** The clause whose checks must catch it. */
  readonly clause: ClauseId;
  readonly faults: readonly FaultName[];
  /** Where the clause applies to one edition or release only; the run is held to the same. */
  readonly serverOptions?: { readonly apiVersion?: string; readonly edition?: Edition };
  readonly description: string;
  /**
   * Clauses that must fail too because the clause table overlaps by definition (GONE-8 is
   * GONE-1 ∪ GONE-4): not counted as breaking unrelated clauses.
   */
  readonly alsoFails?: readonly ClauseId[];
}

export const m = (
  clause: ClauseId,
  id: string,
  faults: FaultName[],
  description: string,
  extra: Partial<Pick<Mutant, 'serverOptions' | 'alsoFails'>> = {},
): Mutant => ({ id, clause, faults, description, ...extra });

/**
 * Mutants of the official-client clause (CLIENT-1). Each deviates where only a client that
 * reads SQL answers keyed by column keys looks — the official client's query() sends no
 * convert_keys and maps keys and option ids to names through the answer's metadata — so no
 * other clause sees it.
 */
import { m, type Mutant } from './mutant.js';

export const CLIENT_MUTANTS: readonly Mutant[] = [
  m(
    'CLIENT-1',
    'column-key-renamed',
    ['sql-metadata-key-renamed'],
    "An SQL answer keyed by column keys names each column in its metadata by a key its rows do not use (the column's name): the official client's query() loses every value.",
  ),
  m(
    'CLIENT-1',
    'query-options-without-ids',
    ['sql-metadata-options-without-ids'],
    "An SQL answer keyed by column keys lists select options in its metadata without their ids: the official client's query() cannot name a single option.",
  ),
  m(
    'CLIENT-1',
    'query-select-names',
    ['sql-raw-select-names'],
    "An SQL answer keyed by column keys carries select cells as option names instead of option ids: the official client's query(), which maps ids to names, loses them.",
  ),
];

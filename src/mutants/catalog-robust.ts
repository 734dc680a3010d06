/** Mutants of the ROBUST family (malformed input, concurrent writers): each fails its clause only. */
import { m, type Mutant } from './mutant.js';

export const ROBUST_MUTANTS: readonly Mutant[] = [
  m(
    'ROBUST-1',
    'multipart-no-boundary-500',
    ['multipart-no-boundary-500'],
    'A multipart/form-data body without a boundary parameter escapes as a 500: the boundary is read without a check.',
  ),
  m(
    'ROBUST-2',
    'wrong-type-500',
    ['wrong-type-500'],
    'A table_name that is not a string reaches string code (.trim()): a TypeError, a 500 instead of a 400.',
  ),
  m(
    'ROBUST-3',
    'deep-json-500',
    ['deep-json-500'],
    'A JSON body nested past the depth limit is parsed and overflows the stack of what walks it: a 500 instead of a 400.',
  ),
  m(
    'ROBUST-4',
    'surrogate-500',
    ['surrogate-500'],
    "A cell value with a lone surrogate cannot be encoded as UTF-8: the encoder's error escapes as a 500.",
  ),
  m(
    'ROBUST-5',
    'connect-hangs',
    ['connect-hangs'],
    'CONNECT is handed to a listener that never answers: the connection hangs until the client gives up.',
  ),
  m(
    'ROBUST-6',
    'append-race',
    ['append-race'],
    'Append reads the table, yields, and writes it back whole: rows another call appended meanwhile are lost.',
  ),
];

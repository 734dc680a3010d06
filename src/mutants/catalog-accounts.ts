/**
 * Mutants of the token, base and file operations (AUTH-5, ACCT-8, ACCT-9): each one deviation
 * a real implementation could ship, failing only its clause's checks.
 */
import { m, type Mutant } from './mutant.js';

export const ACCOUNTS_MUTANTS: readonly Mutant[] = [
  m(
    'AUTH-5',
    'api-token-permission-ignored',
    ['api-token-permission-ignored'],
    'Update API-Token answers the new permission but keeps the old one: a token updated to r still writes.',
  ),
  m(
    'AUTH-5',
    'temp-api-token-expires-at-once',
    ['temp-api-token-expires-at-once'],
    'Create API-Token (temporary) issues a token already expired (its lifetime lost to a unit mix-up): it opens nothing.',
  ),
  m(
    'ACCT-8',
    'deleted-base-still-open',
    ['deleted-base-still-open'],
    'Delete Base answers success but deletes nothing: the base and its tokens stay usable.',
  ),
  m(
    'ACCT-8',
    'copy-base-without-tables',
    ['copy-base-without-tables'],
    'Copy Base makes a new, empty base: the copy lacks the tables of its original.',
  ),
  m(
    'ACCT-9',
    'download-as-text',
    ['download-as-text'],
    'The file server sends a file as a decoded UTF-8 string: the bytes of a binary file change.',
  ),
  m(
    'ACCT-9',
    'asset-delete-ignored',
    ['asset-delete-ignored'],
    'Delete a Base Asset answers success but keeps the file: its download link still serves it.',
  ),
];

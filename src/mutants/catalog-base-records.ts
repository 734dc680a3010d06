/**
 * Mutants of the linked records, big-data rows, row locks and comments (BASE-5..7,
 * suites/base-records.spec.ts): each a shortcut an implementer could take that answers
 * success and does less.
 */
import { m, type Mutant } from './mutant.js';

export const BASE_RECORDS_MUTANTS: readonly Mutant[] = [
  m(
    'BASE-5',
    'query-links-ignore-offset',
    ['query-links-ignore-offset'],
    "query-links ignores each row's offset: every page starts at the first linked record.",
  ),
  m(
    'BASE-6',
    'big-rows-to-normal',
    ['big-rows-to-normal'],
    'add-archived-rows writes the rows into the normal store: the row list shows them.',
  ),
  m(
    'BASE-6',
    'archive-flags-only',
    ['archive-flags-only'],
    "archive-view only flags the view's rows _archived: they stay in the normal row list.",
  ),
  m(
    'BASE-6',
    'sql-normal-rows-only',
    ['sql-normal-rows-only'],
    'SQL SELECT reads the normal rows only: big-data rows are not counted.',
  ),
  m(
    'BASE-6',
    'unarchive-noop',
    ['unarchive-noop'],
    'unarchive answers success and a task id, the rows stay in big data.',
  ),
  m(
    'BASE-7',
    'lock-rows-noop',
    ['lock-rows-noop'],
    'lock-rows answers success and locks nothing (_locked stays null).',
  ),
  m('BASE-7', 'comment-count-zero', ['comment-count-zero'], 'comments-count always answers 0.'),
  m(
    'BASE-7',
    'comment-delete-noop',
    ['comment-delete-noop'],
    'Delete Comment answers success, the comment stays (and is counted).',
  ),
];

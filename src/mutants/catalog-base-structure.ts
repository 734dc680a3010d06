/** Mutants of the base structure clauses (BASE-1…4): views, columns, select options, tables. */
import { m, type Mutant } from './mutant.js';

/** The official client calls these very operations (CLIENT-1): its checks fail too, by definition. */
const CLIENT = { alsoFails: ['CLIENT-1'] } as const;
/** …and SHAPE-8 calls Create View as documented (table_name in the query string): refused, no documented answer. */
const CLIENT_AND_SHAPE = { alsoFails: ['CLIENT-1', 'SHAPE-8'] } as const;

export const BASE_STRUCTURE_MUTANTS: readonly Mutant[] = [
  m(
    'BASE-1',
    'view-sorts-ignored',
    ['view-sorts-ignored'],
    "The row list by view_name applies the view's filters but not its sorts: rows come in table order.",
  ),
  m(
    'BASE-1',
    'view-shows-hidden-columns',
    ['view-shows-hidden-columns'],
    'The row list by view_name returns the columns the view hides.',
  ),
  m(
    'BASE-1',
    'create-view-ignores-query-table',
    ['create-view-ignores-query-table'],
    'Create View reads table_name from the body only, as the reference server once did: the documented query-string form answers 404.',
    CLIENT_AND_SHAPE,
  ),
  m(
    'BASE-2',
    'rename-column-drops-values',
    ['rename-column-drops-values'],
    'A column rename re-creates the column under a new key: its values are lost.',
    CLIENT,
  ),
  m(
    'BASE-2',
    'list-columns-ignores-view',
    ['list-columns-ignores-view'],
    "List Columns with view_name lists the table's columns, hidden ones included.",
  ),
  m(
    'BASE-2',
    'resize-column-ignored',
    ['resize-column-ignored'],
    'resize_column answers 200 and keeps the old width.',
    CLIENT,
  ),
  m(
    'BASE-3',
    'type-change-keeps-raw',
    ['type-change-keeps-raw'],
    'modify_column_type changes the type and leaves the stored values as they were: a number column reads the strings "42".',
    CLIENT,
  ),
  m(
    'BASE-3',
    'select-options-without-ids',
    ['select-options-without-ids'],
    'Select options given at column creation or added through column-options/ get no id.',
    CLIENT,
  ),
  m(
    'BASE-3',
    'cascade-not-stored',
    ['cascade-not-stored'],
    'column-cascade-settings/ answers success and stores nothing.',
    CLIENT,
  ),
  m(
    'BASE-4',
    'rename-table-drops-rows',
    ['rename-table-drops-rows'],
    'A table rename re-creates the table under the new name, empty.',
    CLIENT,
  ),
  m(
    'BASE-4',
    'duplicate-without-columns',
    ['duplicate-without-columns'],
    "Duplicate Table makes a fresh table with a single Name column instead of the original's columns.",
  ),
];

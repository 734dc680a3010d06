/**
 * Operations whose form changed between the releases the harness emulates (4.4 … newest):
 * what a call sends, or what it answers. Each names the behaviour switch of `behaviourAt(v)`
 * that says which form release v has. A check that calls one must ask the release it judges;
 * `marks` are what a check's source shows when it uses the changed form (a path, a field), so
 * src/harness/release-forms.test.ts can find the callers and fail one that does not ask.
 * An operation that only came or went (`since`, `removed` of ENDPOINTS) is not listed: `offeredAt` covers those.
 */
import type { ClauseId } from './clauses.js';
import type { Behaviour } from './versions.js';

export interface VersionedOperation {
  /** ids of ENDPOINTS. */
  readonly endpoints: readonly string[];
  readonly behaviour: keyof Behaviour;
  /** The release that changed the form (its RELEASES entry flips `behaviour`). */
  readonly changed: string;
  /** Which side changed. */
  readonly side: 'request' | 'answer';
  readonly what: string;
  /** Source text of a check that uses the changed form. */
  readonly marks: RegExp;
  /** Clauses whose checks send or read the changed form (the release matrix runs them either side of the change). */
  readonly clauses: readonly ClauseId[];
}

export const VERSIONED_OPERATIONS: readonly VersionedOperation[] = [
  {
    endpoints: ['archiveView', 'archiveViewGateway'], behaviour: 'archiveByViewName', changed: '6.0', side: 'request',
    what: 'Move Rows to Big Data names the rows by `view_name`; before, by a raw SQL condition (`where`)',
    marks: /archive-view\/|\barchiveView(Gateway)?\b/,
    clauses: ['ACCT-7', 'BASE-6', 'SHAPE-8'],
  },
  {
    endpoints: ['querySql'], behaviour: 'sqlParameters', changed: '5.0', side: 'request',
    what: 'Query Base with SQL takes bound `parameters`; before, values are written into the statement',
    marks: /\bparameters\s*[:?,})]/,
    clauses: ['SQL-1', 'BASE-6', 'SHAPE-8'],
  },
  {
    endpoints: ['updateUser', 'updateTeam'], behaviour: 'monthlyAutomationLimitOption', changed: '6.1', side: 'request',
    what: 'Update User and Update Team take `monthly_automation_limit_per_user`',
    marks: /monthly_automation_limit_per_user/,
    clauses: ['ACCT-2'],
  },
  {
    endpoints: ['listTeamOperations', 'listTeamLogins'], behaviour: 'teamLogFilters', changed: '6.1', side: 'request',
    what: 'List Team Operations / Logins take `operation_group` / `login_status`, `start`, `end`',
    marks: /operation_group|login_status/,
    clauses: ['ACCT-4'],
  },
  {
    endpoints: ['getTeamInfo'], behaviour: 'scriptsRunningField', changed: '6.2', side: 'answer',
    what: 'Get Team Info answers `scripts_running_limit` instead of `scripts_running_total`',
    marks: /scripts_running_/,
    clauses: ['ACCT-1'],
  },
  {
    endpoints: ['getTeamUser'], behaviour: 'teamAdminUserFlags', changed: '6.1', side: 'answer',
    what: 'Get User (Team Admin) answers `is_active` and `is_org_admin`',
    marks: /is_org_admin/,
    clauses: ['ACCT-3'],
  },
];

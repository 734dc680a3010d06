/**
 * The version history of §9 as data. Each release lists the clauses it changed and the
 * behaviour switches it flips; `behaviourAt(v)` folds them from the oldest release up, so
 * the reference server, the suites and the reports read version differences from here only.
 */
import type { ClauseId } from './clauses.js';

/** Behaviour that differs between releases. Values are those of the oldest release (3.5). */
export const BASELINE_BEHAVIOUR = {
  /** `Authorization: Bearer` accepted (else only `Token`). */
  bearerAuth: false,
  /** Base token by invite link offered. */
  inviteLinkBaseToken: true,
  /** Base token by external link (`/api/v2.1/external-link-tokens/{t}/access-token/`) offered. */
  externalLinkBaseToken: true,
  /** `/dtable-server/*` and `/dtable-db/*` served. */
  legacyFamilies: true,
  /** `/dtable-server` and `/dtable-db` announced for removal. */
  legacyDeprecated: false,
  /** CSV import/append and row-comment create/update on `/dtable-server` offered. */
  legacyCsvAndComments: true,
  /** Data-collection-table calls offered. */
  dataCollectionTables: true,
  /** `/api-gateway/api/v2/` family served. */
  gatewayFamily: false,
  /** Gateway responses carry x-ratelimit-* headers. */
  rateLimitHeaders: false,
  /** Row list honours `order_by` / `direction`. */
  rowListOrderBy: true,
  /** Single-row read omits `_ctime`/`_mtime` when the table defines ctime/mtime columns. */
  rowGetOmitsTimes: false,
  /** Unknown select options written through rows are created (else refused). */
  createUnknownSelectOptions: false,
  /** Strict value type and body structure checks on `/rows/`. */
  strictRowChecks: false,
  /** `row_id` / `_id` cannot be changed by an update. */
  rowIdImmutable: false,
  /** SQL list validates its filter and refuses an invalid one. */
  sqlFilterValidation: false,
  /** Row reads return every column, `null` for never-set values (else omitted). */
  nullForUnset: false,
  /** Link cells: `[{row_id, display_value}]` (else a comma-joined string). */
  linkObjects: false,
  /** Link-formula cells: integer for one number, array for several (else strings). */
  linkFormulaTyped: false,
  /** SQL accepts bound `parameters`. */
  sqlParameters: false,
  /** Export has the `ignore_asset` option. */
  exportAssetOption: false,
  /** Row links in big data (`/dtable-db/api/v1/base/{uuid}/links/`). */
  bigDataLinks: false,
  /** The limits come from one configuration file. */
  limitsConfigFile: false,
  /**
   * What the base-token answer (Get Base-Token with API-Token) names in `dtable_server`: the
   * dtable-server while that family is served, the gateway from 5.3 (its evidence:
   * src/spec/base-token.ts). Both answer `use_api_gateway: true` from 4.4.
   */
  baseTokenServer: 'dtable-server' as 'dtable-server' | 'api-gateway',
  /** Move rows to big data identifies rows by `view_name` (else by a raw SQL `where`). */
  archiveByViewName: false,
  /** Update User / Update Team accept `monthly_automation_limit_per_user`. */
  monthlyAutomationLimitOption: false,
  /** Get User (team admin) has `is_active`, `is_org_admin`. */
  teamAdminUserFlags: false,
  /** List Team Operations / Logins honour `operation_group`|`login_status`, `start`, `end`. */
  teamLogFilters: false,
  /** Get Team Info's scripts field: `scripts_running_total` until 6.1, `scripts_running_limit` from 6.2. */
  scriptsRunningField: 'scripts_running_total' as 'scripts_running_total' | 'scripts_running_limit',
  /** Add a user to several groups (4.1), items search, app status (4.2). */
  addUserToGroups: false,
  itemsSearch: false,
  appStatus: false,
};

export type Behaviour = typeof BASELINE_BEHAVIOUR;

interface Release {
  readonly version: string;
  /** Release date, ISO (the specification writes day.month.year). */
  readonly date: string;
  readonly breaking: readonly string[];
  readonly other: readonly string[];
  /** Clauses whose expected behaviour this release changed. */
  readonly clauses: readonly ClauseId[];
  readonly changes: Partial<Behaviour>;
}

/** Oldest first. */
export const RELEASES: readonly Release[] = [
  {
    version: '3.5', date: '2023-04-12',
    breaking: ['CSV import and append replaced; row comment create and update removed.'],
    other: [],
    clauses: ['GONE-5', 'GONE-6'],
    changes: { legacyCsvAndComments: false },
  },
  {
    version: '4.0', date: '2023-06-27',
    breaking: ['Get Base-Token with Invite-Link removed.'],
    other: ['Many new requests (section 4.2).', 'Bearer authentication supported.'],
    clauses: ['AUTH-2', 'GONE-4', 'GONE-8'],
    changes: { bearerAuth: true, inviteLinkBaseToken: false },
  },
  {
    version: '4.1', date: '2023-08-23',
    breaking: [],
    other: ['New: add user to multiple groups.', 'Unknown select options created on row add and update.', 'Stricter type and structure checks on `/rows/`.', '`row_id` immutable on update.', 'Permission fix on the group members endpoint of an org admin.', 'Filter validation for SQL list.'],
    clauses: ['SHAPE-4', 'SHAPE-6', 'SHAPE-7', 'SQL-2'],
    changes: { addUserToGroups: true, createUnknownSelectOptions: true, strictRowChecks: true, rowIdImmutable: true, sqlFilterValidation: true },
  },
  {
    version: '4.2', date: '2023-11-22',
    breaking: [],
    other: ['New: Python Scheduler category, base export, items search, app status.', 'Deprecated system-admin export calls dropped from documentation.'],
    clauses: ['ACCT-6', 'ACCT-7'],
    changes: { itemsSearch: true, appStatus: true },
  },
  {
    version: '4.3', date: '2024-02-08',
    breaking: [],
    other: ['Create and delete row links in big data added.', 'Export option for assets.', 'New requests (system admin, team admin, user).'],
    clauses: ['ACCT-7'],
    changes: { bigDataLinks: true, exportAssetOption: true },
  },
  {
    version: '4.4', date: '2024-05-15',
    breaking: ['Data-collection-table calls removed.', 'Row get omits `_mtime` and `_ctime` where those column types exist.'],
    other: ['`/api-gateway/` family introduced; old `/dtable-server` and `/dtable-db` endpoints remain valid.', 'Row list loses `order_by` and `direction`.', 'Gateway calls return usage and limits in headers.'],
    clauses: ['GONE-7', 'SHAPE-5', 'ROUTE-6', 'RATE-6'],
    changes: { dataCollectionTables: false, rowGetOmitsTimes: true, gatewayFamily: true, rowListOrderBy: false, rateLimitHeaders: true },
  },
  {
    version: '5.0', date: '2024-07-15',
    breaking: ['Row get and row list: Link returns an array of `display_value` and `row_id` instead of a string.', 'Link Formula returns an integer for a single number and an array for multiple values.'],
    other: ['Row get and list return every column, `null` for undefined values.', 'SQL query supports parameters against injection.', '`/api-gateway/` recommended.'],
    clauses: ['SHAPE-1', 'SHAPE-2', 'SHAPE-3', 'SQL-1'],
    changes: { linkObjects: true, linkFormulaTyped: true, nullForUnset: true, sqlParameters: true },
  },
  { version: '5.1', date: '2024-11-08', breaking: [], other: ['New requests (system admin, user).'], clauses: [], changes: {} },
  {
    version: '5.2', date: '2025-02-25',
    breaking: ['`/dtable-server` and `/dtable-db` deprecated, removal announced for 5.3.'],
    other: ['New requests (base, system admin, team admin).'],
    clauses: ['GONE-2', 'GONE-3'],
    changes: { legacyDeprecated: true },
  },
  {
    version: '5.3', date: '2025-06-16',
    breaking: ['`/dtable-server` and `/dtable-db` removed; all functions move to `/api-gateway`.'],
    other: ['New requests (base, system admin).'],
    clauses: ['GONE-2', 'GONE-3', 'GONE-5', 'GONE-6', 'RATE-7', 'ROUTE-3'],
    changes: { legacyFamilies: false, bigDataLinks: false, limitsConfigFile: true, baseTokenServer: 'api-gateway' },
  },
  {
    version: '6.0', date: '2025-11-04',
    breaking: ['Move Rows to Big Data Backend takes `view_name` instead of a raw SQL query.'],
    other: ['New requests (system admin, team admin).'],
    clauses: ['ACCT-7'],
    changes: { archiveByViewName: true },
  },
  {
    version: '6.1', date: '2026-03-19',
    breaking: ['Get Base-Token with External-Link removed.'],
    other: ['New requests (system admin, team admin).', 'Update User and Update Team gain `monthly_automation_limit_per_user`.', 'Get User (Team Admin) gains `is_active`, `is_org_admin`.', 'List Team Operations gains `operation_group`, `start`, `end`.', 'List Team Logins gains `login_status`, `start`, `end`.'],
    clauses: ['GONE-1', 'GONE-8', 'ACCT-2', 'ACCT-3', 'ACCT-4'],
    changes: { externalLinkBaseToken: false, monthlyAutomationLimitOption: true, teamAdminUserFlags: true, teamLogFilters: true },
  },
  {
    version: '6.2', date: '2026-07-21',
    breaking: ['Get Team Info: response field `scripts_running_total` renamed `scripts_running_limit`.'],
    other: ['New requests (base and user operations).'],
    clauses: ['ACCT-1'],
    changes: { scriptsRunningField: 'scripts_running_limit' },
  },
];

export const NEWEST_VERSION = RELEASES[RELEASES.length - 1]!.version;
/** The oldest release the reference server emulates and the suites judge: the gateway family exists from 4.4. */
const OLDEST_EMULATED_VERSION = '4.4';

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export const KNOWN_VERSIONS: readonly string[] = RELEASES.map((r) => r.version);
export const EMULATED_VERSIONS: readonly string[] = KNOWN_VERSIONS.filter((v) => compareVersions(v, OLDEST_EMULATED_VERSION) >= 0);

export function isEmulatedVersion(v: string): boolean {
  return EMULATED_VERSIONS.includes(v);
}

const cache = new Map<string, Readonly<Behaviour>>();

/** The behaviour of release `version`: every change of every release up to and including it. */
export function behaviourAt(version: string): Readonly<Behaviour> {
  let found = cache.get(version);
  if (!found) {
    if (!KNOWN_VERSIONS.includes(version)) throw new Error(`unknown API version ${version} (known: ${KNOWN_VERSIONS.join(', ')})`);
    const b: Behaviour = { ...BASELINE_BEHAVIOUR };
    for (const r of RELEASES) if (compareVersions(r.version, version) <= 0) Object.assign(b, r.changes);
    found = Object.freeze(b);
    cache.set(version, found);
  }
  return found;
}

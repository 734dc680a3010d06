/**
 * The mutant catalog: known-bad reference servers that prove each check can fail. A mutant
 * is one realistic deviation an implementer could make, switched on by fault switches of
 * the reference server (`ServerOptions.faults`, checked where the behaviour lives). Every
 * clause has at least one; `conformance selftest` runs the suites against each and expects
 * its clause to fail and every other to pass.
 *
 * Fault names: a plain name (`omit-null`) is one `ctx.faults.has('…')` branch; `drop:<id>`
 * unregisters endpoint <id>; `serve:<id>` keeps serving a removed endpoint; `zombie:<clause>`
 * registers an old handler for a removed path the endpoint table does not know
 * (src/server/routes/zombies.ts).
 */
import { ACCOUNTS_MUTANTS } from './catalog-accounts.js';
import { BASE_STRUCTURE_MUTANTS } from './catalog-base-structure.js';
import { CLIENT_MUTANTS } from './catalog-client.js';
import { BASE_RECORDS_MUTANTS } from './catalog-base-records.js';
import { m, type Mutant } from './mutant.js';
import { OPERATIONS_MUTANTS } from './catalog-operations.js';
import { ROBUST_MUTANTS } from './catalog-robust.js';

export type { Mutant };

const CLOUD = { edition: 'cloud' } as const;
const SELF_HOSTED = { edition: 'self-hosted' } as const;

export const MUTANTS: readonly Mutant[] = [
  // Routes
  m(
    'ROUTE-1',
    'delete-missing-404',
    ['delete-missing-404'],
    'Delete Rows answers the generic 404 (the unknown-route answer) when no row matched: to a client the operation does not exist. A 404 in its own words would be the answer of an existing route.',
  ),
  // AUTH-4 and RATE-1 leave a route that answers 404 even with credentials to ROUTE-1/2: one verdict per deviation.
  // ROUTE-8 holds every documented operation to exist, this one among them.
  m(
    'ROUTE-2',
    'plugins-count-missing',
    ['drop:pluginsInstallCount'],
    'List Plugin Installations not implemented: the route answers 404.',
    { alsoFails: ['ROUTE-8'] },
  ),
  m(
    'ROUTE-3',
    'base-token-names-dtable-server',
    ['base-token-names-dtable-server'],
    'Get Base-Token still sends clients to /dtable-server/ instead of the /api-gateway/ family.',
  ),
  m(
    'ROUTE-4',
    'ping-needs-auth',
    ['ping-needs-auth'],
    '/ping/ behind the authentication middleware: 401 without credentials.',
  ),
  // SHAPE-8 holds every documented answer to its fields, the token's among them.
  m(
    'ROUTE-5',
    'auth-token-wrong-field',
    ['auth-token-wrong-field'],
    '/api2/auth-token/ answers {"key": …} (a framework default) instead of {"token": …}.',
    { alsoFails: ['AUTH-1', 'SHAPE-8'] },
  ),
  m('ROUTE-6', 'honour-order-by', ['honour-order-by'], 'Row list still sorts by order_by/direction (removed in 4.4).'),
  m(
    'ROUTE-7',
    'stale-cache',
    ['stale-cache'],
    'Update Rows does not invalidate the base-unchanged check (appends and deletes do): a repeated read after an update serves the rows as they were.',
  ),
  // Removed endpoints
  m(
    'GONE-1',
    'external-link-token-stub',
    ['zombie:GONE-1'],
    'A stub left in place of Get Base-Token with External-Link (removed 6.1) answers any token.',
    { alsoFails: ['GONE-8'] },
  ),
  m(
    'GONE-1',
    'external-link-token-still-served',
    ['serve:externalLinkAccessToken'],
    'The real Get Base-Token with External-Link handler still registered on 6.2: unknown tokens get its own 404 ("External link not found.").',
    { alsoFails: ['GONE-8'] },
  ),
  m(
    'GONE-2',
    'dtable-server-rows-served',
    ['serve:legacyListRows'],
    '/dtable-server/ row list still served (removed 5.3).',
  ),
  m('GONE-3', 'dtable-db-sql-served', ['serve:legacySql'], '/dtable-db/ SQL query still served (removed 5.3).'),
  m(
    'GONE-4',
    'invite-link-token-zombie',
    ['zombie:GONE-4'],
    'Get Base-Token with Invite-Link still answers (removed 4.0).',
    { alsoFails: ['GONE-8'] },
  ),
  m(
    'GONE-5',
    'csv-import-zombie',
    ['zombie:GONE-5'],
    'dtable-server import-csv/append-csv still answer (removed 3.5).',
  ),
  m(
    'GONE-6',
    'comments-zombie',
    ['zombie:GONE-6'],
    'dtable-server row comments create/update still answer (removed 3.5).',
  ),
  m('GONE-7', 'collection-tables-zombie', ['zombie:GONE-7'], 'Data-collection-table calls still answer (removed 4.4).'),
  m(
    'GONE-8',
    'base-token-by-link-zombies',
    ['zombie:GONE-8'],
    'Both removed ways to get a base token by link still answer.',
    { alsoFails: ['GONE-1', 'GONE-4'] },
  ),
  // Column values
  m('SHAPE-1', 'omit-null', ['omit-null'], 'Never-set values omitted from rows instead of null.'),
  m(
    'SHAPE-2',
    'links-as-string',
    ['links-as-string'],
    'Link cells as a comma-joined string of display values (pre-5.0 shape).',
  ),
  m(
    'SHAPE-3',
    'link-formula-as-string',
    ['link-formula-as-string'],
    'Link-formula values as strings instead of an integer or an array.',
  ),
  m(
    'SHAPE-4',
    'drop-unknown-options',
    ['drop-unknown-options'],
    'Unknown select options written by update silently dropped instead of created (option creation lives in the append path only).',
  ),
  m(
    'SHAPE-5',
    'keep-times-in-row-get',
    ['keep-times-in-row-get'],
    'Single-row read keeps _ctime/_mtime although the table has ctime/mtime columns.',
  ),
  m('SHAPE-6', 'id-changeable', ['id-changeable'], "An update may change a row's _id."),
  // SHAPE-7 holds a wrong value to what shows the real service's answer (COLUMNS[type].wrongAccepted): stored as it stores it, or refused writing nothing.
  m(
    'SHAPE-7',
    'lax-types',
    ['lax-types'],
    'The wrong values the real service is recorded coercing are stored as given: a number in a checkbox reads true (recorded: false), an unreadable date keeps its text (recorded: null), a plain string in a multiple-select stays a string (recorded: a list of that option).',
  ),
  // Its only effect is what SHAPE-7 holds as inferred: the selftest reports it as only warned (a failure with --strict).
  m(
    'SHAPE-7',
    'wrong-types-accepted',
    ['wrong-types-accepted'],
    'Values of the wrong type that nothing recorded or documented shows the real service refusing (an object in a text column, a string in a number column, …) are stored as given.',
  ),
  m(
    'SHAPE-7',
    'refused-batch-half-written',
    ['refused-batch-half-written'],
    'An append refused for a row with a wrong value writes the rows before it all the same.',
  ),
  m(
    'SHAPE-7',
    'lax-rows-body',
    ['lax-rows-body'],
    'A row that is not an object is read as an empty row; one object is taken for a list of one.',
  ),
  // ROBUST-1 sends broken JSON to every route, the row routes among them: it fails too, by definition.
  m(
    'SHAPE-7',
    'malformed-json-500',
    ['malformed-json-500'],
    'A malformed JSON body escapes as a 500 instead of a 4xx.',
    { alsoFails: ['ROBUST-1'] },
  ),
  // Size limits
  m('SIZE-1', 'list-no-cap', ['list-no-cap'], 'Row list honours any limit: more than 1,000 rows per call.'),
  m('SIZE-2', 'append-1001', ['append-1001'], 'Append admits 1,001 rows (off-by-one on the limit).'),
  m('SIZE-3', 'update-1001', ['update-1001'], 'Update admits 1,001 rows (off-by-one on the limit).'),
  m(
    'SIZE-4',
    'delete-cap-1000',
    ['delete-cap-1000'],
    'Delete capped at 1,000 rows (the append limit) instead of 10,000.',
  ),
  m('SIZE-4', 'delete-10001', ['delete-10001'], 'Delete admits 10,001 rows (off-by-one on the limit).'),
  m('SIZE-5', 'sql-no-cap', ['sql-no-cap'], 'SQL list returns 10,001 rows (off-by-one on the cap).'),
  m(
    'SIZE-5',
    'sql-no-default-limit',
    ['sql-no-default-limit'],
    'SQL list without LIMIT returns every row (up to the cap) instead of the default 100.',
  ),
  m(
    'SIZE-6',
    'sql-write-cap',
    ['sql-write-cap'],
    'SQL UPDATE/DELETE refused when it touches more than 10,000 rows (the list cap applied to writes).',
  ),
  m(
    'SIZE-7',
    'bulk-calls-weighted',
    ['bulk-calls-weighted'],
    'Maximal calls weigh more than one call: a few in a row are refused with 429 although the rate limit is respected.',
  ),
  // SQL
  m('SQL-1', 'sql-splice', ['sql-splice'], 'SQL parameters spliced into the statement text instead of bound.'),
  m(
    'SQL-1',
    'sql-params-as-text',
    ['sql-params-as-text'],
    'Every SQL parameter bound as text: numeric comparisons go wrong.',
  ),
  m(
    'SQL-2',
    'sql-lax-filter',
    ['sql-lax-filter'],
    'An SQL list with an invalid filter ignores the filter instead of refusing it.',
  ),
  // Authentication
  m(
    'AUTH-1',
    'auth-token-accepts-wrong-password',
    ['auth-token-accepts-wrong-password'],
    '/api2/auth-token/ issues a token to a known user with a wrong password.',
  ),
  m(
    'AUTH-2',
    'bearer-base-tokens-only',
    ['bearer-base-tokens-only'],
    'Bearer accepted on the gateway only; account operations refuse it.',
  ),
  m(
    'AUTH-3',
    'account-base-token-read-only',
    ['account-base-token-read-only'],
    'A base token obtained with an account token is read-only: row writes are refused.',
  ),
  m('AUTH-4', 'base-token-any-base', ['base-token-any-base'], 'A base token for one base opens every base.'),
  // Rate limits
  m(
    'RATE-1',
    'limit-server-info',
    ['limit-server-info'],
    '/server-info/ counted against the account limit and answers 429.',
  ),
  m(
    'RATE-1',
    'create-view-unlimited',
    ['unlimited:createView'],
    "Create View forgot its rate limiter: it answers beyond the base's budget.",
  ),
  m('RATE-2', 'limit-per-ip', ['limit-per-ip'], 'Gateway calls counted per IP instead of per base.'),
  // Also the guard of the exact counts made from other addresses (RATE-5, RATE-7): a burst in a window the default address shares is short by those calls here, and must be tried again alone, not failed.
  m(
    'RATE-2',
    'account-limit-global',
    ['account-limit-global'],
    'Account operations counted in one budget for every source address instead of per address.',
  ),
  m('RATE-3', '429-json-body', ['429-json-body'], '429 carries a JSON error body instead of an empty one.'),
  m(
    'RATE-4',
    'window-never-resets',
    ['window-never-resets'],
    'The counter is not reset when the window rolls over: a key stays refused after x-ratelimit-reset.',
  ),
  // RATE-7 measures the configured limits by counting admissions: an off-by-one limiter misstates them too.
  m('RATE-5', 'limit-plus-one', ['limit-plus-one'], 'The limiter admits limit + 1 calls per window.', {
    alsoFails: ['RATE-7'],
  }),
  m('RATE-6', 'reset-relative', ['reset-relative'], 'x-ratelimit-reset as seconds from now instead of a Unix time.'),
  m(
    'RATE-7',
    'ignore-config',
    ['ignore-config'],
    'The limits configuration file is read but not applied (edition defaults stay).',
    { serverOptions: SELF_HOSTED },
  ),
  m(
    'RATE-8',
    'quota-not-raised',
    ['quota-not-raised'],
    'Cloud: an upgrade does not raise the monthly quota until the next month.',
    { serverOptions: CLOUD },
  ),
  // Account and team operations
  m(
    'ACCT-1',
    'scripts-total-on-6.2',
    ['scripts-total-on-6.2'],
    'Get Team Info still says scripts_running_total on 6.2.',
  ),
  m(
    'ACCT-2',
    'no-automation-limit-option',
    ['no-automation-limit-option'],
    'Update User/Team refuse monthly_automation_limit_per_user.',
  ),
  m('ACCT-3', 'team-user-no-flags', ['team-user-no-flags'], 'Get User (team admin) lacks is_active and is_org_admin.'),
  m('ACCT-4', 'logs-ignore-filters', ['logs-ignore-filters'], 'Team operation and login logs ignore their filters.'),
  m('ACCT-5', 'logo-not-deleted', ['logo-not-deleted'], 'Delete Team Logo answers success but keeps the logo.'),
  m('ACCT-6', 'app-status-ignored', ['app-status-ignored'], 'External app status change answered but not applied.'),
  // SHAPE-8 and BASE-6 make the documented 6.x call (by view_name): refused, its documented answer is not given, no row moves.
  m(
    'ACCT-7',
    'archive-by-sql',
    ['archive-by-sql'],
    'Move rows to big data still takes a raw SQL condition instead of view_name (pre-6.0).',
    { alsoFails: ['SHAPE-8', 'BASE-6'] },
  ),
  // Its mirror image, held to 5.x: the checks send that release's form (a raw SQL condition), which it refuses.
  m(
    'ACCT-7',
    'archive-by-view-name',
    ['archive-by-view-name'],
    'Held to 5.3, move rows to big data already wants view_name (the 6.0 form) and refuses the raw SQL condition.',
    { serverOptions: { apiVersion: '5.3' }, alsoFails: ['SHAPE-8', 'BASE-6'] },
  ),
  m('ACCT-7', 'export-assets-always', ['export-assets-always'], 'Export ignores ignore_asset: assets always go along.'),
  // Events
  m(
    'HOOK-1',
    'webhook-bad-signature',
    ['webhook-bad-signature'],
    'Webhook signature computed over another serialisation than the body sent.',
  ),
  m(
    'HOOK-1',
    'webhook-no-delivery',
    ['webhook-no-delivery'],
    'Webhooks are registered but row changes are never delivered.',
  ),
  ...ACCOUNTS_MUTANTS,
  ...BASE_STRUCTURE_MUTANTS,
  ...CLIENT_MUTANTS,
  ...BASE_RECORDS_MUTANTS,
  ...OPERATIONS_MUTANTS,
  ...ROBUST_MUTANTS,
];

/** Mutants whose id or clause matches a glob list (`RATE-*,sql-*`) or a /regular expression/. */
export function selectMutants(pattern: string | undefined, all: readonly Mutant[] = MUTANTS): Mutant[] {
  if (!pattern) return [...all];
  if (pattern.startsWith('/') && pattern.lastIndexOf('/') > 0) {
    const re = new RegExp(pattern.slice(1, pattern.lastIndexOf('/')), pattern.slice(pattern.lastIndexOf('/') + 1));
    return all.filter((x) => re.test(x.id) || re.test(x.clause));
  }
  const globs = pattern
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map(
      (g) =>
        new RegExp(
          '^' +
            g
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '.*')
              .replace(/\?/g, '.') +
            '$',
          'i',
        ),
    );
  return all.filter((x) => globs.some((re) => re.test(x.id) || re.test(x.clause)));
}

/** Every fault name the catalog uses, once. */
export function catalogFaults(all: readonly Mutant[] = MUTANTS): string[] {
  return [...new Set(all.flatMap((x) => x.faults))].sort();
}

/**
 * The reference server's fault switches, one table: each name turns on one realistic deviation
 * where the behaviour lives (`ctx.faults.has('…')`, or `startupFault('…')` read at start-up);
 * the mutant catalog (src/mutants/catalog*.ts) switches them on. Names outside this table do
 * not compile, in the server or in the catalog. Five switches take an argument: `drop:<endpoint
 * id>` unregisters an endpoint, `refuse:<endpoint id>` answers it 405, `serve:<endpoint id>` keeps serving a removed one,
 * `unlimited:<endpoint id>` exempts one from its rate limiter, `zombie:<clause>` registers an old
 * handler for a removed path (src/server/routes/zombies.ts).
 */
export const FAULTS = [
  '429-json-body',
  'accept-garbage-token',
  'account-base-token-read-only',
  'account-limit-global',
  'anonymous-access',
  'api-token-permission-ignored',
  'api-token-time-as-number',
  'app-status-ignored',
  'app-token-wrong-uuid',
  'append-1001',
  'append-race',
  'archive-by-sql',
  'archive-by-view-name',
  'archive-flags-only',
  'asset-delete-ignored',
  'auth-token-accepts-wrong-password',
  'auth-token-unlimited-on-cloud',
  'auth-token-wrong-field',
  'base-token-any-base',
  'base-token-names-dtable-server',
  'bearer-base-tokens-only',
  'big-rows-to-normal',
  'bulk-calls-weighted',
  'cascade-not-stored',
  'coerce-wrong-types',
  'comment-count-zero',
  'comment-delete-noop',
  'connect-hangs',
  'copy-base-without-tables',
  'create-view-ignores-query-table',
  'deep-json-500',
  'delete-10001',
  'delete-cap-1000',
  'delete-missing-404',
  'deleted-base-still-open',
  'download-as-text',
  'drop-unknown-options',
  'duplicate-without-columns',
  'export-assets-always',
  'honour-order-by',
  'id-changeable',
  'ignore-config',
  'keep-times-in-row-get',
  'lax-rows-body',
  'lax-types',
  'limit-per-ip',
  'limit-plus-one',
  'limit-server-info',
  'link-formula-as-string',
  'links-as-string',
  'list-columns-ignores-view',
  'list-no-cap',
  'lock-rows-noop',
  'logo-not-deleted',
  'logs-ignore-filters',
  'malformed-json-500',
  'multipart-no-boundary-500',
  'no-automation-limit-option',
  'no-rate-headers',
  'omit-computed',
  'omit-null',
  'ping-needs-auth',
  'query-links-ignore-offset',
  'quota-no-reset',
  'quota-not-counted',
  'quota-not-raised',
  'refuse-bearer',
  'refused-batch-half-written',
  'remaining-stuck',
  'rename-column-drops-values',
  'rename-table-drops-rows',
  'reset-relative',
  'resize-column-ignored',
  'scripts-total-on-6.2',
  'select-options-without-ids',
  'sql-lax-filter',
  'sql-metadata-key-renamed',
  'sql-metadata-options-without-ids',
  'sql-no-cap',
  'sql-no-default-limit',
  'sql-normal-rows-only',
  'sql-params-as-text',
  'sql-raw-select-names',
  'sql-splice',
  'sql-write-cap',
  'stale-cache',
  'surrogate-500',
  'team-user-no-flags',
  'temp-api-token-expires-at-once',
  'type-change-keeps-raw',
  'unarchive-noop',
  'unknown-method-501',
  'update-1001',
  'view-shows-hidden-columns',
  'view-sorts-ignored',
  'webhook-bad-signature',
  'webhook-drop-deletes',
  'webhook-no-delivery',
  'window-never-resets',
  'wrong-type-500',
  'wrong-types-accepted',
] as const;

/**
 * Switches whose reach in run setup (outside any check) changes nothing a check can see, so
 * there it selects no check for the selftest (src/mutants/coverage.ts); a check that reaches
 * one itself is selected as always. Each changes only answers, never stored data:
 * - `base-token-names-dtable-server`: a field of the base-token answer the run setup never
 *   reads (it keeps the `access_token`; a check's own base tokens are its own calls);
 * - `reset-relative`: the x-ratelimit-reset header, which the run setup reads only to pace
 *   itself (a wait, never a different answer);
 * - `limit-per-ip`, `account-limit-global`: which rate counter a call counts against. Watched
 *   (or set), the server keeps both counters and reads the switch wherever their admissions differ
 *   (src/server/pipeline/rate.ts), so a later check that meets what run setup counted
 *   reaches the switch itself; in run setup they change only rate headers and 429s, which
 *   it reads to pace itself and to call again.
 */
export const SETUP_INERT: ReadonlySet<FaultName> = new Set<FaultName>([
  'account-limit-global',
  'base-token-names-dtable-server',
  'limit-per-ip',
  'reset-relative',
]);

/**
 * Switches seen only through the response cache, which a run recording coverage bypasses
 * (src/mutants/coverage.ts): the selftest never judges them in a shared run, which records it.
 */
export const SEEN_THROUGH_CACHE: ReadonlySet<FaultName> = new Set<FaultName>(['stale-cache']);

const WITH_ARGUMENT = ['drop', 'refuse', 'serve', 'unlimited', 'zombie'] as const;

export type FaultName = (typeof FAULTS)[number] | `${(typeof WITH_ARGUMENT)[number]}:${string}`;
/** The switches a server runs with. */
export type Faults = ReadonlySet<FaultName>;

const PLAIN: ReadonlySet<string> = new Set(FAULTS);

export function isFaultName(name: string): name is FaultName {
  const colon = name.indexOf(':');
  return colon < 0
    ? PLAIN.has(name)
    : (WITH_ARGUMENT as readonly string[]).includes(name.slice(0, colon)) && colon < name.length - 1;
}

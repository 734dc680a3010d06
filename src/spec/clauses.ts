/**
 * Every testable clause, once, with its text and source: those of the specification
 * (`spec/clauses.md`) and those the project adds for the whole documented API, the official
 * client and malformed input (`spec/clauses-extended.md`, `table: 'extended'`). Suites name
 * these IDs in test titles; reports group by them.
 */
type Family = 'ROUTE' | 'GONE' | 'SHAPE' | 'SIZE' | 'SQL' | 'AUTH' | 'RATE' | 'ACCT' | 'HOOK' | 'BASE' | 'CLIENT' | 'ROBUST';

interface Clause<I extends string = string> {
  readonly id: I;
  readonly family: Family;
  readonly text: string;
  /** Section(s) of base-data-api.md the clause is derived from; for extended clauses, the real service's document. */
  readonly source: string;
  /** `spec`: clauses.md (the specification's own); `extended`: clauses-extended.md (the real service's documented API). */
  readonly table: 'spec' | 'extended';
}

/** Each ID kept as its literal type, so that `ClauseId` is the union of the table's IDs. */
const c = <const I extends `${Family}-${number}`>(id: I, text: string, source: string): Clause<I> => ({ id, family: id.split('-')[0] as Family, text, source, table: 'spec' });
const x = <const I extends `${Family}-${number}`>(id: I, text: string, source: string): Clause<I> => ({ id, family: id.split('-')[0] as Family, text, source, table: 'extended' });

export const CLAUSES = [
  c('ROUTE-1', 'Each base operation of 4.1 exists with its method: rows GET/POST/PUT/DELETE, sql POST, archive-view POST, export GET. "Exists" = not 404 and not 405 for an authorised call.', '4.1'),
  c('ROUTE-2', 'Each account operation of 4.2 exists with its method(s).', '4.2'),
  c('ROUTE-3', 'Account operations live under `/api/v2.1/`, base operations under `/api-gateway/api/v2/`.', '1'),
  c('ROUTE-4', '`/ping` and `/server-info` exist and need no credentials.', '1'),
  c('ROUTE-5', '`/api2/auth-token` issues an account token.', '1, 5.1'),
  c('ROUTE-6', 'Row list takes no `order_by` / `direction`: passing them does not change the order (removed 4.4).', '4.1, 9'),
  c('ROUTE-7', 'Gateway endpoints answer a repeated unchanged request correctly (base-unchanged check must never serve stale rows after a write).', '4.1'),
  c('GONE-1', 'GET `/api/v2.1/external-link-tokens/{token}/access-token/` is not offered (removed 6.1).', '4.4'),
  c('GONE-2', 'No path under `/dtable-server/` is offered (removed 5.3).', '4.4'),
  c('GONE-3', 'No path under `/dtable-db/` is offered, incl. POST/DELETE `/dtable-db/api/v1/base/{uuid}/links/` (removed 5.3).', '4.4'),
  c('GONE-4', 'GET `/api/v2.1/dtable/share-link-access-token/` is not offered (removed 4.0).', '4.4'),
  c('GONE-5', 'POST `/dtable-server/api/v1/dtables/{uuid}/import-csv/` and `/append-csv/` are not offered (removed 3.5).', '4.4'),
  c('GONE-6', 'POST, PUT `/dtable-server/api/v1/dtables/{uuid}/comments/` are not offered (removed 3.5).', '4.4'),
  c('GONE-7', 'Data-collection-table calls are not offered (removed 4.4).', '4.4'),
  c('GONE-8', 'Get Base-Token with invite link (4.0) and with external link (6.1) are not offered.', '5.3, 9'),
  c('SHAPE-1', 'Row get and row list return every column of the table; a value never set is `null`.', '2, 9 (5.0)'),
  c('SHAPE-2', 'Link column: array of objects `{row_id, display_value}`; empty link = `[]` or `null` per SHAPE-1, never a string.', '2, 9 (5.0)'),
  c('SHAPE-3', 'Link Formula: a single number is an integer, several values an array.', '2, 9 (5.0)'),
  c('SHAPE-4', 'Single/multiple select: an unknown option written by append or update is created, and reads back as written.', '2, 9 (4.1)'),
  c('SHAPE-5', 'Single-row read omits `_ctime` / `_mtime` when the base defines creation/modification-time columns.', '2, 9 (4.4)'),
  c('SHAPE-6', '`row_id` (`_id`) cannot be changed by an update.', '4.1, 9 (4.1)'),
  c('SHAPE-7', 'Stricter type checks on `/rows/`: a value of the wrong type or a malformed body is refused with a 4xx, and nothing is written.', '9 (4.1)'),
  c('SIZE-1', 'List rows returns at most 1,000 rows per call (also when a larger `limit` is asked).', '8.5'),
  c('SIZE-2', 'Append accepts 1,000 rows; 1,001 is refused and nothing is written.', '8.5'),
  c('SIZE-3', 'Update accepts 1,000 rows; 1,001 is refused and nothing is written.', '8.5'),
  c('SIZE-4', 'Delete accepts 10,000 rows; 10,001 is refused and nothing is deleted.', '8.5'),
  c('SIZE-5', 'SQL list returns at most 10,000 rows.', '8.5'),
  c('SIZE-6', 'SQL insert/update/delete has no row limit (e.g. an UPDATE touching 20,000 rows succeeds).', '8.5'),
  c('SIZE-7', 'Several maximal calls in a row are allowed while the rate limit is respected.', '8.5'),
  c('SQL-1', 'SQL parameters are bound, never spliced: an injection string passed as a parameter is stored/compared as data.', '4.1, 9 (5.0)'),
  c('SQL-2', 'A SQL list with an invalid filter is refused with a 4xx (filter validation).', '9 (4.1)'),
  c('AUTH-1', '`/api2/auth-token` returns an account token for valid credentials, refuses invalid ones.', '5'),
  c('AUTH-2', '`Authorization: Bearer <token>` is accepted.', '5, 9 (4.0)'),
  c('AUTH-3', 'A base token can be obtained (Get Base-Token) and opens that base\'s row operations.', '5'),
  c('AUTH-4', 'Every endpoint except `/ping`, `/server-info`, `/api2/auth-token` refuses a call without valid credentials (401/403), and a base token for one base opens no other base.', 'implied by 5'),
  c('RATE-1', 'Every endpoint except `/ping` and `/server-info` is rate-limited; those two never answer 429.', '8.1.1'),
  c('RATE-2', 'Calls are counted per base; where no base applies, per IP address. Exhausting base A leaves base B open; exhausting one IP leaves another IP open.', '8.1.2'),
  c('RATE-3', 'Over the limit: status 429 with an empty body.', '7, 8.1.3'),
  c('RATE-4', 'The window is one minute: once `x-ratelimit-reset` has passed, calls are accepted again.', '8.1.4'),
  c('RATE-5', 'Limits per edition: account ops 1000 (cloud) / 3000 (dedicated, self-hosted); base ops 200 / 500; auth-token 60 / unlimited. Exactly the limit is admitted per window, no more, also under concurrent load.', '8.1'),
  c('RATE-6', 'Gateway responses carry `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset` as integers; remaining falls by one per call; reset is a Unix time in seconds in the future, at most a window away.', '8.2, 9 (4.4)'),
  c('RATE-7', 'On dedicated and self-hosted editions the limits come from one configuration file (5.3+).', '8.4'),
  c('RATE-8', 'Cloud edition: a monthly limit, a function of plan and team size, reset each month, raised at once on upgrade.', '8.3'),
  c('ACCT-1', 'Get Team Info has `scripts_running_limit` (6.2+; `scripts_running_total` before).', '2, 9'),
  c('ACCT-2', 'Update User and Update Team accept `monthly_automation_limit_per_user`.', '4.3, 9 (6.1)'),
  c('ACCT-3', 'Get User (team admin) has `is_active` and `is_org_admin`.', '4.3, 9 (6.1)'),
  c('ACCT-4', 'List Team Operations filters by `operation_group`, `start`, `end`; List Team Logins by `login_status`, `start`, `end`.', '4.3, 9 (6.1)'),
  c('ACCT-5', 'Team logo: set, get, delete.', '4.2'),
  c('ACCT-6', 'External app status switches active/inactive.', '3, 4.2'),
  c('ACCT-7', 'Export a base with and without assets; move rows to big data by `view_name` (not raw SQL, 6.0+).', '4.1, 9'),
  c('HOOK-1', 'A change to a base is announced to a registered webhook, so a client need not poll.', '1, 6'),
  // spec/clauses-extended.md
  x('ROUTE-8', 'Every documented operation in scope (base, authentication and file operations, and the account operations clients use to find and open bases) exists with its method and credential: an authorised call is neither the generic 404 nor 405, and a call without credentials is refused.', 'OA62 base_operations, authentication, file_operations, user_account_operations'),
  x('SHAPE-8', 'Each documented answer has the documented fields with the documented types (fields that appear only where a feature is configured may be absent).', 'OA62 response schemas and examples'),
  x('BASE-1', 'Views are stored configuration: a view created with filters, sorts and hidden columns (table_name in the query string) is listed and read back as created; a row list by `view_name` returns exactly the view\'s rows in its order; an update and a delete take effect.', 'OA62 base_operations#listViews, createView, getView, updateView, deleteView, listRows'),
  x('BASE-2', 'Column operations keep the data: a rename keeps every value under the new name; resize, freeze and move change only the column\'s layout; a delete removes that column and its values only; columns are listed (also by view).', 'OA62 base_operations#listColumns, insertColumn, appendColumns, updateColumn, deleteColumn'),
  x('BASE-3', 'A column type change converts the column\'s values (e.g. text to number, number to text, text to single select); select options carry ids, and options can be added, updated and deleted; cascade settings are stored.', 'OA62 base_operations#updateColumn, addSelectOption, updateSelectOption, deleteSelectOption, updateColumnCascade'),
  x('BASE-4', 'A table rename keeps its rows and columns; a duplicated table has the same columns (and rows, when asked).', 'OA62 base_operations#renameTable, duplicateTable'),
  x('BASE-5', 'The linked records of rows (query-links) are listed per row, paginated by offset and limit.', 'OA62 base_operations#listRowLinks'),
  x('BASE-6', 'Big-data rows: rows added with add-archived-rows and rows moved by archive-view live in the big-data store — SQL reads them, the normal row list does not — and unarchive moves them back.', 'OA62 base_operations#addBigDataRows, moveRowsToBigData, moveRowsToNormalBackend, querySQL'),
  x('BASE-7', 'Rows can be locked and unlocked; row comments are created, listed, counted and deleted.', 'OA62 base_operations#lockRows, unlockRows, listRowComments, createRowComment, getRowCommentsCount, deleteComment'),
  x('AUTH-5', 'API tokens have a life cycle: created (201), listed, their permission updated (`r` refuses writes), deleted (the token stops working); a temporary API token opens its base.', 'OA62 authentication#createApiToken, listApiTokens, updateApiToken, deleteApiToken, createTempApiToken'),
  x('ACCT-8', 'Clients find and open bases: account info and workspaces list them; a base created through the API is usable, a copy carries its tables, and a deleted base\'s tokens stop working.', 'OA62 user_account_operations (account info, workspaces, create, copy, delete base)'),
  x('ACCT-9', 'Files of a base: an upload link accepts a file, a download link serves the same bytes, and deleting the asset removes it; the custom folder lists its files.', 'OA62 file_operations'),
  x('CLIENT-1', 'Every public method of the official JavaScript client\'s `Base` class that the target\'s release offers works as the client\'s code and documentation show: called against the target, its result matches what was written.', 'npm `seatable-api` (lib/base.js)'),
  x('ROBUST-1', 'A malformed body — broken JSON, a wrong content type, multipart without a boundary or with an unterminated part, urlencoded garbage — never gets a 5xx, a reset or a hang, and a refused one writes nothing; it is refused with a 4xx and an error body, or accepted as the server reads it (a warning).', 'RFC 9110 §15.5, §15.6 (what every server owes); error bodies api-shapes §8'),
  x('ROBUST-2', 'A JSON value of the wrong type at a documented field never gets a 5xx, a reset or a hang, and a refused one writes nothing; it is refused with a 4xx and an error body, or accepted as the server reads it (a warning: "accepted a value of the wrong type").', 'RFC 9110 §15.5, §15.6 (what every server owes); OA62 request schemas'),
  x('ROBUST-3', 'A body nested deeper than the target accepts, or larger than its size limit, never gets a 5xx, a reset or a hang; it is refused with 400, 413 or 431 (else a warning), and a refused one writes nothing.', 'RFC 9110 §15.5.1, §15.5.14, RFC 6585 §5'),
  x('ROBUST-4', 'Unicode edge cases (NUL, lone surrogates, 10,000-character names) get a 4xx or are stored and read back exactly — never a 5xx.', 'api-shapes §8'),
  x('ROBUST-5', 'A request with an unknown method (`CONNECT`, `TRACE`, `PROPFIND`) gets 400, 405 (with `Allow`) or 501 (else a warning), never another 5xx, a reset or a hang.', 'RFC 9110 §15.5.1, §15.5.6, §15.6.2'),
  x('ROBUST-6', 'Concurrent writers lose nothing and duplicate nothing: rows acknowledged to concurrent appenders are exactly the rows listed and counted by SQL; of concurrent creates of one table name exactly one wins.', 'OA62 base_operations#appendRows, createTable'),
] as const satisfies readonly Clause[];

export type ClauseId = (typeof CLAUSES)[number]['id'];

const BY_ID: ReadonlyMap<string, Clause> = new Map(CLAUSES.map((cl) => [cl.id, cl]));

export function clause(id: ClauseId): Clause {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown clause ${id}`);
  return found;
}

export function isClauseId(id: string): id is ClauseId {
  return BY_ID.has(id);
}

/** Clause IDs matching a pattern such as `RATE-*`, `SHAPE-1,SIZE-*` or a regular expression `/^RATE-[1-3]$/`. */
export function matchClauses(pattern: string): ClauseId[] {
  const ids: ClauseId[] = CLAUSES.map((cl) => cl.id);
  if (pattern.startsWith('/') && pattern.lastIndexOf('/') > 0) {
    const re = new RegExp(pattern.slice(1, pattern.lastIndexOf('/')), pattern.slice(pattern.lastIndexOf('/') + 1));
    return ids.filter((id) => re.test(id));
  }
  const globs = pattern.split(',').map((p) => p.trim()).filter(Boolean);
  const toRe = (g: string) => new RegExp('^' + g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', 'i');
  return ids.filter((id) => globs.some((g) => toRe(g).test(id)));
}

/**
 * Calling any endpoint of the ENDPOINTS table with harmless values, for checks that look only
 * at how a call is answered: whether the route exists (ROUTE-8), how it refuses a stranger
 * (AUTH-4), whether it is rate-limited (RATE-1). Each of those may be let through by a
 * faulty target, so the probe itself must change nothing outside the run's scratch space.
 * The rule, in one place:
 *
 * 1. The base, workspace and team the descriptor names are real (the route must be reached),
 *    except where the operation acts on that whole thing and nothing narrower can be aimed
 *    at: then the path names a base (or a team) that does not exist (WHOLE, below).
 * 2. Everything narrower — a table, view, row, column, comment, notification, operation,
 *    webhook, app, API token, user, file, a base by name — names nothing that exists; a name
 *    a write would create carries the run's prefix (swept at the end of the run).
 * 3. Bodies carry no field that would change a whole base, team or account, and a write that
 *    would create something gets a body the target must refuse (createTable, createBase).
 */
import { createHash } from 'node:crypto';
import { fillPath, type Endpoint } from '../spec/index.js';
import type { RunState } from './state.js';
import type { Auth, CallOptions } from './target.js';

/**
 * Rows that act on a whole base or team when let through, with no narrower parameter to aim
 * at nothing: delete or mark every notification of the base, snapshot the base, toast its
 * users; replace or delete the team's logo, add a user to it, change the team itself.
 */
const WHOLE_BASE = new Set([
  'deleteBaseNotifications',
  'markBaseNotificationsAsSeen',
  'createSnapshot',
  'sendToastNotification',
]);
const WHOLE_TEAM = new Set(['setTeamLogo', 'deleteTeamLogo', 'addTeamUser', 'updateTeam']);

const NO_SUCH_ID = 999_999_999;

/** A base UUID no target has: derived from the run id, so a probe's calls are reproducible within the run. */
export function nowhereBase(state: RunState): string {
  const h = createHash('sha256').update(`conformance-nowhere-${state.runId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function placeholderValues(state: RunState, base = 0, ep?: Endpoint): Record<string, string | number> {
  const t = state.target;
  const b = t.bases[base] ?? t.bases[0]!;
  return {
    base_uuid: ep && WHOLE_BASE.has(ep.id) ? nowhereBase(state) : b.uuid,
    workspace_id: t.workspace_id ?? 1,
    org_id: ep && WHOLE_TEAM.has(ep.id) ? NO_SUCH_ID : (t.org_id ?? 1),
    // Names and numbers nothing in a real account carries.
    base_name: `${state.tablePrefix}no-such-base`,
    username: 'conformance-no-such-user@example.invalid',
    user_id: 'conformance-no-such-user@auth.local',
    app_token: 'conformance-no-such-app-token',
    app_name: 'conformance-no-such-app',
    webhook_id: NO_SUCH_ID,
    row_id: 'AAAAAAAAAAAAAAAAAAAAAA',
    external_link_token: 'conformance00000000000',
    view_name: 'conformance-no-such-view',
    comment_id: NO_SUCH_ID,
    notification_id: NO_SUCH_ID,
    op_id: NO_SUCH_ID,
    upload_link: '00000000-0000-4000-8000-000000000000',
  };
}

/** Why a probe cannot count against the run's own base (RATE-1 needs that): its path names no base. */
export function aimsElsewhere(ep: Endpoint): string | undefined {
  return WHOLE_BASE.has(ep.id)
    ? `${ep.method} ${ep.path} acts on the whole base: its probe names a base that does not exist (src/harness/probe.ts), so it cannot spend the base's budget`
    : undefined;
}

/** The credential an endpoint needs, as the harness presents it. */
export function credentialFor(ep: Endpoint, base = 0): Auth {
  switch (ep.credential) {
    case 'base-token':
      return { base };
    case 'api-token':
      return { api: base };
    case 'none':
    case 'external-link':
    case 'upload-link':
      return 'none';
    default:
      return 'account';
  }
}

/** Values of required query parameters (and the row list's page size), naming nothing. */
function probeQuery(ep: Endpoint, state: RunState): Record<string, string | number> | undefined {
  const nothing: Record<string, string | number> = {
    table_name: `${state.tablePrefix}probe`,
    table_id: `${state.tablePrefix}probe`,
    view_id: 'conformance-no-such-view',
    row_id: 'AAAAAAAAAAAAAAAAAAAAAA',
    path: `/files/2000-01/${state.tablePrefix}no-such-file.txt`,
    name: `${state.tablePrefix}no-such-file.txt`,
    dtable_name: `${state.tablePrefix}no-such-base`,
    'ret-json': 1,
  };
  const q: Record<string, string | number> = {};
  for (const p of ep.params ?? [])
    if (p.in === 'query' && p.required && nothing[p.name] !== undefined) q[p.name] = nothing[p.name]!;
  if (ep.id === 'listRows') q.limit = 1;
  return Object.keys(q).length ? q : undefined;
}

/** A body valid in form that names nothing existing outside the run's prefix (rules 2 and 3 above). */
function probeBody(ep: Endpoint, state: RunState): unknown {
  if (ep.method === 'GET') return undefined;
  const table = `${state.tablePrefix}probe`;
  const noBase = `${state.tablePrefix}no-such-base`;
  switch (ep.id) {
    case 'querySql':
    case 'legacySql':
      return { sql: `SELECT * FROM \`${table}\` LIMIT 1`, convert_keys: true };
    // `columns` of the wrong type: the target must refuse the table rather than create it.
    case 'createTable':
      return { table_name: table, columns: 'conformance: not a list' };
    case 'authToken':
      return undefined;
    // No name, and a workspace that does not exist: nothing to create.
    case 'createBase':
      return { workspace_id: NO_SUCH_ID };
    case 'copyBaseFromWorkspace':
      return { src_workspace_id: NO_SUCH_ID, dst_workspace_id: NO_SUCH_ID, name: noBase };
    case 'deleteBase':
      return { name: noBase };
  }
  if (ep.credential === 'base-token')
    return {
      table_name: table,
      rows: [],
      updates: [],
      row_ids: [],
      view_name: 'conformance-no-such-view',
      columns: [],
    };
  return {};
}

/** A call of `ep` with harmless values; `auth` overrides the endpoint's own credential. */
export function probeCall(
  ep: Endpoint,
  state: RunState,
  o: { base?: number; auth?: Auth } & Partial<CallOptions> = {},
): CallOptions {
  const { base = 0, auth, ...rest } = o;
  const call: CallOptions = {
    method: ep.method,
    path: fillPath(ep.path, placeholderValues(state, base, ep)),
    auth: auth ?? credentialFor(ep, base),
    json: probeBody(ep, state),
    query: probeQuery(ep, state),
  };
  // A refused login (an account that does not exist): the token call exists, nothing is issued.
  if (ep.id === 'authToken')
    call.form = { username: 'conformance-no-such-user@example.invalid', password: 'conformance-wrong-password' };
  return { ...call, ...rest };
}

/**
 * Path values that name nothing but the run's own base: a malformed request that a broken
 * target wrongly accepts then finds no workspace, team, user, token or webhook to change.
 * The base stays real (its scratch tables are the run's), so the request reaches its body.
 */
export function nowhereValues(state: RunState, base = 0): Record<string, string | number> {
  return {
    ...placeholderValues(state, base),
    workspace_id: 999_999_999,
    org_id: 999_999_999,
    base_name: 'conformance-no-such-base',
    username: 'conformance-nobody@example.invalid',
    user_id: 'conformance-nobody@example.invalid',
  };
}

/**
 * Operations whose effect reaches past the run's scratch space and whose target no path value
 * can point at nothing: a malformed request to them that a broken target accepted would change
 * the account, the team or the whole base. Checks that send requests meant to be refused leave
 * them out, saying why.
 */
export const UNSCOPED_WRITES: Readonly<Record<string, string>> = {
  createBase: 'creates a base in the account',
  copyBaseFromWorkspace: 'copies a base within the account',
  updateTeamInfo: "renames the account's team",
  deleteBaseNotifications: 'deletes every notification of the base',
  markBaseNotificationsAsSeen: 'marks every notification of the base as seen',
  createSnapshot: 'takes a snapshot of the whole base',
  sendToastNotification: "shows a notification to the base's users",
};

/** Harmless values of a field by name and type: the scratch table where a table is named, names of the run's prefix, numbers and ids naming nothing. */
function harmlessValue(name: string, type: string, scratch: { name: string; id?: string }, prefix: string): unknown {
  if (name === 'table_name') return scratch.name;
  if (name === 'table_id' || name === 'other_table_id') return scratch.id ?? 'conformance-no-such-table';
  if (name === 'sql') return `SELECT * FROM \`${scratch.name}\` LIMIT 1`;
  if (name === 'username' || name === 'email') return 'conformance-nobody@example.invalid';
  if (name === 'type') return 'table';
  if (name === 'column_type') return 'text';
  if (name === 'op_type') return 'rename_column';
  switch (type) {
    case 'integer':
    case 'number':
      return 999_999_999;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return `${prefix}none`;
  }
}

/** The otherwise valid body a wrong value goes into: every required field, and the table fields, harmless. */
export function harmlessBody(
  ep: Endpoint,
  scratch: { name: string; id?: string },
  prefix: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of ep.params ?? []) {
    if (p.in !== 'json' && p.in !== 'form' && p.in !== 'multipart') continue;
    if (p.type === 'file' || !(p.required || /^(other_)?table_(name|id)$/.test(p.name))) continue;
    out[p.name] = harmlessValue(p.name, p.type, scratch, prefix);
  }
  return out;
}

/** The required query parameters of a row, harmless (text: every value as a string). */
export function harmlessQuery(
  ep: Endpoint,
  scratch: { name: string; id?: string },
  prefix: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of ep.params ?? [])
    if (p.in === 'query' && (p.required || p.name === 'table_name'))
      out[p.name] = String(harmlessValue(p.name, p.type, scratch, prefix));
  return out;
}

/**
 * Calling any endpoint of the ENDPOINTS table with harmless placeholder values, for checks
 * that look only at how a call is refused (AUTH-4: 401/403; RATE-1: 429). Path values come
 * from the descriptor where it has them; bodies name a table of the run's own prefix, so
 * even a call that is wrongly let through touches nothing but the run's scratch space.
 */
import { fillPath, type Endpoint } from '../spec/index.js';
import type { RunState } from './state.js';
import type { Auth, CallOptions } from './target.js';

export function placeholderValues(state: RunState, base = 0): Record<string, string | number> {
  const t = state.target;
  const b = t.bases[base] ?? t.bases[0]!;
  return {
    base_uuid: b.uuid,
    base_name: b.name,
    workspace_id: t.workspace_id ?? 1,
    org_id: t.org_id ?? 1,
    username: t.username ?? 'nobody@example.invalid',
    user_id: t.username ?? 'nobody@example.invalid',
    app_token: 'conformance-no-such-app-token',
    app_name: 'conformance-no-such-app',
    webhook_id: 999_999_999,
    row_id: 'AAAAAAAAAAAAAAAAAAAAAA',
    external_link_token: 'conformance00000000000',
    // Names and numbers nothing in a real base carries.
    view_name: 'conformance-no-such-view',
    comment_id: 999_999_999,
    notification_id: 999_999_999,
    op_id: 999_999_999,
    upload_link: 'conformance-no-such-upload-link',
  };
}

/** The credential an endpoint needs, as the harness presents it. */
export function credentialFor(ep: Endpoint, base = 0): Auth {
  switch (ep.credential) {
    case 'base-token': return { base };
    case 'api-token': return { api: base };
    case 'none': case 'external-link': case 'upload-link': return 'none';
    default: return 'account';
  }
}

/** A body that is valid in form but names nothing that exists outside the run's prefix. */
export function probeBody(ep: Endpoint, state: RunState): unknown {
  if (ep.method === 'GET') return undefined;
  const table = `${state.tablePrefix}probe`;
  if (ep.id === 'querySql' || ep.id === 'legacySql') return { sql: `SELECT * FROM \`${table}\` LIMIT 1`, convert_keys: true };
  if (ep.credential === 'base-token') return { table_name: table, rows: [], updates: [], row_ids: [], view_name: 'conformance-no-such-view', columns: [] };
  return {};
}

/** A call of `ep` with placeholder values; `auth` overrides the endpoint's own credential. */
export function probeCall(ep: Endpoint, state: RunState, o: { base?: number; auth?: Auth } & Partial<CallOptions> = {}): CallOptions {
  const { base = 0, auth, ...rest } = o;
  return {
    method: ep.method,
    path: fillPath(ep.path, placeholderValues(state, base)),
    auth: auth ?? credentialFor(ep, base),
    json: probeBody(ep, state),
    query: ep.id === 'listRows' ? { table_name: `${state.tablePrefix}probe`, limit: 1 } : undefined,
    ...rest,
  };
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
  updateTeamInfo: 'renames the account\'s team',
  deleteBaseNotifications: 'deletes every notification of the base',
  markBaseNotificationsAsSeen: 'marks every notification of the base as seen',
  createSnapshot: 'takes a snapshot of the whole base',
  sendToastNotification: 'shows a notification to the base\'s users',
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
    case 'integer': case 'number': return 999_999_999;
    case 'boolean': return false;
    case 'array': return [];
    case 'object': return {};
    default: return `${prefix}none`;
  }
}

/** The otherwise valid body a wrong value goes into: every required field, and the table fields, harmless. */
export function harmlessBody(ep: Endpoint, scratch: { name: string; id?: string }, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of ep.params ?? []) {
    if (p.in !== 'json' && p.in !== 'form' && p.in !== 'multipart') continue;
    if (p.type === 'file' || !(p.required || /^(other_)?table_(name|id)$/.test(p.name))) continue;
    out[p.name] = harmlessValue(p.name, p.type, scratch, prefix);
  }
  return out;
}

/** The required query parameters of a row, harmless (text: every value as a string). */
export function harmlessQuery(ep: Endpoint, scratch: { name: string; id?: string }, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of ep.params ?? []) if (p.in === 'query' && (p.required || p.name === 'table_name')) out[p.name] = String(harmlessValue(p.name, p.type, scratch, prefix));
  return out;
}

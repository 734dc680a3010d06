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

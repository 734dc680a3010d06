/**
 * The whole documented API exists (ROUTE-8), generated from the endpoint table: for every row
 * documented in the real service's OpenAPI files (`openapi`) that the run's release offers,
 * one call with its credential and harmless values (src/harness/probe.ts: it names nothing
 * that exists outside the run's prefix, or a base or team that does not exist where the
 * operation acts on the whole of one) is neither the target's generic 404 nor 405, and the
 * same call without credentials is refused with 401 or 403.
 *
 * The upload (POST /seafhttp/upload-api/{link}) carries its credential in the link: the
 * authorised call goes to a link an upload-link call answered, "without credentials" to the
 * same path with a link token the target never issued; both send no file, which the target
 * must refuse, so nothing is uploaded.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS, offeredAt, type Endpoint } from '../src/spec/index.js';
import { routeMissing } from '../src/harness/notfound.js';
import { probeCall } from '../src/harness/probe.js';
import type { RunState } from '../src/harness/state.js';
import type { CallOptions, Target } from '../src/harness/target.js';
import { uploadLink } from '../src/harness/uploads.js';
import { clause, expect, needsAccount, needsAdmin, test } from '../src/harness/test.js';

const DOCUMENTED = ENDPOINTS.filter((e) => e.openapi);

/** Skip, with the reason, where the descriptor has no credential of the kind the row needs. */
function needsCredential(state: RunState, ep: Endpoint): void {
  if (ep.credential === 'account' || ep.credential === 'admin' || ep.credential === 'team-admin') needsAccount(state);
  if (ep.credential === 'admin' || ep.credential === 'team-admin') needsAdmin(state);
}

async function uploadProbe(target: Target, state: RunState): Promise<{ authorised: CallOptions; stranger: CallOptions }> {
  const link = await uploadLink(target, ['asset', 'custom']);
  // No `file`: a body the target must refuse, so nothing is uploaded.
  const form = () => {
    const f = new FormData();
    f.append('parent_dir', link.parentDir);
    f.append('relative_path', `${state.tablePrefix}probe`);
    return f;
  };
  const never = link.at.replace(/[^/]+\/?$/, randomUUID());
  return {
    authorised: { method: 'POST', path: link.at, query: { 'ret-json': 1 }, multipart: form(), auth: 'none' },
    stranger: { method: 'POST', path: never, query: { 'ret-json': 1 }, multipart: form(), auth: 'none' },
  };
}

for (const ep of DOCUMENTED) {
  test(...clause('ROUTE-8', `${ep.operation}: ${ep.method} ${ep.path} exists, with its credential (${ep.credential})`, 'compat'), async ({ target, state }) => {
    test.skip(!offeredAt(ep, state.apiVersion), `not offered by release ${state.apiVersion}`);
    needsCredential(state, ep);
    const { authorised, stranger } = ep.credential === 'upload-link'
      ? await uploadProbe(target, state)
      : { authorised: probeCall(ep, state), stranger: probeCall(ep, state, { auth: 'none' }) };
    const r = await target.call({ ...authorised, expect: [400, 401, 403, 404, 405] });
    const missing = await routeMissing(target, r, authorised.path, authorised.auth, ep.path);
    expect(missing, `${ep.method} ${authorised.path} with its credential: ${missing} — the documented operation must exist`).toBeUndefined();
    if (ep.credential === 'none') {
      test.info().annotations.push({ type: 'note', description: `${ep.operation} takes no credential: nothing to refuse` });
      return;
    }
    const anon = await target.call({ ...stranger, expect: [401, 403, 404] });
    const how = ep.credential === 'upload-link' ? 'with an upload link the target never issued' : 'without credentials';
    expect(anon.status === 401 || anon.status === 403, `${ep.method} ${stranger.path} ${how} answered ${anon.status}: ${anon.text.slice(0, 120)} — must be refused with 401 or 403`).toBe(true);
  });
}

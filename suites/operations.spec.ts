/**
 * The whole documented API exists (ROUTE-8), generated from the endpoint table: for every row
 * documented in the real service's OpenAPI files (`openapi`) that the run's release offers,
 * one call with its credential and harmless values (src/harness/probe.ts: it names nothing
 * that exists outside the run's prefix, or a base or team that does not exist where the
 * operation acts on the whole of one) is neither the target's generic 404 nor 405, and the
 * same call without credentials is refused with 401 or 403. One check per group of
 * operations (src/harness/answers/groups.ts), its operations probed a few at a time.
 *
 * The upload (POST /seafhttp/upload-api/{link}) carries its credential in the link: the
 * authorised call goes to a link an upload-link call answered, "without credentials" to the
 * same path with a link token the target never issued; both send no file, which the target
 * must refuse, so nothing is uploaded.
 */
import { randomUUID } from 'node:crypto';
import { offeredAt, type Endpoint } from '../src/spec/index.js';
import { GROUPS, pooled, settleGroup, settleOne, Skip, type OpResult } from '../src/harness/answers/index.js';
import { ACCOUNT, ADMIN } from '../src/harness/answers/calls.js';
import { routeMissing } from '../src/harness/notfound.js';
import { probeCall } from '../src/harness/probe.js';
import type { RunState } from '../src/harness/state.js';
import type { CallOptions, Target } from '../src/harness/target.js';
import { uploadLink } from '../src/harness/uploads.js';
import { clause, expect, test, ev } from '../src/harness/test.js';

/** Why the descriptor cannot present the credential the row needs (undefined: it can). */
function missingCredential(state: RunState, ep: Endpoint): string | undefined {
  if (ep.credential === 'admin' || ep.credential === 'team-admin') return ADMIN(state);
  if (ep.credential === 'account') return ACCOUNT(state);
  return undefined;
}

async function uploadProbe(
  target: Target,
  state: RunState,
): Promise<{ authorised: CallOptions; stranger: CallOptions }> {
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

async function probeOperation(ep: Endpoint, target: Target, state: RunState): Promise<'pass' | 'fail'> {
  if (!offeredAt(ep, state.apiVersion)) throw new Skip(`not offered by release ${state.apiVersion}`);
  const cannot = missingCredential(state, ep);
  if (cannot) throw new Skip(cannot);
  const { authorised, stranger } =
    ep.credential === 'upload-link'
      ? await uploadProbe(target, state)
      : { authorised: probeCall(ep, state), stranger: probeCall(ep, state, { auth: 'none' }) };
  const r = await target.call({ ...authorised, expect: [400, 401, 403, 404, 405] });
  const missing = await routeMissing(target, r, authorised.path, authorised.auth, ep.path);
  if (missing) {
    expect
      .soft(
        missing,
        `${ep.operation}: ${ep.method} ${authorised.path} with its credential ${missing} — the documented operation must exist`,
      )
      .toBeUndefined();
    return 'fail';
  }
  if (ep.credential === 'none') return 'pass'; // open by design (the token call): nothing to refuse
  const anon = await target.call({ ...stranger, expect: [401, 403, 404] });
  if (anon.status === 401 || anon.status === 403) return 'pass';
  const how = ep.credential === 'upload-link' ? 'with an upload link the target never issued' : 'without credentials';
  expect
    .because(
      ev.documented(
        'OA62 security of each operation in scope (AccountTokenAuth, ApiTokenAuth, BaseTokenAuth): a call without it is refused — 403 "missing or invalid base token" (OA62 base_operations#getRow), 401/403 from the account operations (recorded: seatable/openapi tests/test_auth_errors.py, api-shapes §1.7)',
      ),
    )
    .soft(
      anon.status,
      `${ep.operation}: ${ep.method} ${stranger.path} ${how} answered ${anon.status}: ${anon.text.slice(0, 120)} — must be refused with 401 or 403`,
    )
    .toBe(403);
  return 'fail';
}

for (const group of GROUPS) {
  test(
    ...clause(
      'ROUTE-8',
      `${group.name}: each documented operation exists with its method and credential (${group.endpoints.length} operations)`,
      ev.documented(
        "OA62 base_operations, authentication, file_operations, user_account_operations: each operation's path and method (spec/openapi-operations.json)",
      ),
    ),
    async ({ target, state }) => {
      const results = await pooled(
        group.endpoints,
        4,
        async (ep) => [ep, await settleOne(() => probeOperation(ep, target, state))] as [Endpoint, OpResult],
      );
      settleGroup(results);
    },
  );
}

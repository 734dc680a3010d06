/**
 * Removed endpoints (GONE-*), generated from the facts module's REMOVED table: each probe
 * must answer 404 to every method, with and without credentials, exactly as a path that
 * never existed does (also in its rate-limit headers, so nothing reveals that it exists).
 */
import { randomUUID } from 'node:crypto';
import { ALL_METHODS, REMOVED, compareVersions } from '../src/spec/index.js';
import { clause, expect, test, ev } from '../src/harness/test.js';
import type { Auth, Target } from '../src/harness/target.js';
import { controlPath, sameBody } from '../src/harness/notfound.js';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

function fill(probe: string, target: Target, token: string): string {
  return probe
    .replace('{base_uuid}', target.base(0).uuid)
    .replace('{token}', token)
    .replace('{uuid_token}', randomUUID());
}

/** The credential such a path once took: base tokens for the old base families, the account token elsewhere. */
const credentialFor = (path: string): Auth => (path.startsWith('/dtable-') ? { base: 0 } : 'account');

for (const removed of REMOVED) {
  for (const probe of removed.probes) {
    test(
      ...clause(
        removed.clause,
        `${probe.split('?')[0]} answers 404 to every method, with and without credentials (removed ${removed.removed})`,
        ev.spec(
          '4.4 ("Removed endpoints (must not be offered)"), 5.3, 9; spec/clauses.md GONE: "must not be offered (404 for every method)", absent with or without credentials',
        ),
      ),
      async ({ target, state }) => {
        test.skip(
          compareVersions(state.apiVersion, removed.removed) < 0,
          `removed in ${removed.removed}; the run holds the target to ${state.apiVersion}`,
        );
        const path = fill(probe, target, 'a1b2c3d4e5f6a7b8c9d0');
        const controlAt = controlPath(path);
        const control = await target.call({ path: controlAt, expect: [401, 403, 404] });
        for (const auth of ['none', credentialFor(path)] as Auth[]) {
          for (const method of ALL_METHODS) {
            const r = await target.call({
              method,
              path,
              auth,
              json: method === 'GET' ? undefined : {},
              expect: [401, 403, 404, 405],
              raw429: false,
            });
            const label = `${method} ${path.split('?')[0]} ${auth === 'none' ? 'without' : 'with'} credentials`;
            expect
              .soft(
                r.status,
                `${label}: answered ${r.status}${r.status >= 300 && r.status < 400 ? ` → ${r.header('location')}` : ''}, must be 404`,
              )
              .toBe(404);
            if (r.status === 404 && control.status === 404) {
              // A route still registered answers its own 404 ("External link not found."); a
              // removed one answers the server's generic 404, as the control path does.
              expect
                .soft(
                  sameBody(r.text, path, control.text, controlAt),
                  `${label}: its 404 body ${JSON.stringify(r.text.slice(0, 120))} differs from the 404 of a path that never existed (${JSON.stringify(control.text.slice(0, 120))}) — the route still answers`,
                )
                .toBe(true);
            }
            for (const h of RATE_HEADERS) {
              expect
                .because(
                  ev.spec(
                    '4.4; spec/clauses.md GONE note: a removed endpoint "must not be counted against a rate limit in a way that reveals it exists" — rate-limit headers a path that never existed does not get reveal it',
                  ),
                )
                .soft(
                  h in r.headers,
                  `${label}: header ${h} ${h in r.headers ? 'present' : 'absent'}, unlike a path that never existed — it reveals the route`,
                )
                .toBe(h in control.headers);
            }
          }
        }
      },
    );
  }
}

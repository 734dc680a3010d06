/**
 * The removed endpoints (GONE-*, src/spec/removed.ts), as the suite probes them: each probe
 * path with GET and POST, with and without the credential it once took. A removed route answers
 * like a path that never existed; one still served, or a stub left in its place, answers
 * otherwise — in its status, its body or its headers. The 404 body is compared as a value (with
 * the path blanked, as GONE's checks do): the server's generic one is the same on every path.
 */
import { randomUUID } from 'node:crypto';
import type { Auth } from '../harness/target.js';
import { compareVersions, REMOVED } from '../spec/index.js';
import type { Exchange } from './exchange.js';
import { exchangeOf, sampleOf } from './normalise.js';
import type { Side } from './side.js';

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0';
/** The credential such a path once took: base tokens for the old base families, the account token elsewhere. */
const credentialFor = (path: string): Auth => (path.startsWith('/dtable-') ? { base: 0 } : 'account');

export async function removedSequence(side: Side): Promise<Exchange[]> {
  const { target, state } = side;
  const out: Exchange[] = [];
  const n = { prefix: state.tablePrefix, keys: side.columnKeys };
  for (const removed of REMOVED) {
    if (compareVersions(state.apiVersion, removed.removed) < 0) continue;
    for (const probe of removed.probes) {
      const path = probe
        .replace('{base_uuid}', target.base(0).uuid)
        .replace('{token}', TOKEN)
        .replace('{uuid_token}', randomUUID());
      const template = probe.split('?')[0]!;
      for (const method of ['GET', 'POST'] as const) {
        for (const auth of ['none', credentialFor(path)] as Auth[]) {
          const way = auth === 'none' ? 'anonymous' : 'authorised';
          const r = await target.call({
            method,
            path,
            auth,
            json: method === 'GET' ? undefined : {},
            expect: [401, 403, 404, 405],
          });
          const x = exchangeOf(
            {
              ref: `removed/${removed.clause}${template.replace(/\/$/, '')}/${method}/${way}`,
              operation: `removed:${removed.clause}`,
              method,
              path: template,
            },
            r,
            n,
          );
          // The body with the path blanked, so the generic 404 reads the same on every path and every side.
          out.push({
            ...x,
            values: { ...x.values, body: sampleOf(r, n, r.text.split(path.split('?')[0]!).join('<path>')) },
          });
        }
      }
    }
  }
  return out;
}

/**
 * The documented operations in scope (endpoint rows with `openapi`), grouped by concern as
 * the endpoint table's own files group them. ROUTE-8 and SHAPE-8 make one check per group
 * (about a hundred operations: a check each would cost the run more than the calls do);
 * each operation is still judged on its own — its violation names it, and an operation that
 * could not be judged, or does not apply, is annotated with why.
 */
import type { Endpoint } from '../../spec/index.js';
import { ACCOUNT } from '../../spec/endpoints/account.js';
import { ADMIN } from '../../spec/endpoints/admin.js';
import { AUTH } from '../../spec/endpoints/auth.js';
import { FILES } from '../../spec/endpoints/files.js';
import { GATEWAY_OTHER } from '../../spec/endpoints/gateway-other.js';
import { GATEWAY_ROWS } from '../../spec/endpoints/gateway-rows.js';
import { GATEWAY_STRUCTURE } from '../../spec/endpoints/gateway-structure.js';
import { Undecided } from '../outcome.js';
import { test } from '../test.js';

interface Group {
  readonly name: string;
  readonly endpoints: readonly Endpoint[];
}

const documented = (rows: readonly Endpoint[]) => rows.filter((e) => e.openapi);

export const GROUPS: readonly Group[] = [
  { name: 'rows, SQL and row locks', endpoints: documented(GATEWAY_ROWS) },
  { name: 'base structure: metadata, tables, views, columns, options', endpoints: documented(GATEWAY_STRUCTURE) },
  { name: 'links, big data, comments, notifications, logs, snapshots', endpoints: documented(GATEWAY_OTHER) },
  { name: 'tokens and account info', endpoints: documented(AUTH) },
  { name: 'account: search, apps, webhooks, workspaces, bases, import and export', endpoints: documented(ACCOUNT) },
  { name: 'team and system administration', endpoints: documented(ADMIN) },
  { name: 'files and the custom folder', endpoints: documented(FILES) },
];

/** How one operation of a group came out. Violations are recorded by the suites' `expect.soft` as they happen. */
export type OpResult =
  { kind: 'pass' } | { kind: 'fail' } | { kind: 'skip'; why: string } | { kind: 'undecided'; why: string };

/** A recipe or probe that does not apply to this target, with the reason. */
export class Skip extends Error {}

/** Run one operation's judgement; a Skip or an Undecided it throws becomes its result, anything else stays a harness error. */
export async function settleOne(judge: () => Promise<'pass' | 'fail'>): Promise<OpResult> {
  try {
    return { kind: await judge() };
  } catch (e) {
    if (e instanceof Skip) return { kind: 'skip', why: e.message };
    if (e instanceof Undecided) return { kind: 'undecided', why: e.message };
    throw e;
  }
}

/**
 * The group check's outcome from its operations': annotated one by one; failed when any
 * failed (already recorded), skipped when none applied, an error when some could not be judged.
 */
export function settleGroup(results: readonly (readonly [Endpoint, OpResult])[]): void {
  const info = test.info();
  for (const [ep, r] of results) {
    if (r.kind === 'skip')
      info.annotations.push({ type: 'not judged', description: `${ep.operation} (${ep.id}): ${r.why}` });
    if (r.kind === 'undecided')
      info.annotations.push({ type: 'undecided', description: `${ep.operation} (${ep.id}): ${r.why}` });
  }
  if (results.some(([, r]) => r.kind === 'fail')) return;
  const undecided = results.filter(([, r]) => r.kind === 'undecided');
  if (undecided.length) {
    const why = undecided.map(([ep, r]) => `${ep.id}: ${r.kind === 'undecided' ? r.why : ''}`).join('; ');
    throw new Undecided('fixture', `${undecided.length} of ${results.length} operations could not be judged — ${why}`);
  }
  test.skip(
    results.every(([, r]) => r.kind === 'skip'),
    `no operation of the group applies: ${results.map(([ep, r]) => `${ep.id}: ${r.kind === 'skip' ? r.why : ''}`).join('; ')}`,
  );
}

/** Run `work` over `items`, at most `n` at a time, keeping their order. */
export async function pooled<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

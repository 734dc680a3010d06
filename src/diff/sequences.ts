/**
 * The call sequences a diff makes on each side, the harness's own, not written again: the
 * SHAPE-8 answer recipes (src/harness/answers: one documented call per operation, over rows,
 * columns, views, links, SQL, files and the account calls, each in the side's scratch tables
 * and putting back what it changed), the ROUTE-8 operation probes (src/harness/probe.ts: every
 * documented operation with its credential and without, naming nothing that exists), the
 * value and refusal sequences (values.ts, refusals.ts), the multi-step read-backs (structure.ts,
 * records.ts) and the removed endpoints' probes
 * (removed.ts). Each call becomes one exchange under a stable ref.
 */
import { GROUPS, performRecipe, RECIPES, Skip, World } from '../harness/answers/index.js';
import { ACCOUNT, ADMIN } from '../harness/answers/calls.js';
import { Undecided } from '../harness/outcome.js';
import { probeCall } from '../harness/probe.js';
import { restored } from '../harness/restore.js';
import { sweepTables } from '../runner/fixtures.js';
import { ENDPOINTS, NOT_JSON, offeredAt, RESPONSES, type Endpoint } from '../spec/index.js';
import type { Exchange } from './exchange.js';
import { exchangeOf, skippedExchange, type CallRecord } from './normalise.js';
import type { Side } from './side.js';
import { bigCapSequences, capSequences, refusalSequences } from './refusals.js';
import { accountSequences } from './account.js';
import { recordsSequence } from './records.js';
import { removedSequence } from './removed.js';
import { structureSequence } from './structure.js';
import { valueSequences } from './values.js';

/** The sequences, by the first part of their refs; `--sequences` picks some. */
export const SEQUENCES = [
  'values',
  'refusals',
  'caps',
  'structure',
  'records',
  'account',
  'answers',
  'probe',
  'removed',
] as const;
export type Sequence = (typeof SEQUENCES)[number];

const recordOf = (ep: Endpoint, ref: string): CallRecord => ({
  ref,
  operation: ep.id,
  method: ep.method,
  path: ep.path,
});

/** A Skip is the descriptor's business (no account, an older release); an Undecided is a setup call the target answered otherwise. */
function settled(call: CallRecord, e: unknown): Exchange {
  if (e instanceof Skip) return skippedExchange(call, e.message, false);
  if (e instanceof Undecided) return skippedExchange(call, `${e.kind}: ${e.message}`, true);
  throw e;
}

async function answers(side: Side, only: (ep: Endpoint) => boolean): Promise<Exchange[]> {
  const out: Exchange[] = [];
  const { target, state } = side;
  for (const group of GROUPS) {
    const eps = group.endpoints.filter((e) => RESPONSES[e.id] && !(e.id in NOT_JSON) && only(e));
    if (!eps.length) continue;
    const world = new World();
    try {
      // In order, one at a time, as SHAPE-8 runs them: recipes share the world.
      for (const ep of eps) {
        const recipe = RECIPES[ep.id];
        const call = recordOf(ep, `answers/${ep.id}`);
        if (!recipe) throw new Error(`no SHAPE-8 recipe for ${ep.id} (src/harness/answers/)`);
        try {
          if (!offeredAt(ep, state.apiVersion)) throw new Skip(`not offered by release ${state.apiVersion}`);
          const { o, r } = await performRecipe(ep, recipe, target, state, world, restored);
          out.push(
            exchangeOf({ ...call, method: o.method ?? 'GET' }, r, { prefix: state.tablePrefix, keys: side.columnKeys }),
          );
        } catch (e) {
          out.push(settled(call, e));
        }
      }
    } finally {
      await world.drop();
    }
  }
  return out;
}

/** Why the descriptor cannot present the credential the operation needs (as ROUTE-8 decides it). */
function missingCredential(side: Side, ep: Endpoint): string | undefined {
  if (ep.credential === 'admin' || ep.credential === 'team-admin') return ADMIN(side.state);
  if (ep.credential === 'account') return ACCOUNT(side.state);
  if (ep.credential === 'upload-link') return 'the upload is called by its answer recipe (answers/…)';
  return undefined;
}

async function probes(side: Side, only: (ep: Endpoint) => boolean): Promise<Exchange[]> {
  const out: Exchange[] = [];
  const { target, state } = side;
  // The documented operations, and the open ones no OpenAPI file names (ping, server info).
  for (const ep of [...GROUPS.flatMap((g) => g.endpoints), ...ENDPOINTS.filter((e) => e.family === 'public')].filter(
    only,
  )) {
    const ways = ep.credential === 'none' ? (['authorised'] as const) : (['authorised', 'anonymous'] as const);
    for (const way of ways) {
      const call = recordOf(ep, `probe/${ep.id}/${way}`);
      try {
        if (!offeredAt(ep, state.apiVersion)) throw new Skip(`not offered by release ${state.apiVersion}`);
        const cannot = missingCredential(side, ep);
        if (cannot) throw new Skip(cannot);
        const r = await target.call({
          ...probeCall(ep, state, way === 'anonymous' ? { auth: 'none' } : {}),
          expect: [400, 401, 403, 404, 405],
        });
        out.push(exchangeOf(call, r, { prefix: state.tablePrefix, keys: side.columnKeys }));
      } catch (e) {
        out.push(settled(call, e));
      }
    }
  }
  return out;
}

/** Every exchange of the chosen sequences on one side, in a stable order; the side's scratch tables are removed after. */
export async function runSequences(
  side: Side,
  which: readonly Sequence[] = SEQUENCES,
  only: (ep: Endpoint) => boolean = () => true,
): Promise<{ exchanges: Exchange[]; calls: number; problems: string[] }> {
  const before = side.target.sent;
  const problems: string[] = [];
  try {
    const out: Exchange[] = [];
    if (which.includes('values')) out.push(...(await valueSequences(side)));
    if (which.includes('refusals')) out.push(...(await refusalSequences(side)));
    if (which.includes('caps')) out.push(...(await capSequences(side)), ...(await bigCapSequences(side)));
    if (which.includes('structure')) out.push(...(await structureSequence(side)));
    if (which.includes('records')) out.push(...(await recordsSequence(side)));
    if (which.includes('account')) out.push(...(await accountSequences(side)));
    if (which.includes('answers')) out.push(...(await answers(side, only)));
    if (which.includes('probe')) out.push(...(await probes(side, only)));
    if (which.includes('removed')) out.push(...(await removedSequence(side)));
    return { exchanges: out, calls: side.target.sent - before, problems };
  } finally {
    const swept = await sweepTables(side.target, (name) => name.startsWith(side.state.tablePrefix)).catch(
      (e: unknown) => ({ problems: [(e as Error).message] }),
    );
    problems.push(...swept.problems);
  }
}

/**
 * One ROBUST check: a row group's sampled malformed requests (plan.ts) sent to the target a
 * few at a time, each answer judged by the clause (judge.ts), and — for the clauses that say
 * "nothing is written" — what a client can see of the base compared before and after. A
 * failing request is reported with its curl line, bytes as sent; the seed is in the check's
 * annotations.
 */
import type { ClauseId } from '../../spec/index.js';
import { Undecided } from '../outcome.js';
import { credentialFor } from '../probe.js';
import type { RunState } from '../state.js';
import { appendAll, scratchTable } from '../tables.js';
import type { Target } from '../target.js';
import { expect, test } from '../test.js';
import { judge, targetsFault, type RobustClause } from './judge.js';
import { planFor, robustBase, tagOf } from './plan.js';
import { sendAll, sendProbe } from './send.js';
import { changes, tablesOf, visibleState } from './visible.js';

/** Requests in flight at once: enough to keep a few seconds for the family, few enough for a small target. */
const CONCURRENCY = 8;
/** Failing requests reported one by one; the rest are counted. */
const SHOWN = 10;
/** Clauses that say "nothing is written". */
const WRITES_NOTHING = new Set<ClauseId>(['ROBUST-1', 'ROBUST-2', 'ROBUST-3']);

const note = (type: string, description: string) => test.info().annotations.push({ type, description });

export async function malformedCheck(target: Target, state: RunState, clause: RobustClause): Promise<void> {
  note('seed', `${state.seed} (\`conformance run --seed ${state.seed}\` sends the same requests)`);
  const base = robustBase(state);
  const tag = tagOf(state, clause);
  // Methods the API does not serve carry no body: no table to name, nothing to compare.
  const scratch = clause === 'ROBUST-5' ? undefined : await scratchTable(target, `${tag.slice(state.tablePrefix.length)}s`, [{ column_name: 'Name', column_type: 'text' }], base);
  try {
    // Rows a broken target could delete or change: the count shows it.
    if (scratch) await appendAll(target, scratch, [{ Name: 'kept 1' }, { Name: 'kept 2' }]);
    const id = scratch && (await tablesOf(target, base)).find((t) => t.name === scratch.name)?._id;
    const plan = planFor(clause, state, { name: scratch?.name ?? `${tag}none`, id });
    if (plan.excluded.length) note('rows left out', plan.excluded.join('; '));
    test.skip(plan.probes.length === 0, `no route this clause has requests for can be sent: ${plan.excluded.join('; ')}`);
    note('requests', `${plan.probes.length} malformed requests over ${new Set(plan.probes.map((p) => p.ep?.id)).size} rows`);
    const before = scratch && WRITES_NOTHING.has(clause) ? await visibleState(target, scratch, state.tablePrefix, tag) : undefined;
    const { sent, notSent } = await sendAll(plan.probes, (p) => sendProbe(target, p, credentialFor(p.ep!, base)), { concurrency: CONCURRENCY, confirm: (s) => targetsFault(target, s) });
    if (notSent.length) note('not sent', `${notSent.length} requests of a kind the target had stopped answering: ${[...new Set(notSent.map((p) => p.group))].join(', ')}`);
    const undecided: Undecided[] = [];
    const failures = sent.flatMap((s) => {
      try {
        const why = judge(clause, s);
        return why ? [{ s, why }] : [];
      } catch (e) {
        if (e instanceof Undecided) { undecided.push(e); return []; }
        throw e;
      }
    });
    for (const { s, why } of failures.slice(0, SHOWN)) expect.soft(why, `${s.probe.what}: the target ${why}\n  ${s.curl()}`).toBeUndefined();
    if (failures.length > SHOWN) expect.soft(failures.length, `${failures.length} of ${sent.length} malformed requests were answered wrongly (the first ${SHOWN} are above); groups: ${[...new Set(failures.map((f) => f.s.probe.group))].join(', ')}`).toBe(0);
    if (scratch && before) {
      const after = await visibleState(target, scratch, state.tablePrefix, tag);
      expect.soft(changes(before, after), 'nothing is written: the malformed requests changed what a client sees of the base').toEqual([]);
    }
    if (undecided.length) throw undecided[0]!;
  } finally {
    await scratch?.drop();
  }
}

/**
 * One ROBUST check: a row group's sampled malformed requests (plan.ts) sent to the target a
 * few at a time, each answer judged by the clause (judge.ts), and — for the clauses that say
 * "nothing is written" — what a client can see of the base compared before and after. Judged
 * by what every server owes: a 5xx, a reset, a hang, or a write no accepted request asked for
 * fails; an answer RFC 9110 allows a server that reads the request its own way (it accepted a
 * wrong-typed value, refused in other words) is a warning. Each finding cites its probe's own
 * exchange and curl line, bytes as sent; the seed is in the check's annotations.
 */
import { ev, type ClauseId } from '../../spec/index.js';
import { Undecided } from '../outcome.js';
import { credentialFor } from '../probe.js';
import type { RunState } from '../state.js';
import { appendAll, scratchTable } from '../tables.js';
import type { Target } from '../target.js';
import { expect, test } from '../test.js';
import { judge, targetsFault, type RobustClause } from './judge.js';
import { planFor, robustBase, tagOf } from './plan.js';
import { sendAll, sendProbe } from './send.js';
import { tablesOf } from '../metadata.js';
import { changes, visibleState } from './visible.js';

/** Requests in flight at once: enough to keep a few seconds for the family, few enough for a small target. */
const CONCURRENCY = 8;
/** Failing requests reported one by one; the rest are counted. */
const SHOWN = 10;
/** Clauses that say "nothing is written". */
const WRITES_NOTHING = new Set<ClauseId>(['ROBUST-1', 'ROBUST-2', 'ROBUST-3']);

const note = (type: string, description: string) => test.info().annotations.push({ type, description });

/** What no correct server does to a request of the client's making (RFC 9110 §15.6: a 5xx says the server failed). */
export const ROBUST_OWED = ev.owed(
  'no correct server answers a request with a 5xx, a reset or a hang: RFC 9110 §15.6 (a 5xx says the server failed), §9.2.1',
);
/** What a server may do with a request it reads its own way: nothing the specification, the API description or a recorded answer shows the real service refusing these. */
const ROBUST_LENIENT = ev.inferred(
  "RFC 9110 §15.5 lets a server refuse (400, 405 with Allow, 413, 431, 501, a 4xx with an error body) or accept a request as it reads it; the API description's request schemas say what a client should send, not that the server refuses anything else",
);
/** A request the target refused wrote nothing (no correct server writes for a request it refused). */
const ROBUST_NO_WRITE = ev.owed(
  'a request the server refused writes nothing: RFC 9110 §15.5 (a 4xx: the request was not carried out)',
);

const groupsOf = (fs: readonly { s: { probe: { group: string } } }[]) =>
  [...new Set(fs.map((f) => f.s.probe.group))].join(', ');

export async function malformedCheck(target: Target, state: RunState, clause: RobustClause): Promise<void> {
  note('seed', `${state.seed} (\`conformance run --seed ${state.seed}\` sends the same requests)`);
  const base = robustBase(state);
  const tag = tagOf(state, clause);
  // Methods the API does not serve carry no body: no table to name, nothing to compare.
  const scratch =
    clause === 'ROBUST-5'
      ? undefined
      : await scratchTable(
          target,
          `${tag.slice(state.tablePrefix.length)}s`,
          [{ column_name: 'Name', column_type: 'text' }],
          base,
        );
  try {
    // Rows a broken target could delete or change: the count shows it.
    if (scratch) await appendAll(target, scratch, [{ Name: 'kept 1' }, { Name: 'kept 2' }]);
    const id = scratch && (await tablesOf(target, base)).find((t) => t.name === scratch.name)?._id;
    const plan = planFor(clause, state, { name: scratch?.name ?? `${tag}none`, id });
    if (plan.excluded.length) note('rows left out', plan.excluded.join('; '));
    test.skip(
      plan.probes.length === 0,
      `no route this clause has requests for can be sent: ${plan.excluded.join('; ')}`,
    );
    note(
      'requests',
      `${plan.probes.length} malformed requests over ${new Set(plan.probes.map((p) => p.ep?.id)).size} rows`,
    );
    const before =
      scratch && WRITES_NOTHING.has(clause) ? await visibleState(target, scratch, state.tablePrefix, tag) : undefined;
    const { sent, notSent } = await sendAll(plan.probes, (p) => sendProbe(target, p, credentialFor(p.ep!, base)), {
      concurrency: CONCURRENCY,
      confirm: (s) => targetsFault(target, s),
    });
    if (notSent.length)
      note(
        'not sent',
        `${notSent.length} requests of a kind the target had stopped answering: ${[...new Set(notSent.map((p) => p.group))].join(', ')}`,
      );
    const undecided: Undecided[] = [];
    const findings = sent.flatMap((s) => {
      try {
        const f = judge(clause, s);
        return f ? [{ s, ...f }] : [];
      } catch (e) {
        if (e instanceof Undecided) {
          undecided.push(e);
          return [];
        }
        throw e;
      }
    });
    const owed = findings.filter((f) => f.weight === 'owed');
    const lenient = findings.filter((f) => f.weight === 'lenient');
    for (const f of owed.slice(0, SHOWN))
      expect
        .because(ROBUST_OWED)
        .about(f.s)
        .soft(f.why, `${f.s.probe.what}: the target ${f.why}\n  ${f.s.curl()}`)
        .toBeUndefined();
    if (owed.length > SHOWN)
      expect
        .because(ROBUST_OWED)
        .soft(
          owed.length,
          `${owed.length} of ${sent.length} malformed requests got a 5xx, a reset or a hang (the first ${SHOWN} are above); groups: ${groupsOf(owed)}`,
        )
        .toBe(0);
    for (const f of lenient.slice(0, SHOWN))
      expect
        .because(ROBUST_LENIENT)
        .about(f.s)
        .soft(f.why, `${f.s.probe.what}: the target ${f.why}\n  ${f.s.curl()}`)
        .toBeUndefined();
    if (lenient.length > SHOWN)
      expect
        .because(ROBUST_LENIENT)
        .soft(
          lenient.length,
          `${lenient.length} of ${sent.length} malformed requests were taken or refused otherwise than the clause says (the first ${SHOWN} are above); groups: ${groupsOf(lenient)}`,
        )
        .toBe(0);
    if (scratch && before) {
      const after = await visibleState(target, scratch, state.tablePrefix, tag);
      // A request the target accepted may write what it read; one it refused may not.
      const accepted = sent.filter((s) => 'status' in s.outcome && s.outcome.status < 300 && s.probe.method !== 'GET');
      const changed = changes(before, after);
      if (accepted.length)
        expect
          .because(ROBUST_LENIENT)
          .soft(
            changed,
            `the ${accepted.length} malformed request(s) the target accepted changed what a client sees of the base (as the target read them), e.g. ${accepted[0]!.probe.what}`,
          )
          .toEqual([]);
      else
        expect
          .because(ROBUST_NO_WRITE)
          .soft(changed, 'nothing is written: refused malformed requests changed what a client sees of the base')
          .toEqual([]);
    }
    if (undecided.length) throw undecided[0]!;
  } finally {
    await scratch?.drop();
  }
}

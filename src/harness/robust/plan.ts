/**
 * Which malformed requests a ROBUST check sends: the rows of the endpoint table the run's
 * release offers (a row whose credential the descriptor lacks is left out, with the reason),
 * made harmless (src/harness/probe.ts: path values
 * that name nothing but the run's base, bodies that name the check's scratch table, names
 * with the check's tag) and sampled with the run's seed.
 */
import { ENDPOINTS, offeredAt, type ClauseId, type Credential, type Endpoint } from '../../spec/index.js';
import { harmlessBody, harmlessQuery, nowhereValues, UNSCOPED_WRITES } from '../probe.js';
import type { RunState } from '../state.js';
import type { BadText } from './fields.js';
import { malformedProbes, type Probe } from './probes.js';
import { sampleProbes } from './sample.js';

/** What a row's credential needs of the descriptor: why the run cannot send it, if it cannot. */
const MISSING: Partial<Record<Credential, (s: RunState) => string | undefined>> = {
  account: (s) =>
    s.target.account_token || (s.target.username && s.target.password)
      ? undefined
      : 'needs an account (account_token, or username and password)',
  admin: (s) => (s.target.admin ? undefined : 'needs an admin account (descriptor "admin": true)'),
  'team-admin': (s) => (s.target.admin ? undefined : 'needs a team admin account (descriptor "admin": true)'),
};

/** The base ROBUST works in: the descriptor's last, so its bursts leave the first base's rate budget to the other families. */
export const robustBase = (state: RunState) => state.target.bases.length - 1;

/** Names a check gives what it creates (`<run prefix>rb<n>_`): its own visible state, apart from other checks'. */
export const tagOf = (state: RunState, clause: ClauseId) => `${state.tablePrefix}rb${clause.slice('ROBUST-'.length)}_`;

interface Plan {
  probes: Probe[];
  /** Rows left out, with why. */
  excluded: string[];
}

/** A bad text named with the check's tag, so a target that stores it stores a name the run's sweep removes; 10,000 characters stay 10,000. */
function tagged(tag: string) {
  return (bad: string, kind: BadText) => (kind === 'long' ? tag + bad.slice(tag.length) : `${tag}${bad}`);
}

/** Why `ep` is not sent under `clause` in this run, or undefined. */
function leftOut(ep: Endpoint, clause: ClauseId, state: RunState): string | undefined {
  const missing = MISSING[ep.credential]?.(state);
  if (missing) return missing;
  // Methods the API does not serve change nothing: every row's path is probed. A body may, if a broken target takes it.
  if (clause !== 'ROBUST-5' && ep.id in UNSCOPED_WRITES)
    return `${UNSCOPED_WRITES[ep.id]} if a broken target took the request`;
  return undefined;
}

export function planFor(clause: ClauseId, state: RunState, scratch: { name: string; id?: string }): Plan {
  const tag = tagOf(state, clause);
  const offered = ENDPOINTS.filter((e) => offeredAt(e, state.apiVersion));
  const excluded = offered.map((e) => [e, leftOut(e, clause, state)] as const).filter(([, why]) => why);
  const rows = offered.filter((e) => !leftOut(e, clause, state));
  const base = robustBase(state);
  const all = malformedProbes(rows, {
    version: state.apiVersion,
    params: nowhereValues(state, base),
    token: () => undefined,
    unknownPaths: [],
    body: (ep: Endpoint) => harmlessBody(ep, scratch, tag),
    query: (ep: Endpoint) => harmlessQuery(ep, scratch, tag),
    text: tagged(tag),
    name: `${tag}x`,
    only: clause,
  });
  return { probes: sampleProbes(all, clause, state.seed), excluded: excluded.map(([e, why]) => `${e.id}: ${why}`) };
}

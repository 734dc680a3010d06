/** The load scenarios under load/scenarios, one per concern, with the clauses each serves. */
import type { ClauseId } from '../spec/clauses.js';

export interface ScenarioInfo {
  readonly name: string;
  readonly file: string;
  readonly clauses: readonly ClauseId[];
  readonly describe: string;
  /** Wants distinct source addresses (per-IP limits). */
  readonly sourceIps?: boolean;
  /** Wants a target without rate limits (capacity). */
  readonly unlimited?: boolean;
  /** Needs an account token in the target descriptor. */
  readonly account?: boolean;
  /** Built to exhaust the target's rate limits: against a host that is not loopback it runs only when confirmed (--yes). */
  readonly exhausts?: boolean;
  /** The most calls one iteration makes, for the bound the run announces (`gateway`: the per-base limit in force). */
  readonly requestsPerIteration: (limits: { gateway: number; account: number }) => number;
}

export const SCENARIOS: readonly ScenarioInfo[] = [
  {
    name: 'rate-per-base',
    file: 'scenarios/rate-per-base.ts',
    clauses: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6'],
    describe: 'exact admissions per base under concurrency, empty 429 bodies, consistent rate-limit headers',
    exhausts: true,
    requestsPerIteration: () => 1,
  },
  {
    name: 'rate-per-ip',
    file: 'scenarios/rate-per-ip.ts',
    clauses: ['RATE-1', 'RATE-2', 'RATE-3', 'RATE-5'],
    describe: 'exact admissions of account operations per source address; /ping and /server-info never limited',
    sourceIps: true,
    account: true,
    exhausts: true,
    requestsPerIteration: () => 3,
  },
  {
    name: 'rate-window',
    file: 'scenarios/rate-window.ts',
    clauses: ['RATE-4', 'RATE-6'],
    describe: 'a base exhausted in one window is open again once x-ratelimit-reset has passed',
    exhausts: true,
    requestsPerIteration: (l) => l.gateway + 10,
  },
  {
    name: 'row-limits',
    file: 'scenarios/row-limits.ts',
    clauses: ['SIZE-1', 'SIZE-2', 'SIZE-3', 'SIZE-4', 'SIZE-5', 'SIZE-7'],
    describe: '1,000/1,001 append and update, 10,000/10,001 delete, 10,000-row SQL list, under sustained load',
    // About 30 calls an iteration, each tried up to 4 times when a 429 is waited out.
    requestsPerIteration: () => 30 * 4,
  },
  {
    name: 'capacity',
    file: 'scenarios/capacity.ts',
    clauses: ['SIZE-7'],
    describe: 'ramping arrival rate over a realistic mix of list/append/update/SQL calls',
    unlimited: true,
    requestsPerIteration: () => 1,
  },
];

export function scenarioInfo(name: string): ScenarioInfo | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

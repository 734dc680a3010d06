/**
 * The rate family beside the others. Its checks burst at keys of their own — bases, and
 * source addresses other than the default one — and count exactly what a window admits, so
 * nothing else may spend those budgets while they run. Source addresses are the rate
 * family's already (every other check calls from the default address); bases are not: the
 * other families use the descriptor's first bases. When the target has bases to spare, the
 * rate family gets the bases after the first `FUNCTIONAL_BASES`, and each phase is handed a
 * descriptor listing only its own bases, so both can run at once (in one Playwright process,
 * the rate project on a worker of its own: src/runner/playwright.config.ts); else the rate
 * phase runs last and alone. The run's fixture tables are in base 0, outside the rate
 * family's bases: its state has none.
 */
import type { RunState } from '../harness/state.js';

/** Bases the functional families keep (the most any of their checks needs: AUTH's two). */
export const FUNCTIONAL_BASES = 2;
/** Fewest bases the rate family needs of its own (RATE-2 compares two). */
const RATE_BASES = 2;

interface SplitStates {
  functional: RunState;
  rate: RunState;
}

/** The two phases' states when the target's bases allow the rate family beside the others, else undefined. */
export function splitForRate(state: RunState): SplitStates | undefined {
  const bases = state.target.bases;
  if (bases.length < FUNCTIONAL_BASES + RATE_BASES) return undefined;
  return {
    functional: { ...state, target: { ...state.target, bases: bases.slice(0, FUNCTIONAL_BASES) } },
    rate: {
      ...state,
      target: { ...state.target, bases: bases.slice(FUNCTIONAL_BASES) },
      fixtures: undefined,
      fixturesProblem: 'the rate family runs beside the others, in bases of its own; the fixture tables are in base 0',
    },
  };
}

/**
 * Which of the official client's methods a run holds the target to: those whose every route
 * the 6.2 OpenAPI documents and the run's release offers (src/spec/client-methods.ts).
 */
import { CLIENT_METHODS, type ClientMethod } from '../../spec/client-methods.js';
import { endpoint, offeredAt } from '../../spec/index.js';
import type { RunState } from '../state.js';

function clientMethod(name: string): ClientMethod {
  const m = CLIENT_METHODS.find((x) => x.name === name);
  if (!m) throw new Error(`the official client has no method ${name} (src/spec/client-methods.ts)`);
  return m;
}

/** Why `name` is out of scope for this run, or undefined when it is in. */
export function outOfScope(state: RunState, name: string): string | undefined {
  const m = clientMethod(name);
  if (!m.documented) return `${name}() calls a route the real API no longer documents${m.note ? `: ${m.note}` : ''}`;
  for (const c of m.calls) {
    if (!c.endpoint) continue;
    const ep = endpoint(c.endpoint);
    if (!offeredAt(ep, state.apiVersion))
      return `${name}() calls ${ep.operation} (${ep.method} ${ep.path}), which release ${state.apiVersion} does not offer`;
  }
  return undefined;
}

/** The first reason any of `names` is out of scope (a check of a group runs only when all are in). */
export function groupOutOfScope(state: RunState, names: readonly string[]): string | undefined {
  for (const n of names) {
    const why = outOfScope(state, n);
    if (why) return why;
  }
  return undefined;
}

/**
 * Lets several VUs share one thread. A k6 script blocks in http.*, sleep() and group(); a
 * thread that runs many VUs cannot block, so the bundle (ES module syntax, as stock k6 runs
 * it) is made awaitable: those calls, and every call of a script function that reaches one,
 * are awaited, and the functions that contain such calls become async — setup() and
 * teardown() as much as the iterations. Three steps: analyse (acorn, acorn-walk), rewrite and
 * emit (magic-string). A script the analysis declines is refused: stock k6 runs it as it is.
 */
import { analyse } from './analyse.js';
import { emit, rewrite } from './rewrite.js';

type Awaitable = { ok: true; code: string; sites: number; map: () => string } | { ok: false; reason: string };

export function makeAwaitable(code: string): Awaitable {
  const a = analyse(code);
  if (!a.ok) return a;
  return { ok: true, sites: a.sites.length, ...emit(rewrite(a)) };
}

/** The script cannot run on the built-in runner: a usage error, told before anything starts. */
export class ScriptRefused extends Error {
  constructor(reason: string) {
    super(
      `the built-in runner cannot run this script: ${reason}. Rewrite that part (a plain loop instead of a callback, for instance), or run it on stock k6 (\`--engine k6\`)`,
    );
    this.name = 'ScriptRefused';
  }
}

/** The bundle made awaitable, or ScriptRefused with the reason. */
export function awaitableOrRefuse(code: string): string {
  const r = makeAwaitable(code);
  if (!r.ok) throw new ScriptRefused(r.reason);
  return r.code;
}

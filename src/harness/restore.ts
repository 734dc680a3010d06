/**
 * Putting account state back after a check changed it (a logo, an option, an app's status,
 * a plan): every restore checks its answer, and one that fails is a run-level warning —
 * the run then exits 2, because the account under test was left changed. The check's own
 * verdict is not touched: the restore is the harness's business, not the target's clause.
 */
import { warnState } from './verdict.js';
import type { Reply } from './target.js';

/** Run a restore; a transport error or a non-2xx answer is recorded as state left changed. */
export async function restored(
  what: string,
  put: () => Promise<Reply>,
  ok: (r: Reply) => boolean = (r) => r.status >= 200 && r.status < 300,
): Promise<boolean> {
  try {
    const r = await put();
    if (ok(r)) return true;
    warnState(`could not restore: ${what} — answered ${r.status}: ${r.text.slice(0, 160)}`);
  } catch (e) {
    warnState(`could not restore: ${what} — ${(e as Error).message}`);
  }
  return false;
}

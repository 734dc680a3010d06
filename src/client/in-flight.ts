/**
 * Calls still on their way, however they are sent (the harness's client, bare sockets, the
 * official client's axios): a run keeps its worker after a failed check only when nothing
 * that check started can still reach the server (src/harness/keep-worker.ts).
 */
let open = 0;

/** Count one call from now; the returned function ends it (once, however often it is called). */
export function callStarted(): () => void {
  open++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    open--;
  };
}

/** Whether every call has ended within `ms` (polled: the wait is rare and short). */
export async function callsEnded(ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (open > 0) {
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

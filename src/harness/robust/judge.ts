/**
 * What each ROBUST clause accepts as an answer to a malformed request, and whose fault a
 * missing answer is.
 *
 * Hang or reset — the target's or the harness's? The harness's own connection handling can
 * end a call without an answer (a kept-alive connection the server closed just as a request
 * went out), and so can a target that is down or a network in between. So a missing answer
 * counts against the target only when (1) a reset repeats on a fresh connection of its own,
 * and (2) the target answers a well-formed request (GET /server-info/, no credentials, exempt
 * from rate limits) right after: it is up and reachable, and it did not answer this request.
 * A hang needs no repeat: the harness waited the run's whole request timeout on a connection
 * that was open. Anything else — the control unanswered too, a refused connection — leaves the
 * check undecided (error), never failed.
 */
import { Undecided } from '../outcome.js';
import type { Target } from '../target.js';
import { rawCall } from './raw-http.js';
import type { Answer, Sent } from './send.js';

export type RobustClause = 'ROBUST-1' | 'ROBUST-2' | 'ROBUST-3' | 'ROBUST-4' | 'ROBUST-5';

/** The clause's words, as a rule: 4xx with an error body (1, 2), any 4xx (3), refused or taken (4), 405 or 400 (5). */
const RULES: Record<RobustClause, (a: Answer) => string | undefined> = {
  'ROBUST-1': (a) => clientError(a) ?? errorBody(a),
  'ROBUST-2': (a) => clientError(a) ?? errorBody(a),
  'ROBUST-3': (a) => clientError(a),
  // Stored-and-read-back is judged where the harness can read it back (the read-back check); here: refused or taken, never a 5xx.
  'ROBUST-4': (a) => (a.status >= 400 && a.status < 500) || (a.status >= 200 && a.status < 300) ? undefined : `answered ${a.status}, neither a refusal (4xx) nor an acceptance (2xx)`,
  'ROBUST-5': (a) => (a.status === 405 || a.status === 400 ? undefined : `answered ${a.status}, not 405 or 400`),
};

const clientError = (a: Answer) => (a.status >= 400 && a.status < 500 ? undefined : a.status >= 200 && a.status < 300 ? `accepted it (${a.status})` : `answered ${a.status}, not a 4xx`);

/** The message of an error body (`error_msg`, `error_message`, `detail`, or the first of `non_field_errors`), if the text is one. */
export function errorMessageOf(text: string): string | undefined {
  let b: unknown;
  try { b = JSON.parse(text); } catch { return undefined; }
  if (!b || typeof b !== 'object' || Array.isArray(b)) return undefined;
  const o = b as Record<string, unknown>;
  const m = o.error_msg ?? o.error_message ?? o.detail ?? (Array.isArray(o.non_field_errors) ? o.non_field_errors[0] : undefined);
  return typeof m === 'string' && m.length > 0 ? m : undefined;
}

const errorBody = (a: Answer) => (errorMessageOf(a.text) ? undefined : `refused it (${a.status}) without an error body (error_msg, error_message, detail or non_field_errors): ${JSON.stringify(a.text.slice(0, 120))}`);

const NO_ANSWER = { hang: 'gave no answer within the run\'s request timeout (a hang)', reset: 'closed the connection without an answer (a reset)' } as const;

/** What is wrong with the target's answer to `s` under `clause` (undefined: nothing); an undecidable outcome throws Undecided. */
export function judge(clause: RobustClause, s: Sent): string | undefined {
  const o = s.outcome;
  if ('failure' in o) {
    if (o.failure === 'hang' || o.failure === 'reset') return `${NO_ANSWER[o.failure]}, yet answered a well-formed request right after: ${o.message}`;
    throw new Undecided(o.failure === 'unreachable' ? 'unreachable' : 'transport', `${s.probe.what}: ${o.message}`);
  }
  if (o.status === 429) throw new Undecided('rate', `${s.probe.what}: still 429 after waiting for the rate window`);
  if (o.status >= 500) return `answered ${o.status}: ${JSON.stringify(o.text.slice(0, 160))}`;
  return RULES[clause](o);
}

/**
 * Is a missing answer the target's fault? A reset is first sent again on a fresh connection
 * (an answer there replaces the outcome: the reset was the connection's, not the request's);
 * then the control request must be answered. Throws Undecided when the control is not.
 */
export async function targetsFault(target: Target, s: Sent): Promise<boolean> {
  const o = s.outcome;
  if (!('failure' in o)) return false;
  if (o.failure === 'reset' && !s.probe.raw && s.probe.method !== 'CONNECT') {
    const url = new URL(s.probe.path, target.url + '/');
    const authorization = await target.authorization(s.auth);
    const again = await target.paced(url.pathname,
      () => rawCall(url.toString(), { method: s.probe.method, path: url.pathname + url.search, headers: { accept: 'application/json', ...s.probe.headers, ...(authorization ? { authorization } : {}) }, body: s.probe.body }, { connectMs: target.state.http.connectMs, answerMs: target.state.http.headersMs }),
      (x) => (x.ok ? { status: x.status, headers: Object.fromEntries(x.headers) } : undefined));
    if (again.ok) {
      s.outcome = { status: again.status, headers: Object.fromEntries(again.headers), text: again.text };
      return false;
    }
  }
  const control = await target.attempt({ path: '/server-info/', auth: 'none', allowTransportError: true });
  if ('transport' in control) throw new Undecided('transport', `${s.probe.what}: ${o.message} — and the target did not answer GET /server-info/ either (${control.transport.message}): the harness cannot tell a target that stopped answering this request from one that is down`);
  return true;
}

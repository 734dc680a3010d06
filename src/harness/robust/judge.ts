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
import { ERROR_MESSAGE_FIELDS, errorMessageOfText, type ClauseId } from '../../spec/index.js';
import { rawCall } from './raw-http.js';
import type { Answer, Sent } from './send.js';

/**
 * What is wrong with an answer, and how much it weighs: `owed` — what no correct server does
 * (a 5xx, a reset, a hang): a failure; `lenient` — an answer RFC 9110 allows a server that
 * reads the request its own way (it took a malformed or wrong-typed request, or refused it in
 * other words than the clause's): a warning, since nothing the specification, the API
 * description or a recorded answer shows makes the real service refuse these.
 */
interface Finding {
  weight: 'owed' | 'lenient';
  why: string;
}

const lenient = (why: string): Finding => ({ weight: 'lenient', why });
const ok = undefined;

/** A 4xx with an error body, else what the target did instead. */
const refusedWithBody = (a: Answer, taken: string): Finding | undefined =>
  a.status >= 200 && a.status < 300
    ? lenient(`accepted ${taken} (${a.status})`)
    : a.status < 400 || a.status >= 500
      ? lenient(`answered ${a.status}, neither a refusal (4xx) nor an acceptance (2xx)`)
      : errorMessageOfText(a.text)
        ? ok
        : lenient(
            `refused it (${a.status}) without an error body (${ERROR_MESSAGE_FIELDS.join(', ')}): ${JSON.stringify(a.text.slice(0, 120))}`,
          );

/**
 * RFC 9110 §15.5.14 (413), RFC 6585 §5 (431), §15.5.1 (400): the statuses of a request too
 * large; and the refusals a server may meet before it reads the body at all (credentials,
 * route, method, content type: 401, 403, 404, 405, 415).
 */
const SIZE_STATUSES = [400, 413, 431, 401, 403, 404, 405, 415];

/** Per clause, the answers (not 5xx: those fail before) a server may give. */
const RULES = {
  'ROBUST-1': (a) => refusedWithBody(a, 'a malformed body'),
  'ROBUST-2': (a) => refusedWithBody(a, 'a value of the wrong type'),
  'ROBUST-3': (a) =>
    SIZE_STATUSES.includes(a.status)
      ? ok
      : a.status >= 200 && a.status < 300
        ? lenient(`accepted a body past its size or depth limit (${a.status})`)
        : lenient(
            `answered ${a.status}, not 400, 413 or 431 (RFC 9110 §15.5.1, §15.5.14; RFC 6585 §5), nor a refusal before the body is read (401, 403, 404, 405, 415)`,
          ),
  // Stored-and-read-back is judged where the harness can read it back (the read-back check); here: refused or taken.
  'ROBUST-4': (a) =>
    (a.status >= 400 && a.status < 500) || (a.status >= 200 && a.status < 300)
      ? ok
      : lenient(`answered ${a.status}, neither a refusal (4xx) nor an acceptance (2xx)`),
  // RFC 9110 §15.6.2: 501 for a method the server does not recognise; §15.5.6: 405 with Allow; 400.
  'ROBUST-5': (a) =>
    a.status === 400 || a.status === 501
      ? ok
      : a.status === 405
        ? a.headers.allow !== undefined
          ? ok
          : lenient('answered 405 without an Allow header (RFC 9110 §15.5.6)')
        : lenient(`answered ${a.status}, not 400, 405 (with Allow) or 501 (RFC 9110 §15.5.1, §15.5.6, §15.6.2)`),
} satisfies Partial<Record<ClauseId, (a: Answer) => Finding | undefined>>;

/** The clauses judged by the answer to a malformed request: those RULES has a rule for. */
export type RobustClause = keyof typeof RULES;

const NO_ANSWER = {
  hang: "gave no answer within the run's request timeout (a hang)",
  reset: 'closed the connection without an answer (a reset)',
} as const;

/** What is wrong with the target's answer to `s` under `clause` (undefined: nothing); an undecidable outcome throws Undecided. */
export function judge(clause: RobustClause, s: Sent): Finding | undefined {
  const o = s.outcome;
  if ('failure' in o) {
    if (o.failure === 'hang' || o.failure === 'reset')
      return {
        weight: 'owed',
        why: `${NO_ANSWER[o.failure]}, yet answered a well-formed request right after: ${o.message}`,
      };
    throw new Undecided(o.failure === 'unreachable' ? 'unreachable' : 'transport', `${s.probe.what}: ${o.message}`);
  }
  if (o.status === 429) throw new Undecided('rate', `${s.probe.what}: still 429 after waiting for the rate window`);
  if (o.status >= 500 && !(clause === 'ROBUST-5' && o.status === 501))
    return { weight: 'owed', why: `answered ${o.status}: ${JSON.stringify(o.text.slice(0, 160))}` };
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
    const again = await target.paced(
      url.pathname,
      () =>
        rawCall(
          url.toString(),
          {
            method: s.probe.method,
            path: url.pathname + url.search,
            headers: { accept: 'application/json', ...s.probe.headers, ...(authorization ? { authorization } : {}) },
            body: s.probe.body,
          },
          { connectMs: target.state.http.connectMs, answerMs: target.state.http.headersMs },
        ),
      (x) => (x.ok ? { status: x.status, headers: Object.fromEntries(x.headers) } : undefined),
    );
    if (again.ok) {
      s.outcome = { status: again.status, headers: Object.fromEntries(again.headers), text: again.text };
      return false;
    }
  }
  const control = await target.attempt({ path: '/server-info/', auth: 'none', allowTransportError: true });
  if ('transport' in control)
    throw new Undecided(
      'transport',
      `${s.probe.what}: ${o.message} — and the target did not answer GET /server-info/ either (${control.transport.message}): the harness cannot tell a target that stopped answering this request from one that is down`,
    );
  return true;
}

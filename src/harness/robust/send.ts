/**
 * Sending probes to a target: through the target's client (its credentials, rate-limit
 * pacing and recorder), or over a bare socket for what no client sends (CONNECT, a chunked
 * body past the limit). Every outcome is a value: an answer, or the transport failure that
 * ended the call. A few at a time; a kind of probe the target has stopped answering is not
 * sent again (each hang costs the run's whole request timeout).
 */
import { curlFor, type ExchangeRef } from '../recorder.js';
import type { Auth, Target } from '../target.js';
import type { Probe } from './probes.js';
import { rawCall } from './raw-http.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}
/** No answer: `hang` (none in the run's request timeout), `reset` (the connection closed without one), or `unreachable`. */
export interface NoAnswer {
  failure: 'hang' | 'reset' | 'unreachable' | 'other';
  message: string;
}

export interface Sent {
  probe: Probe;
  /** The credential it was sent with. */
  auth: Auth;
  outcome: Answer | NoAnswer;
  /** Where the check's recorder holds the exchange (a violation about this probe cites it). */
  exchange?: ExchangeRef;
  /** The request exactly as sent, as a curl line (credentials as placeholders); made when asked, for the failures only. */
  curl(): string;
}

/** Every status a refusal may have: a probe asks for refusals, so none of them counts as an unasked one (vacuous-pass guard); 429 does. */
const REFUSALS = Array.from({ length: 100 }, (_, i) => 400 + i).filter((s) => s !== 429);

const failureOf = (kind: string): NoAnswer['failure'] =>
  kind === 'timeout-headers' || kind === 'timeout-body' || kind === 'timeout'
    ? 'hang'
    : kind === 'reset'
      ? 'reset'
      : kind === 'refused' || kind === 'timeout-connect' || kind === 'connect-timeout' || kind === 'network'
        ? 'unreachable'
        : 'other';

/** Send one probe with `auth`; a transport failure comes back as a value. */
export async function sendProbe(target: Target, p: Probe, auth: Auth): Promise<Sent> {
  const url = new URL(p.path, target.url + '/').toString();
  const authorization = await target.authorization(auth);
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...p.headers,
    ...(authorization ? { authorization } : {}),
  };
  // Undici sends any method but CONNECT, and a body only with its length: the rest goes over a bare socket.
  if (p.raw || p.method === 'CONNECT') {
    const http = target.state.http;
    // Paced like every other call: a 429 here would be the shared budget's, not the probe's answer.
    const r = await target.paced(
      new URL(url).pathname,
      () =>
        rawCall(
          url,
          {
            method: p.method,
            path: new URL(url).pathname + new URL(url).search,
            headers,
            body: p.body,
            contentLength: p.raw?.contentLength,
            chunked: p.raw?.chunked,
          },
          { connectMs: http.connectMs, answerMs: http.headersMs },
        ),
      (x) => (x.ok ? { status: x.status, headers: Object.fromEntries(x.headers) } : undefined),
    );
    const answer = r.ok ? { status: r.status, headers: Object.fromEntries(r.headers), text: r.text } : undefined;
    const exchange = target.recorder?.record(
      {
        method: p.method,
        url,
        headers,
        body: p.body,
        status: answer?.status,
        responseHeaders: answer?.headers,
        responseBody: answer?.text,
        error: r.ok ? undefined : `${r.kind}: ${r.message}`,
        ms: r.ms,
      },
      REFUSALS,
    );
    return {
      probe: p,
      auth,
      exchange,
      outcome: answer ?? { failure: failureOf(r.ok ? '' : r.kind), message: r.ok ? '' : r.message },
      curl: () => curlFor({ method: p.method, url, headers, body: p.body }),
    };
  }
  const { 'content-type': contentType, ...rest } = p.headers;
  const r = await target.attempt({
    method: p.method,
    path: p.path,
    headers: rest,
    rawBody: p.body === undefined ? undefined : { body: p.body, contentType },
    auth,
    expect: REFUSALS,
    allowTransportError: true,
  });
  const curl = () => curlFor({ method: p.method, url, headers, body: p.body });
  if ('transport' in r) {
    const kind = r.transport.kind;
    // A redirect is an answer, one that is no refusal: the clause's verdict, not the harness's.
    const status = kind === 'redirect' ? Number(/(\d{3}) →/.exec(r.transport.message)?.[1] ?? 0) : 0;
    if (status)
      return {
        probe: p,
        auth,
        exchange: r.exchange,
        outcome: { status, headers: {}, text: r.transport.message },
        curl,
      };
    return {
      probe: p,
      auth,
      exchange: r.exchange,
      outcome: { failure: failureOf(kind), message: r.transport.message },
      curl,
    };
  }
  return {
    probe: p,
    auth,
    exchange: r.reply.exchange,
    outcome: { status: r.reply.status, headers: r.reply.headers, text: r.reply.text },
    curl,
  };
}

/**
 * Send `probes`, `concurrency` at a time. When one gets no answer, `confirm` decides whether
 * the target stopped answering that request (it answers others): then no more probes of the
 * same group are sent, and they are returned as `notSent`.
 */
export async function sendAll(
  probes: readonly Probe[],
  send: (p: Probe) => Promise<Sent>,
  o: { concurrency: number; confirm(s: Sent): Promise<boolean> },
): Promise<{ sent: Sent[]; notSent: Probe[] }> {
  const sent: Sent[] = [];
  const notSent: Probe[] = [];
  const stuck = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const p = probes[next++]!;
      if (stuck.has(p.group)) {
        notSent.push(p);
        continue;
      }
      const s = await send(p);
      sent.push(s);
      if (
        'failure' in s.outcome &&
        (s.outcome.failure === 'hang' || s.outcome.failure === 'reset') &&
        (await o.confirm(s))
      )
        stuck.add(p.group);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, probes.length)) }, worker));
  return { sent, notSent };
}

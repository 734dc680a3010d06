/**
 * How a call of the official client went wrong, as a value. The client reports errors its
 * own ways (JS_CLIENT.errors in src/spec/client-methods.ts): axios rejects every non-2xx
 * answer and every transport failure; getColumnLinkId rejects with a plain
 * `{error_message}`; and the client's code throws when an answer lacks what it reads.
 */
import type { AxiosError } from 'axios';
import type { TransportErrorKind } from '../../client/errors.js';
import { redactText } from '../../client/redact.js';
import { Undecided } from '../outcome.js';
import { clientAxios } from './sdk.js';

type Failure =
  /** The target answered and the client could not use the answer: a violation where the method is under test. */
  | { kind: 'answer'; message: string }
  /** No answer (reset, refused, timeout): the harness cannot decide. */
  | { kind: 'transport'; undecided: Undecided };

/** axios' codes for calls that got no answer, as the harness's transport kinds. */
const TRANSPORT: Record<string, TransportErrorKind> = {
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNREFUSED: 'refused',
  ECONNABORTED: 'timeout-headers',
  ETIMEDOUT: 'timeout-headers',
  ERR_NETWORK: 'network',
  ERR_FR_TOO_MANY_REDIRECTS: 'redirect',
  ENOTFOUND: 'network',
  EAI_AGAIN: 'network',
};

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

function bodyOf(data: unknown): string {
  if (data === undefined || data === null || data === '') return '(empty body)';
  return clip(typeof data === 'string' ? data : JSON.stringify(data));
}

function pathOf(e: AxiosError): string {
  try {
    return new URL(clientAxios().getUri(e.config ?? {})).pathname;
  } catch {
    return e.config?.url ?? '?';
  }
}

/** What went wrong in `what` (the client method and its purpose, e.g. "appendRow(…)"). */
export function failureOf(e: unknown, what: string): Failure {
  if (clientAxios().isAxiosError(e)) {
    const call = `${(e.config?.method ?? '?').toUpperCase()} ${pathOf(e)}`;
    if (e.response)
      return {
        kind: 'answer',
        message: redactText(
          `${what}: the client's call ${call} was answered ${e.response.status}: ${bodyOf(e.response.data)}`,
        ),
      };
    const code = e.code ?? '';
    if (/maxContentLength/.test(e.message))
      return { kind: 'transport', undecided: new Undecided('too-large', `${what}: ${call}: ${e.message}`) };
    return {
      kind: 'transport',
      undecided: new Undecided(
        TRANSPORT[code] ?? 'network',
        `${what}: ${call} got no answer: ${[code, e.message].filter(Boolean).join(': ')}`,
      ),
    };
  }
  // An answer the interceptors could not read (src/harness/official/recording.ts), named with the method.
  if (e instanceof Undecided) return { kind: 'transport', undecided: new Undecided(e.kind, `${what}: ${e.message}`) };
  if (e instanceof Error)
    return {
      kind: 'answer',
      message: redactText(`${what}: the client failed on the target's answer (${e.name}: ${e.message})`),
    };
  const own = (e as { error_message?: unknown } | null)?.error_message;
  return {
    kind: 'answer',
    message: redactText(`${what}: the client rejected the call: ${typeof own === 'string' ? own : bodyOf(e)}`),
  };
}

/**
 * Transport failures as values, each with a stable kind: the harness cannot decide a check
 * whose call ended like this, so the check's outcome is `error`, never `fail` or `pass`.
 */
export type TransportErrorKind =
  | 'timeout-connect'
  | 'timeout-headers'
  | 'timeout-body'
  | 'reset'
  | 'refused'
  | 'too-large'
  | 'bad-json'
  | 'content-type'
  | 'redirect'
  | 'network';

export interface TransportError {
  ok: false;
  kind: TransportErrorKind;
  message: string;
  ms: number;
}

const CODE_KINDS: Record<string, TransportErrorKind> = {
  UND_ERR_CONNECT_TIMEOUT: 'timeout-connect',
  UND_ERR_HEADERS_TIMEOUT: 'timeout-headers',
  UND_ERR_BODY_TIMEOUT: 'timeout-body',
  UND_ERR_SOCKET: 'reset',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_CLOSED: 'reset',
  ECONNREFUSED: 'refused',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'too-large',
};

const EXPLAIN: Record<TransportErrorKind, string> = {
  'timeout-connect': 'could not connect in time',
  'timeout-headers': 'sent no response headers in time',
  'timeout-body': 'stopped sending the response body',
  reset: 'closed the connection mid-response',
  refused: 'refused the connection',
  'too-large': 'sent a response larger than the cap',
  'bad-json': 'sent a body that is not valid JSON',
  'content-type': 'sent a body whose content type is not JSON',
  redirect: 'answered with a redirect (the harness does not follow redirects)',
  network: 'could not be reached',
};

export function transportError(kind: TransportErrorKind, detail: string, ms: number): TransportError {
  return { ok: false, kind, message: `target ${EXPLAIN[kind]}: ${detail}`, ms };
}

/** Map an exception from undici or the socket to a transport error. */
export function fromException(e: unknown, ms: number): TransportError {
  const err = e as { code?: string; cause?: { code?: string; message?: string }; message?: string; name?: string };
  const code = err.code ?? err.cause?.code ?? '';
  const kind =
    CODE_KINDS[code] ?? (err.name === 'AbortError' || err.name === 'TimeoutError' ? 'timeout-body' : 'network');
  const detail = [code, err.message ?? String(e), err.cause?.message].filter(Boolean).join(': ');
  return transportError(kind, detail, ms);
}

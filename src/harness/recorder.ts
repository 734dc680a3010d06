/**
 * Every call a check makes, redacted as it is recorded, so the HTML report can show each
 * check's requests and responses and a curl line that reproduces them. It also counts the
 * refusals a check did not ask for, for the vacuous-pass guard. A request body is kept as
 * sent, bytes intact: the curl line sends text as text and anything else (bytes that are not
 * UTF-8, control characters, a body too long to read) through base64, so a malformed body is
 * reproduced exactly.
 */
import { isUtf8 } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { jsonTextDepth } from '../common/json-depth.js';
import { identity } from '../spec/identity.js';
import { MASK, redactBody, redactHeaders, redactText, redactUrl } from '../client/redact.js';

/** The attachment name of a check's HAR file (src/harness/test.ts attaches it, the results reporter writes it out). */
export const HAR_ATTACHMENT = 'exchanges.har';

interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The body for reading: redacted, clipped. */
  requestBody?: string;
  /** The body for the curl line (see `curlBody`). */
  requestBytes?: Buffer;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  error?: string;
  ms: number;
}

/** A request as a check sent it: the body as a string or the very bytes. */
interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const BODY_SHOWN = 4_000;
/** Bodies kept for the curl line; larger ones are described, not reproduced. */
const BODY_KEPT = 8 * 1024 * 1024;
/** Text bodies up to this size go into the curl line as text; larger ones compressed. */
const BODY_INLINE = 64 * 1024;
const REFUSALS = (s: number) => s === 401 || s === 403 || s === 429 || s >= 500;
const clip = (s: string) => (s.length > BODY_SHOWN ? `${s.slice(0, BODY_SHOWN)}… (${s.length} characters)` : s);
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Bodies redacted field by field (JSON keys, form fields) must be parseable cheaply: not too long, not too deep. */
const READABLE_BYTES = 1024 * 1024;
const READABLE_DEPTH = 64;
/** Text a shell's single quotes carry unchanged (no NUL or other control characters but tab and line ends). */
const shellSafe = (s: string) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);

/** A body as the transcript shows it: redacted field by field where that is cheap, else by the registered secrets in the part shown (a secret is shorter than the margin). */
function readable(text: string, type: string): string {
  if (text.length <= READABLE_BYTES && jsonTextDepth(text, READABLE_DEPTH) <= READABLE_DEPTH)
    return clip(redactBody(text, type));
  return `${redactText(text.slice(0, BODY_SHOWN + 512)).slice(0, BODY_SHOWN)}… (${text.length} characters)`;
}

/** The request part of an exchange, redacted; the body's bytes kept for the curl line. */
function requestPart(
  r: SentRequest,
): Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'requestBytes'> {
  const type = r.headers['content-type'] ?? '';
  const bytes = r.body === undefined ? undefined : Buffer.from(r.body);
  const text = bytes && isUtf8(bytes) ? bytes.toString('utf8') : undefined;
  const shown =
    r.body === undefined
      ? undefined
      : text !== undefined
        ? readable(text, type)
        : `<${bytes!.length} bytes, not UTF-8: base64 ${clip(bytes!.subarray(0, BODY_SHOWN).toString('base64'))}>`;
  return {
    method: r.method,
    url: redactUrl(r.url),
    requestHeaders: redactHeaders(r.headers),
    requestBody: shown,
    requestBytes: bytes && bytes.length <= BODY_KEPT ? bytes : undefined,
  };
}

/**
 * The curl arguments that send `x`'s body exactly: `--data-binary 'text'` for plain text (its
 * secrets masked), else a pipe from base64 (gzip-compressed when long). Bytes that hold a
 * secret are not reproduced.
 */
function curlBody(x: Exchange): { pipe: string; arg: string } {
  if (x.requestBody === undefined) return { pipe: '', arg: '' };
  const b = x.requestBytes;
  if (!b) return { pipe: '', arg: ` --data-binary ${quote(`<${x.requestBody}: too large to reproduce>`)}` };
  const text = isUtf8(b) ? b.toString('utf8') : undefined;
  if (text !== undefined && shellSafe(text) && b.length <= BODY_INLINE)
    return { pipe: '', arg: ` --data-binary ${quote(redactBody(text, x.requestHeaders['content-type'] ?? ''))}` };
  const latin1 = b.toString('latin1');
  if (redactText(latin1) !== latin1 || (text !== undefined && redactText(text) !== text))
    return { pipe: '', arg: ` --data-binary ${quote('<body holds a secret: not reproduced>')}` };
  const long = b.length > BODY_INLINE;
  const encoded = (long ? gzipSync(b) : b).toString('base64');
  return { pipe: `printf %s ${quote(encoded)} | base64 -d | ${long ? 'gunzip | ' : ''}`, arg: ' --data-binary @-' };
}

/** One curl line reproducing `x`, credentials left as placeholders. */
function curlLine(x: Exchange): string {
  const headers = Object.entries(x.requestHeaders)
    .filter(([k]) => !['content-length', 'host', 'connection'].includes(k.toLowerCase()))
    .map(([k, v]) => `-H ${quote(`${k}: ${v.replace(MASK, '$TOKEN')}`)}`);
  const { pipe, arg } = curlBody(x);
  return `${pipe}curl -sS -X ${x.method} ${headers.join(' ')}${arg} ${quote(x.url)}`;
}

/** The curl line of a request not (or no longer) in a recorder. */
export const curlFor = (r: SentRequest): string => curlLine({ ...requestPart(r), ms: 0 });

/** One recorded exchange, as a violation cites it: its place in the transcript (1-based) and `#n METHOD url → status`. */
export interface ExchangeRef {
  readonly n: number;
  readonly line: string;
}

/** Something that names the exchange it came from (a `Reply`, a sent probe). */
export interface Cited {
  readonly exchange?: ExchangeRef;
}

export class Recorder {
  readonly exchanges: Exchange[] = [];
  calls = 0;
  refused = 0;

  /** Record an exchange; its reference, for a violation to cite. */
  record(
    e: SentRequest & {
      status?: number;
      responseHeaders?: Record<string, string>;
      responseBody?: string;
      error?: string;
      ms: number;
    },
    expected: readonly number[] = [],
  ): ExchangeRef {
    this.calls++;
    if (e.status !== undefined && REFUSALS(e.status) && !expected.includes(e.status)) this.refused++;
    const ref = { n: this.calls, line: `#${this.calls} ${e.method} ${redactUrl(e.url)} → ${e.error ?? e.status}` };
    if (this.exchanges.length >= 200) return ref;
    this.exchanges.push({
      ...requestPart(e),
      status: e.status,
      responseHeaders: e.responseHeaders && redactHeaders(e.responseHeaders),
      responseBody:
        e.responseBody === undefined
          ? undefined
          : clip(redactBody(e.responseBody, e.responseHeaders?.['content-type'])),
      error: e.error,
      ms: e.ms,
    });
    return ref;
  }

  /** The curl line of exchange `n` (1-based), if it was kept. */
  curlAt(n: number): string | undefined {
    const x = this.exchanges[n - 1];
    return x && curlLine(x);
  }

  /** Human-readable transcript. */
  transcript(): string {
    return this.exchanges
      .map((x, i) =>
        [
          `#${i + 1} ${x.method} ${x.url}  (${x.ms} ms)`,
          ...Object.entries(x.requestHeaders).map(([k, v]) => `> ${k}: ${v}`),
          x.requestBody !== undefined ? `> ${x.requestBody}` : '',
          x.error ? `! ${x.error}` : `< ${x.status}`,
          ...Object.entries(x.responseHeaders ?? {}).map(([k, v]) => `< ${k}: ${v}`),
          x.responseBody !== undefined ? `< ${x.responseBody}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      )
      .join('\n\n');
  }

  /** The exchanges as a HAR 1.2 log (the format browsers and HTTP tools open), redacted as recorded. */
  har(): string {
    return harLog(this.exchanges);
  }

  /** curl lines reproducing the calls, credentials left as placeholders. */
  curl(): string {
    return this.exchanges.map(curlLine).join('\n');
  }
}

const nameValues = (h: Record<string, string> = {}) => Object.entries(h).map(([name, value]) => ({ name, value }));

/** One exchange as a HAR entry; a transport failure is a response of status 0 with the error in `_error` (HAR's convention for no response). */
function harEntry(x: Exchange, started: number): Record<string, unknown> {
  const u = new URL(x.url);
  const type = x.requestHeaders['content-type'] ?? '';
  const resType = x.responseHeaders?.['content-type'] ?? '';
  return {
    startedDateTime: new Date(started).toISOString(),
    time: x.ms,
    request: {
      method: x.method,
      url: x.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(x.requestHeaders),
      queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
      ...(x.requestBody !== undefined ? { postData: { mimeType: type, text: x.requestBody } } : {}),
      headersSize: -1,
      bodySize: x.requestBytes?.length ?? -1,
    },
    response: {
      status: x.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(x.responseHeaders),
      content: {
        size: x.responseBody?.length ?? 0,
        mimeType: resType,
        ...(x.responseBody !== undefined ? { text: x.responseBody } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(x.error ? { _error: x.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: x.ms, receive: 0 },
  };
}

/** A HAR 1.2 document of `exchanges`; the times are relative (the recorder keeps durations, not clock times). */
function harLog(exchanges: readonly Exchange[], start = Date.now()): string {
  let t = start;
  const entries = exchanges.map((x) => {
    const e = harEntry(x, t);
    t += x.ms;
    return e;
  });
  return JSON.stringify(
    { log: { version: '1.2', creator: { name: identity().name, version: identity().version }, pages: [], entries } },
    null,
    1,
  );
}

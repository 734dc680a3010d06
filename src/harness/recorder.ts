/**
 * Every call a check makes, redacted as it is recorded, so the HTML report can show each
 * check's requests and responses and a curl line that reproduces them. It also counts the
 * refusals a check did not ask for, for the vacuous-pass guard.
 */
import { MASK, redactBody, redactHeaders, redactUrl } from '../client/redact.js';

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  error?: string;
  ms: number;
}

const BODY_SHOWN = 4_000;
const REFUSALS = (s: number) => s === 401 || s === 403 || s === 429 || s >= 500;
const clip = (s: string) => (s.length > BODY_SHOWN ? `${s.slice(0, BODY_SHOWN)}… (${s.length} characters)` : s);

export class Recorder {
  readonly exchanges: Exchange[] = [];
  calls = 0;
  refused = 0;

  record(e: { method: string; url: string; headers: Record<string, string>; body?: string; status?: number; responseHeaders?: Record<string, string>; responseBody?: string; error?: string; ms: number }, expected: readonly number[] = []): void {
    this.calls++;
    if (e.status !== undefined && REFUSALS(e.status) && !expected.includes(e.status)) this.refused++;
    if (this.exchanges.length >= 200) return;
    const reqType = e.headers['content-type'] ?? '';
    this.exchanges.push({
      method: e.method,
      url: redactUrl(e.url),
      requestHeaders: redactHeaders(e.headers),
      requestBody: e.body === undefined ? undefined : clip(redactBody(e.body, reqType)),
      status: e.status,
      responseHeaders: e.responseHeaders && redactHeaders(e.responseHeaders),
      responseBody: e.responseBody === undefined ? undefined : clip(redactBody(e.responseBody, e.responseHeaders?.['content-type'])),
      error: e.error,
      ms: e.ms,
    });
  }

  /** Human-readable transcript. */
  transcript(): string {
    return this.exchanges.map((x, i) => [
      `#${i + 1} ${x.method} ${x.url}  (${x.ms} ms)`,
      ...Object.entries(x.requestHeaders).map(([k, v]) => `> ${k}: ${v}`),
      x.requestBody !== undefined ? `> ${x.requestBody}` : '',
      x.error ? `! ${x.error}` : `< ${x.status}`,
      ...Object.entries(x.responseHeaders ?? {}).map(([k, v]) => `< ${k}: ${v}`),
      x.responseBody !== undefined ? `< ${x.responseBody}` : '',
    ].filter(Boolean).join('\n')).join('\n\n');
  }

  /** curl lines reproducing the calls, credentials left as placeholders. */
  curl(): string {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    return this.exchanges.map((x) => {
      const headers = Object.entries(x.requestHeaders).filter(([k]) => !['content-length', 'host', 'connection'].includes(k.toLowerCase()))
        .map(([k, v]) => `-H ${q(`${k}: ${v.replace(MASK, '$TOKEN')}`)}`);
      const body = x.requestBody !== undefined ? ` --data-binary ${q(x.requestBody)}` : '';
      return `curl -sS -X ${x.method} ${headers.join(' ')}${body} ${q(x.url)}`;
    }).join('\n');
  }
}

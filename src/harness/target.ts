/**
 * The target as the checks see it: credentialed calls by family, base tokens obtained
 * once per worker, and rate-aware scheduling — functional checks wait for the window's
 * reset instead of tripping 429s (a check that wants to see the 429 says `raw429`).
 */
import { send, type HttpResponse, type Limits } from '../client/http.js';
import { registerSecret } from '../client/redact.js';
import { endpoint, fillPath, gatewayPath } from '../spec/index.js';
import { Undecided, undecided } from './outcome.js';
import type { ExchangeRef, Recorder } from './recorder.js';
import type { RunState } from './state.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { harnessEnv } from '../common/harness-env.js';

export type Auth = 'none' | 'account' | { base: number } | { api: number } | { raw: string };

export interface CallOptions {
  method?: string;
  /** Absolute path on the target, e.g. `/api2/ping/`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  multipart?: FormData;
  /** Bytes as given; `contentType` undefined sends none (a probe of a body without one). */
  rawBody?: { body: string | Uint8Array; contentType: string | undefined };
  headers?: Record<string, string>;
  auth?: Auth;
  /** Statuses the check anticipates (a 403 an auth check asks for is no vacuous refusal). */
  expect?: readonly number[];
  /** Return a 429 as is instead of waiting for the window and retrying. */
  raw429?: boolean;
  /** Bind this local (loopback) source address. */
  localAddress?: string;
  /** Return transport failures as `{ transport }` instead of ending the check as error. */
  allowTransportError?: boolean;
  limits?: Partial<Limits>;
}

export class Reply {
  /** `exchange`: where the check's recorder holds it (a violation about this reply cites it). */
  constructor(
    readonly res: HttpResponse,
    readonly what: string,
    readonly exchange?: ExchangeRef,
  ) {}
  get status() {
    return this.res.status;
  }
  get headers() {
    return this.res.headers;
  }
  get text() {
    return this.res.body.toString('utf8');
  }
  get ms() {
    return this.res.ms;
  }
  header(name: string): string | undefined {
    return this.res.headers[name.toLowerCase()];
  }
  /** The body as JSON; a redirect, a non-JSON content type or malformed JSON leaves the check undecided. */
  json<T = unknown>(): T {
    if (this.status >= 300 && this.status < 400)
      throw new Undecided('redirect', `${this.what}: answered ${this.status} → ${this.header('location') ?? '?'}`);
    const type = this.header('content-type') ?? '';
    if (this.res.body.length > 0 && !/json/i.test(type))
      throw new Undecided(
        'content-type',
        `${this.what}: status ${this.status} with content type ${JSON.stringify(type)}, not JSON`,
      );
    try {
      return JSON.parse(this.text) as T;
    } catch (e) {
      throw new Undecided(
        'bad-json',
        `${this.what}: status ${this.status}, body is not valid JSON (${(e as Error).message}): ${this.text.slice(0, 120)}`,
      );
    }
  }
}

/**
 * `conformance selftest` (src/mutants/coverage.ts) learns which check reached which fault
 * switch of its reference server: with CONFHARNESS_TAG_CALLS set, every call carries the
 * running check's title. Never set against a real target.
 */
export const CALL_TAG_HEADER = 'x-conformance-check';
/** The tag of the runner's end-of-run sweep: after every check, so no fault it meets can change a check's verdict. */
export const SWEEP_TAG = '(end-of-run sweep)';
/** Whether calls are to carry their tag (set by the selftest for its own reference server only). */
export const tagging = () => harnessEnv('tagCalls');
let callTag: string | undefined;
export function tagCalls(title: string | undefined): void {
  callTag = title === undefined ? undefined : encodeURIComponent(title);
}
/** That header, for calls made outside `Target` (the official client's own HTTP). */
export function callTagHeader(): Record<string, string> {
  return callTag ? { [CALL_TAG_HEADER]: callTag } : {};
}

interface Budget {
  remaining: number;
  reset: number;
}

export class Target {
  private readonly baseTokens = new Map<number, Promise<string>>();
  private accountTokenP?: Promise<string | undefined>;
  private readonly budgets = new Map<string, Budget>();
  recorder?: Recorder;
  /** Requests sent so far (each retry counts): what `conformance diff` reports it made. */
  sent = 0;
  /** Sees every answer (`conformance diff` learns the target's column keys from them). */
  observe?: (r: Reply) => void;

  constructor(readonly state: RunState) {
    for (const s of [state.target.password, state.target.account_token, ...state.target.bases.map((b) => b.api_token)])
      registerSecret(s);
  }

  /** Forget what earlier calls taught (tokens, rate budgets), as a fresh worker would. */
  forget(): void {
    this.baseTokens.clear();
    this.accountTokenP = undefined;
    this.budgets.clear();
  }

  get url() {
    return this.state.target.url;
  }
  base(i: number) {
    const b = this.state.target.bases[i];
    if (!b) throw new Undecided('descriptor', `the target descriptor has no base #${i + 1}`);
    return b;
  }
  gatewayPath(i: number, sub = '') {
    return gatewayPath(this.base(i).uuid, sub);
  }
  windowMs() {
    return this.state.target.rate_window_seconds * 1000;
  }

  /** Account token from the descriptor, else from username/password (AUTH-1); undefined if neither. */
  accountToken(): Promise<string | undefined> {
    this.accountTokenP ??= (async () => {
      const t = this.state.target;
      if (t.account_token) return t.account_token;
      if (!t.username || !t.password) return undefined;
      const r = await this.call({
        method: 'POST',
        path: endpoint('authToken').path,
        form: { username: t.username, password: t.password },
      });
      const token = r.status === 200 ? r.json<{ token?: string }>().token : undefined;
      registerSecret(token);
      return token;
    })();
    return this.accountTokenP;
  }

  /** A base token for base `i`, from its API token (AUTH-3). */
  baseToken(i: number): Promise<string> {
    let p = this.baseTokens.get(i);
    if (!p) {
      p = (async () => {
        const r = await this.call({ path: endpoint('appAccessToken').path, auth: { api: i } });
        if (r.status !== 200)
          throw new Undecided(
            'fixture',
            `could not obtain a base token for base #${i + 1}: status ${r.status}: ${r.text.slice(0, 200)}`,
          );
        const token = r.json<{ access_token?: string }>().access_token;
        if (typeof token !== 'string') throw new Undecided('fixture', 'app-access-token answer has no access_token');
        registerSecret(token);
        return token;
      })();
      this.baseTokens.set(i, p);
      p.catch(() => this.baseTokens.delete(i));
    }
    return p;
  }

  /** The Authorization header value for `auth` (undefined: none). */
  async authorization(auth: Auth | undefined): Promise<string | undefined> {
    if (!auth || auth === 'none') return undefined;
    if (auth === 'account') {
      const t = await this.accountToken();
      if (!t)
        throw new Undecided(
          'fixture',
          'no account token: the descriptor has neither account_token nor username/password',
        );
      return `Token ${t}`;
    }
    if ('raw' in auth) return auth.raw;
    if ('api' in auth) return `Token ${this.base(auth.api).api_token}`;
    return `Bearer ${await this.baseToken(auth.base)}`;
  }

  /** The rate-limit key a path counts against, as far as the harness can tell (§8.1.2). */
  private keyOf(path: string, localAddress?: string): string {
    const m = /\/dtables\/([0-9a-f-]{36})\//.exec(path);
    return m
      ? `base:${m[1]}`
      : `ip:${localAddress ?? 'default'}:${path.startsWith('/api2/auth-token') ? 'auth' : 'account'}`;
  }

  private async waitForBudget(key: string): Promise<void> {
    const b = this.budgets.get(key);
    if (!b || b.remaining > 1) return;
    const wait = b.reset * 1000 - Date.now() + 50;
    if (wait > 0 && wait <= this.windowMs() + 2_000) await sleep(wait);
    this.budgets.delete(key);
  }

  private noteBudget(key: string, headers: Readonly<Record<string, string>>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isInteger(remaining) && Number.isInteger(reset)) this.budgets.set(key, { remaining, reset });
  }

  /** After a 429: wait for the window it names (x-ratelimit-reset), else a whole window. */
  private async waitAfter429(headers: Readonly<Record<string, string>>): Promise<void> {
    const reset = Number(headers['x-ratelimit-reset']);
    const wait =
      Number.isInteger(reset) && reset * 1000 > Date.now() ? reset * 1000 - Date.now() + 50 : this.windowMs();
    await sleep(Math.min(wait, this.windowMs() + 2_000));
  }

  /**
   * The rate pacing of `call` for a request sent some other way (a probe over a bare socket):
   * wait for the budget of `path`'s key, and after a 429 wait for the window and send again
   * (at most 3 times). `answer` reads an outcome's status and headers (undefined: no answer).
   */
  async paced<R>(
    path: string,
    sendOnce: () => Promise<R>,
    answer: (r: R) => { status: number; headers: Record<string, string> } | undefined,
  ): Promise<R> {
    const key = this.keyOf(path);
    for (let attempt = 0; ; attempt++) {
      await this.waitForBudget(key);
      const r = await sendOnce();
      const a = answer(r);
      if (a) this.noteBudget(key, a.headers);
      if (a?.status !== 429 || attempt >= 3) return r;
      await this.waitAfter429(a.headers);
    }
  }

  async call(o: CallOptions): Promise<Reply> {
    const r = await this.attempt(o);
    if ('transport' in r) throw r.transport;
    return r.reply;
  }

  /** Like `call` but a transport failure comes back as a value (hostile-target checks). */
  async attempt(o: CallOptions): Promise<{ reply: Reply } | { transport: Undecided; exchange?: ExchangeRef }> {
    const method = o.method ?? 'GET';
    const url = new URL(o.path, this.url + '/');
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    if (callTag) headers[CALL_TAG_HEADER] = callTag;
    const auth = await this.authorization(o.auth);
    if (auth) headers.authorization = auth;
    let body: string | Uint8Array | undefined;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    } else if (o.form) {
      body = new URLSearchParams(o.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (o.rawBody) {
      body = o.rawBody.body;
      if (o.rawBody.contentType !== undefined) headers['content-type'] = o.rawBody.contentType;
    } else if (o.multipart) {
      const r = new Response(o.multipart);
      body = Buffer.from(await r.arrayBuffer());
      headers['content-type'] = r.headers.get('content-type')!;
    }
    const limits = { ...this.state.http, ...o.limits };
    const key = this.keyOf(url.pathname, o.localAddress);
    const what = `${method} ${url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      if (!o.raw429) await this.waitForBudget(key);
      this.sent++;
      const res = await send({ method, url: url.toString(), headers, body }, limits, o.localAddress);
      if (!res.ok) {
        const exchange = this.recorder?.record({
          method,
          url: url.toString(),
          headers,
          body,
          error: `${res.kind}: ${res.message}`,
          ms: res.ms,
        });
        const u = undecided(res, what);
        if (o.allowTransportError) return { transport: u, exchange };
        throw u;
      }
      const exchange = this.recorder?.record(
        {
          method,
          url: url.toString(),
          headers,
          body,
          status: res.status,
          responseHeaders: res.headers,
          responseBody: res.body.length > 64_000 ? `<${res.body.length} bytes>` : res.body.toString('utf8'),
          ms: res.ms,
        },
        o.expect ?? [],
      );
      this.noteBudget(key, res.headers);
      if (res.status === 429 && !o.raw429 && attempt < 3) {
        await this.waitAfter429(res.headers);
        continue;
      }
      const reply = new Reply(res, what, exchange);
      this.observe?.(reply);
      return { reply };
    }
  }

  /** A gateway call on base `i` with its base token. */
  gw(i: number, method: string, sub: string, o: Omit<CallOptions, 'path' | 'method'> = {}): Promise<Reply> {
    return this.call({ auth: { base: i }, ...o, method, path: this.gatewayPath(i, sub) });
  }

  /** An account call; `params` fill the path template. */
  account(
    method: string,
    template: string,
    params: Record<string, string | number> = {},
    o: Omit<CallOptions, 'path' | 'method'> = {},
  ): Promise<Reply> {
    return this.call({ auth: 'account', ...o, method, path: fillPath(template, params) });
  }
}

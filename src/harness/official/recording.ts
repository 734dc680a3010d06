/**
 * The official client's HTTP goes through axios, not the harness's client: interceptors on
 * its axios instances record every exchange into the running check's recorder (redacted
 * there), tag it for the selftest's coverage, bound it with the run's timeouts, and wait
 * out a 429 as the harness's own functional calls do (src/harness/target.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AxiosError, AxiosInstance, AxiosResponse, AxiosStatic, InternalAxiosRequestConfig } from 'axios';
import type { Limits } from '../../client/http.js';
import { callStarted } from '../../client/in-flight.js';
import { httpsAgent } from '../../client/tls.js';
import { Undecided } from '../outcome.js';
import { callTagHeader, type Target } from '../target.js';

/** What the interceptors keep on a request's config (axios copies unknown keys when it re-sends one). */
type Config = InternalAxiosRequestConfig & {
  conformanceStarted?: number;
  conformanceRetries?: number;
  /** Ends the call's count in src/client/in-flight.ts. */
  conformanceEnd?: () => void;
};

const RETRIES_ON_429 = 3;

function flat(headers: unknown): Record<string, string> {
  const h = headers as { toJSON?: () => Record<string, unknown> } | undefined;
  const obj = typeof h?.toJSON === 'function' ? h.toJSON() : ((headers ?? {}) as Record<string, unknown>);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj))
    if (v !== undefined && v !== null && v !== false) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

const text = (data: unknown): string | undefined =>
  data === undefined || data === null ? undefined : typeof data === 'string' ? data : JSON.stringify(data);

function record(
  target: Target,
  axios: AxiosInstance | AxiosStatic,
  config: Config,
  res?: AxiosResponse,
  error?: AxiosError,
): void {
  target.recorder?.record({
    method: (config.method ?? 'get').toUpperCase(),
    url: axios.getUri(config),
    headers: flat(config.headers),
    body: text(config.data),
    status: res?.status,
    responseHeaders: res ? flat(res.headers) : undefined,
    responseBody: res ? text(res.data) : undefined,
    error: res ? undefined : `${error?.code ?? 'error'}: ${error?.message ?? 'no answer'}`,
    ms: Date.now() - (config.conformanceStarted ?? Date.now()),
  });
}

/**
 * A 2xx answer whose body axios could not parse as JSON reaches the client as a string (its
 * silent JSON parsing): as for the harness's own calls (Reply.json), the check is undecided,
 * not failed. (No client method expects a bare JSON string.)
 */
function unreadable(axios: AxiosInstance | AxiosStatic, res: AxiosResponse): void {
  if (typeof res.data !== 'string' || res.data.trim() === '') return;
  const type = flat(res.headers)['content-type'] ?? '';
  const what = `${(res.config.method ?? 'get').toUpperCase()} ${new URL(axios.getUri(res.config)).pathname}`;
  if (!/json/i.test(type))
    throw new Undecided(
      'content-type',
      `${what}: status ${res.status} with content type ${JSON.stringify(type)}, not JSON`,
    );
  throw new Undecided('bad-json', `${what}: status ${res.status}, body is not valid JSON: ${res.data.slice(0, 120)}`);
}

/** How long to wait after a 429: until its x-ratelimit-reset, at most one window and a bit. */
function waitAfter429(res: AxiosResponse, windowMs: number): number {
  const reset = Number(flat(res.headers)['x-ratelimit-reset']);
  const wait = Number.isInteger(reset) && reset * 1000 > Date.now() ? reset * 1000 - Date.now() + 50 : windowMs;
  return Math.min(wait, windowMs + 2_000);
}

/** Record the calls `axios` (an instance of the client's) makes from now on; returns the undo. */
export function recordCalls(axios: AxiosInstance | AxiosStatic, target: Target, limits: Limits): () => void {
  const req = axios.interceptors.request.use((config: Config) => {
    config.conformanceStarted = Date.now();
    config.conformanceEnd = callStarted();
    for (const [k, v] of Object.entries(callTagHeader())) config.headers.set(k, v);
    // axios waits forever and reads any size unless told: the run's limits apply, as to every call.
    if (!config.timeout) config.timeout = limits.connectMs + limits.headersMs + limits.bodyMs;
    if (config.maxContentLength === undefined || config.maxContentLength < 0)
      config.maxContentLength = limits.maxBodyBytes;
    // The run's TLS trust (--ca-file, --insecure), as for the harness's own calls.
    if (!config.httpsAgent) config.httpsAgent = httpsAgent();
    return config;
  });
  const res = axios.interceptors.response.use(
    (response: AxiosResponse) => {
      (response.config as Config).conformanceEnd?.();
      record(target, axios, response.config as Config, response);
      unreadable(axios, response);
      return response;
    },
    async (error: AxiosError) => {
      const config = error.config as Config | undefined;
      if (!config) throw error;
      config.conformanceEnd?.();
      record(target, axios, config, error.response, error);
      if (error.response?.status === 429 && (config.conformanceRetries ?? 0) < RETRIES_ON_429) {
        config.conformanceRetries = (config.conformanceRetries ?? 0) + 1;
        await sleep(waitAfter429(error.response, target.windowMs()));
        return axios.request(config);
      }
      throw error;
    },
  );
  return () => {
    axios.interceptors.request.eject(req);
    axios.interceptors.response.eject(res);
  };
}

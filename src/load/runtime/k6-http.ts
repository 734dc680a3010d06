/**
 * `k6/http`: request methods, batch, expectedStatuses and setResponseCallback. A call turns
 * its arguments into an HttpRequestSpec, sends it on the thread's HTTP client and resolves
 * with the answer (the transform makes the script await it), after emitting the http_req_*
 * samples with k6's system tags.
 */
import type { Answer, Expected, HttpRequestSpec } from './protocol.js';
import { baseKey, baseTags, exchange, exchangeAll, state, use } from './vu-state.js';
import { Response } from './k6-response.js';
import { newTagSet, onRestart, pushRequest } from './samples.js';
import { stringTags } from './k6-core.js';
import { parseDuration } from '../engine/duration.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const USER_AGENT = 'k6/0.49.0 (https://k6.io/) conformance-builtin';
const DEFAULT_HEADERS: Record<string, string> = Object.freeze({ 'User-Agent': USER_AGENT });
const NO_PARAMS: Params = Object.freeze({});

/** What expectedStatuses() returns: opaque to scripts, as in k6. */
export class ExpectedStatuses {
  constructor(readonly ranges: [number, number][]) {}
}

export function expectedStatuses(...args: (number | { min: number; max: number })[]): ExpectedStatuses {
  const ranges: [number, number][] = [];
  for (const a of args) {
    if (typeof a === 'number' && Number.isInteger(a)) ranges.push([a, a]);
    else if (a && typeof a === 'object' && Number.isInteger(a.min) && Number.isInteger(a.max))
      ranges.push([a.min, a.max]);
    else throw new Error(`expectedStatuses: ${JSON.stringify(a)} is neither an integer nor {min, max}`);
  }
  return new ExpectedStatuses(ranges);
}

/** k6 default: 200–399 are expected. */
let defaultCallback: Expected = [[200, 399]];

export function setResponseCallback(cb: ExpectedStatuses | null): void {
  if (cb !== null && !(cb instanceof ExpectedStatuses))
    throw new Error('setResponseCallback takes the result of http.expectedStatuses() or null');
  defaultCallback = cb ? cb.ranges : null;
}

let discardBodies = false;
export function setDiscardResponseBodies(v: boolean): void {
  discardBodies = v;
}

interface Params {
  headers?: Record<string, unknown>;
  tags?: Record<string, unknown>;
  timeout?: string | number;
  responseType?: 'text' | 'binary' | 'none';
  responseCallback?: ExpectedStatuses | null;
}

type Body = string | ArrayBuffer | ArrayBufferView | Record<string, unknown> | null | undefined;

function toSpec(method: string, url: unknown, body: Body, params: Params | null | undefined): HttpRequestSpec {
  if (state.inInit) throw new Error('making HTTP requests in the init context is not supported');
  const u = String(url);
  const p = params ?? NO_PARAMS;
  let payload: string | Uint8Array | null = null;
  let form = false;
  if (typeof body === 'string') payload = body;
  else if (body instanceof ArrayBuffer) payload = new Uint8Array(body);
  else if (ArrayBuffer.isView(body)) payload = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  else if (body && typeof body === 'object') {
    payload = new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString();
    form = true;
  }
  // A request with no headers of its own and no form body shares one headers object (nothing writes to it).
  let headers = DEFAULT_HEADERS;
  const ph = p.headers;
  if (ph || form) {
    headers = { 'User-Agent': USER_AGENT };
    if (ph) for (const k of Object.keys(ph)) headers[k] = String(ph[k]);
    if (form && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  const timeoutMs = p.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseDuration(p.timeout);
  if (timeoutMs === undefined) throw new Error(`invalid timeout ${String(p.timeout)}`);
  // As in k6: a responseCallback key that is present but null or undefined disables http_req_failed.
  const expected = !Object.prototype.hasOwnProperty.call(p, 'responseCallback')
    ? defaultCallback
    : p.responseCallback
      ? p.responseCallback.ranges
      : null;
  const userTags = p.tags ? stringTags(p.tags) : NO_TAGS;
  return {
    method,
    url: u,
    headers,
    body: payload,
    timeoutMs,
    expected,
    responseType: p.responseType ?? (discardBodies ? 'none' : 'text'),
    userTags,
    tagsKey: userTags === NO_TAGS ? '' : JSON.stringify(userTags),
    base: baseKey(),
  };
}

const NO_TAGS: Record<string, string> = {};

/**
 * Tag-set numbers of requests, found without building a key string per request: by base tags
 * (a number), the request's own tags (their JSON, '' for none), method, URL, then the answer's
 * status and expectation (a number) — or, for a transport error, its code and message.
 */
type ByAnswer = Map<number | string, number>;
const tagSets = new Map<number, Map<string, Map<string, Map<string, ByAnswer>>>>();
const EXP = { '': 0, true: 1, false: 2 } as const;
// The numbers are void once the thread's numbering restarts (samples.ts, too many distinct sets).
onRestart(() => tagSets.clear());

/** The tag-set numbers of one request's answers (four map lookups, no key string, no closure). */
function answersOf(spec: HttpRequestSpec): ByAnswer {
  let byTags = tagSets.get(spec.base);
  if (!byTags) tagSets.set(spec.base, (byTags = new Map()));
  let byMethod = byTags.get(spec.tagsKey);
  if (!byMethod) byTags.set(spec.tagsKey, (byMethod = new Map()));
  let byUrl = byMethod.get(spec.method);
  if (!byUrl) byMethod.set(spec.method, (byUrl = new Map()));
  let byAnswer = byUrl.get(spec.url);
  if (!byAnswer) byUrl.set(spec.url, (byAnswer = new Map()));
  return byAnswer;
}

/** The samples k6 emits for one request, tagged with its system tags and expected_response. */
function measure(spec: HttpRequestSpec, r: Answer, time: number): void {
  let failed = false,
    expected: '' | 'true' | 'false' = '';
  const ranges = spec.expected;
  if (ranges) {
    let ok = false;
    for (let i = 0; i < ranges.length && !ok; i++) ok = r.status >= ranges[i]![0] && r.status <= ranges[i]![1];
    failed = !ok;
    expected = ok ? 'true' : 'false';
  }
  const byAnswer = answersOf(spec);
  const answerKey: number | string = r.errorCode
    ? `${r.errorCode}\u0001${r.error}\u0001${expected}`
    : r.status * 4 + EXP[expected];
  let id = byAnswer.get(answerKey);
  if (id === undefined) {
    const tags: Record<string, string> = { ...baseTags(), ...spec.userTags };
    Object.assign(tags, {
      method: spec.method,
      url: spec.url,
      name: tags.name ?? spec.url,
      status: String(r.status),
      proto: r.proto,
    });
    if (expected) tags.expected_response = expected;
    if (r.errorCode) {
      tags.error = r.error;
      tags.error_code = String(r.errorCode);
    }
    id = newTagSet(tags);
    byAnswer.set(answerKey, id);
  }
  // One record: http_reqs, the timings, http_req_failed (when a callback says what is expected), the bytes.
  pushRequest(id, time, r.timings, spec.expected ? (failed ? 1 : 0) : -1, r.bytesSent, r.bytesReceived);
}

type BatchItem =
  string | [string, unknown, Body?, Params?] | { method: string; url: unknown; body?: Body; params?: Params };

function batchSpec(item: BatchItem): HttpRequestSpec {
  if (typeof item === 'string') return toSpec('GET', item, null, null);
  if (Array.isArray(item)) return toSpec(String(item[0]).toUpperCase(), item[1], item[2], item[3]);
  return toSpec(String(item.method ?? 'GET').toUpperCase(), item.url, item.body, item.params);
}

/** A request's samples, then its Response; the VU that made it is current again. */
function call(method: string, url: unknown, body: Body, params: Params | null | undefined): Promise<Response> {
  const spec = toSpec(method, url, body, params);
  return exchange(spec, (a) => {
    measure(spec, a, Date.now());
    return new Response(a, spec);
  });
}

async function batch(reqs: BatchItem[] | Record<string, BatchItem>): Promise<Response[] | Record<string, Response>> {
  const keys = Array.isArray(reqs) ? null : Object.keys(reqs);
  const specs = keys
    ? keys.map((k) => batchSpec((reqs as Record<string, BatchItem>)[k]!))
    : (reqs as BatchItem[]).map(batchSpec);
  const s = state;
  const answers = await exchangeAll(specs);
  use(s);
  const now = Date.now();
  const out = answers.map((a, i) => {
    measure(specs[i]!, a, now);
    return new Response(a, specs[i]!);
  });
  return keys ? Object.fromEntries(keys.map((k, i) => [k, out[i]!])) : out;
}

export const methods = {
  request: (method: string, url: unknown, body?: Body, params?: Params | null) =>
    call(String(method).toUpperCase(), url, body, params),
  get: (url: unknown, params?: Params) => call('GET', url, null, params),
  head: (url: unknown, params?: Params) => call('HEAD', url, null, params),
  options: (url: unknown, body?: Body, params?: Params) => call('OPTIONS', url, body, params),
  post: (url: unknown, body?: Body, params?: Params) => call('POST', url, body, params),
  put: (url: unknown, body?: Body, params?: Params) => call('PUT', url, body, params),
  patch: (url: unknown, body?: Body, params?: Params) => call('PATCH', url, body, params),
  del: (url: unknown, body?: Body, params?: Params) => call('DELETE', url, body, params),
  /** Issues the requests in parallel; an array in gives an array out, an object gives an object. */
  batch,
};

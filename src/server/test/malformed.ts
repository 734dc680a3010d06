/**
 * Malformed requests, generated from the endpoint table: every row the target's release serves
 * gets broken JSON, JSON of the wrong top-level type, wrong types at each field, bodies nested
 * past the limit, an oversized body, broken multipart, urlencoded garbage, wrong content types,
 * names no store should take, and methods the API does not serve. Each probe says what a
 * conforming server answers. A new row is picked up as it is added, its `params` when it has
 * them. Probes are plain values (method, path, headers, bytes): the reference server's tests
 * send them here; the conformance suites can send the same ones to any target.
 *
 * Bounded: a body row gets 36 probes plus 3–6 per field (about 160 for a row without `params`),
 * a GET row 6 plus a few per declared parameter, each path 4 methods: about 5,100 requests for
 * the 6.2 table. The tests assert the count stays under their cap, so growth shows.
 */
import { INPUT_LIMITS, offeredAt, type Endpoint } from '../../spec/index.js';
import { BAD_TEXT, declaredParams, fieldsOf, GATEWAY_STYLE, QUERY_FIELDS, WRONG_INSIDE, WRONG_JSON, WRONG_QUERY, type Field } from './malformed-fields.js';
import { multipartProbes } from './malformed-multipart.js';

export interface Probe {
  /** Class of malformed input, for grouping and messages. */
  readonly kind: string;
  readonly what: string;
  /** The row probed; undefined for a route the table does not have. */
  readonly ep?: Endpoint;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Send over a bare socket: a method fetch refuses, a Content-Length that promises more than is sent, a chunked body. */
  readonly raw?: { contentLength?: number; chunked?: boolean };
  /**
   * `refused`: a 4xx with the family's error body (and, if `status` is given, one of those).
   * `lenient`: not a 5xx, and an error body if a 4xx (a GET whose parameters the table does not list).
   * `not-parse-refusal`: anything but a refusal by the body parser (an empty DELETE body, a body at the depth limit).
   */
  readonly expect: 'refused' | 'lenient' | 'not-parse-refusal';
  readonly status?: readonly number[];
  /** What the refusal says when it has the class's own status (the first of `status`): the check that refused. */
  readonly message?: RegExp;
  /** Error body key the family answers with: `error_message` on the gateway, `error_msg` elsewhere. */
  readonly style: 'error_message' | 'error_msg';
}

export interface ProbeSetup {
  /** The target's release: rows it does not serve are left out. */
  version: string;
  /** Real values of path parameters; a parameter not given is filled with a value naming nothing. */
  params: Readonly<Record<string, string | number>>;
  /** The credential to send for a row, if any. */
  token(ep: Endpoint): string | undefined;
  /** Paths the endpoint table does not have (unknown-route probes): one per error style at least. */
  unknownPaths: readonly string[];
}

/** The body parser's own refusals: what an empty DELETE body or a body at the limit must not get. */
export const PARSE_REFUSAL = /^Request body (is not valid JSON|must be a JSON object, not|is nested deeper)|Body cannot be empty|Content-Type .* is not supported/;
/** Parameters that name the base or workspace a call works in; any other one in a DELETE path names nothing real. */
const SCOPE_PARAMS = new Set(['base_uuid', 'workspace_id', 'base_name']);
const NOTHING = '999999';
/** CONNECT reaches Node's `connect` event, TRACE and PROPFIND fastify's router, FOO only Node's HTTP parser. */
const METHODS_NOT_SERVED = ['CONNECT', 'TRACE', 'PROPFIND', 'FOO'];

/** `[[…]]` with `levels` brackets (a value nested `levels` deep). */
export const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

function fill(ep: Endpoint, setup: ProbeSetup): { path: string; standIn: boolean } {
  let standIn = false;
  const path = ep.path.replace(/\{(\w+)\}/g, (_, k: string) => {
    // A DELETE names its target in the path and may read no body: naming a real one would let a body it ignores delete it.
    const real = ep.method === 'DELETE' && !SCOPE_PARAMS.has(k) ? undefined : setup.params[k];
    if (real === undefined) standIn = true;
    return encodeURIComponent(String(real ?? NOTHING));
  });
  return { path, standIn };
}

export function malformedProbes(endpoints: readonly Endpoint[], setup: ProbeSetup): Probe[] {
  const out: Probe[] = [];
  for (const ep of endpoints) {
    if (!offeredAt(ep, setup.version)) continue;
    out.push(...(ep.method === 'GET' ? queryProbes(ep, setup) : bodyProbes(ep, setup)));
  }
  // Methods per path (several rows share one), and a body past the limit that announces no length, per error style.
  const served = endpoints.filter((e) => offeredAt(e, setup.version));
  const styleOfRow = (e: Endpoint): Probe['style'] => (GATEWAY_STYLE.has(e.family) ? 'error_message' : 'error_msg');
  const paths = new Map(served.map((e) => [fill(e, setup).path, styleOfRow(e)]));
  for (const [path, style] of paths) {
    for (const method of METHODS_NOT_SERVED) out.push({ kind: 'method', what: `${method} ${path}`, method, path, headers: {}, body: method === 'PROPFIND' ? '<propfind/>' : undefined, raw: {}, expect: 'refused', status: [405], style });
  }
  for (const style of ['error_message', 'error_msg'] as const) {
    // A path parameter that does not percent-decode: refused before routing completes.
    const withParam = served.find((e) => /\{\w+\}/.test(e.path) && styleOfRow(e) === style);
    if (withParam) out.push({ kind: 'url', what: `${withParam.id}: a path parameter %FF`, ep: withParam, method: withParam.method, path: withParam.path.replace(/\{\w+\}/, '%FF').replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(setup.params[k] ?? NOTHING))), headers: {}, expect: 'refused', status: [400], style });
    const ep = served.find((e) => e.method === 'POST' && styleOfRow(e) === style);
    const token = ep && setup.token(ep);
    if (ep) out.push({ kind: 'size', what: `${ep.id}: a chunked body of ${INPUT_LIMITS.bodyBytes + 1} bytes`, ep, method: ep.method, path: fill(ep, setup).path, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) }, body: `{"a":"${'x'.repeat(INPUT_LIMITS.bodyBytes - 6)}"}`, raw: { chunked: true }, expect: 'refused', status: [413], style });
  }
  out.push(...unknownRouteProbes(setup));
  return out;
}

function bodyProbes(ep: Endpoint, setup: ProbeSetup): Probe[] {
  const { path, standIn } = fill(ep, setup);
  const token = setup.token(ep);
  const auth: Record<string, string> = token ? { authorization: `Token ${token}` } : {};
  const style: Probe['style'] = GATEWAY_STYLE.has(ep.family) ? 'error_message' : 'error_msg';
  // A stand-in target may be refused before the body is read (403 for another team, 404 for no such thing).
  const statuses = (s: number) => (standIn ? [s, 403, 404] : [s]);
  const out: Probe[] = [];
  const send = (kind: string, what: string, body: string | Uint8Array | undefined, contentType: string | undefined, more: Partial<Probe> = {}) =>
    out.push({ kind, what: `${ep.id}: ${what}`, ep, method: ep.method, path, headers: { ...auth, ...(contentType ? { 'content-type': contentType } : {}) }, body, expect: 'refused', style, ...more });
  const json = (kind: string, what: string, value: unknown) => send(kind, what, JSON.stringify(value), 'application/json');

  for (const text of ['{bad json', '{"a":', '{"a":1}}', "{'a': 1}", '{"a":1,}', 'undefined']) send('broken-json', `broken JSON ${JSON.stringify(text)}`, text, 'application/json', { status: statuses(400), message: /not valid JSON/ });
  for (const text of ['[]', '[{}]', '"x"', '42', 'null', 'true']) send('top-level', `JSON ${text} at the top`, text, 'application/json', { status: statuses(400), message: /must be a JSON object/ });

  const fields = fieldsOf(ep).filter((f) => f.in === 'body');
  const first = fields[0]?.name ?? 'x';
  const max = INPUT_LIMITS.jsonDepth;
  // Refused by the parser, before any handler: the message names the limit.
  const deeper = new RegExp(`nested deeper than ${max}`);
  send('depth', `${first} nested ${max} deep (body ${max + 1})`, `{"${first}":${nested(max)}}`, 'application/json', { status: statuses(400), message: deeper });
  send('depth', `${first} nested 5,000 deep`, `{"${first}":${nested(5000)}}`, 'application/json', { status: statuses(400), message: deeper });
  send('depth', `${first} nested ${max - 1} deep (body at the limit)`, `{"${first}":${nested(max - 1)}}`, 'application/json', { expect: 'not-parse-refusal' });
  send('size', `Content-Length ${INPUT_LIMITS.bodyBytes + 1}`, '{"a":"', 'application/json', { raw: { contentLength: INPUT_LIMITS.bodyBytes + 1 }, status: statuses(413) });

  for (const f of fields) fieldProbes(f, json);
  for (const wrong of [12345, ['x'], { x: 1 }]) json('field-type', `every field ${JSON.stringify(wrong)}`, Object.fromEntries(fields.map((f) => [f.name, wrong])));
  send('unicode', 'invalid UTF-8 bytes', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json');

  out.push(...multipartProbes(first).map((m) => ({ ...m, what: `${ep.id}: ${m.what}`, ep, method: ep.method, path, headers: { ...auth, 'content-type': m.contentType }, expect: 'refused' as const, style })));
  send('urlencoded', 'urlencoded garbage', '%ZZ=%&&==&a=%E0%A4%A&\u0000=\u0000', 'application/x-www-form-urlencoded');
  send('urlencoded', 'urlencoded prototype keys', '__proto__[admin]=1&constructor[prototype][x]=1', 'application/x-www-form-urlencoded');
  for (const type of ['text/plain', 'application/xml', 'application/octet-stream', 'text/html; charset=utf-8', 'nonsense']) send('content-type', `Content-Type ${type}`, '{}', type, { status: statuses(415) });
  if (ep.method === 'DELETE') send('empty-delete', 'DELETE with Content-Type: application/json and no body', '', 'application/json', { expect: 'not-parse-refusal' });
  return out;
}

/** Each field alone (see malformed-fields.ts) with values of the wrong type, and names no store should take. */
function fieldProbes(f: Field, json: (kind: string, what: string, value: unknown) => void): void {
  for (const wrong of [...WRONG_JSON[f.kind], ...(WRONG_INSIDE[f.kind] ?? [])]) json('field-type', `${f.name} (${f.kind}) = ${JSON.stringify(wrong)}`, { [f.name]: wrong });
  if (f.kind === 'string') for (const bad of BAD_TEXT) json('unicode', `${f.name} = ${JSON.stringify(bad.slice(0, 12))}${bad.length > 12 ? `… (${bad.length} characters)` : ''}`, { [f.name]: bad });
}

/** GET rows: wrong query values at each declared parameter; without `params`, every known one at once, leniently. */
function queryProbes(ep: Endpoint, setup: ProbeSetup): Probe[] {
  const { path } = fill(ep, setup);
  const token = setup.token(ep);
  const headers: Record<string, string> = token ? { authorization: `Token ${token}` } : {};
  const style: Probe['style'] = GATEWAY_STYLE.has(ep.family) ? 'error_message' : 'error_msg';
  const q = (pairs: [string, string][]) => `${path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`;
  const probe = (what: string, url: string, expect: Probe['expect']): Probe => ({ kind: 'query', what: `${ep.id}: ${what}`, ep, method: 'GET', path: url, headers, expect, style });
  const enc = (s: string) => encodeURIComponent(s);
  // NUL, a lone surrogate in UTF-8 (no text decodes from it), a byte that is no UTF-8, 10,000 characters.
  const bad = ['%00', '%ED%A0%80', '%FF', 'x'.repeat(10_000)];
  if (!declaredParams(ep)) {
    const names = Object.keys(QUERY_FIELDS);
    return [
      probe('every known parameter twice', q(names.flatMap((n) => [[n, 'a'], [n, 'b']] as [string, string][])), 'lenient'),
      probe('every known parameter not a number', q(names.map((n) => [n, 'abc'])), 'lenient'),
      ...bad.map((b) => probe(`every known parameter ${b.slice(0, 12)}`, q(names.map((n) => [n, b])), 'lenient')),
    ];
  }
  const out: Probe[] = [];
  for (const f of fieldsOf(ep).filter((x) => x.in === 'query')) {
    out.push(probe(`${f.name} twice`, q([[f.name, 'a'], [f.name, 'b']]), 'refused'));
    for (const v of WRONG_QUERY[f.kind]) out.push(probe(`${f.name} (${f.kind}) = ${v}`, q([[f.name, enc(v)]]), 'refused'));
    if (f.kind === 'string') for (const b of bad) out.push(probe(`${f.name} = ${b.slice(0, 12)}`, q([[f.name, b]]), 'refused'));
  }
  return out;
}

/** Routes the table does not have: 404 whatever the body, the content type or the method's body rules. */
function unknownRouteProbes(setup: ProbeSetup): Probe[] {
  return setup.unknownPaths.flatMap((path) => {
    const style = path.startsWith('/api-gateway/') ? 'error_message' as const : 'error_msg' as const;
    const p = (what: string, method: string, body: string | undefined, contentType: string | undefined, raw?: Probe['raw']): Probe =>
      ({ kind: 'unknown-route', what: `${method} ${path}: ${what}`, method, path, headers: contentType ? { 'content-type': contentType } : {}, body, raw, expect: 'refused', status: [404], style });
    const unparseable = (what: string, headers: Record<string, string>, status: number): Probe =>
      ({ kind: 'unknown-route', what: `GET ${path}: ${what}`, method: 'GET', path, headers, raw: {}, expect: 'refused', status: [status], style });
    return [
      unparseable('a header name with a space', { 'bad header': 'x' }, 400),
      unparseable('20 kB of headers', { 'x-padding': 'x'.repeat(20_000) }, 431),
      p('JSON Content-Type, no body', 'DELETE', '', 'application/json'),
      p('broken JSON', 'POST', '{bad', 'application/json'),
      p('JSON nested 5,000 deep', 'PUT', nested(5000), 'application/json'),
      p('multipart without a boundary', 'POST', '--x\r\n', 'multipart/form-data'),
      p('text/plain', 'POST', 'hello', 'text/plain'),
      p(`Content-Length ${INPUT_LIMITS.bodyBytes + 1}`, 'POST', '{', 'application/json', { contentLength: INPUT_LIMITS.bodyBytes + 1 }),
    ];
  });
}

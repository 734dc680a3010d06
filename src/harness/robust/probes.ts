/**
 * Malformed requests, generated from the endpoint table: every row the target's release serves
 * gets broken JSON, JSON of the wrong top-level type, wrong types at each field, bodies nested
 * past the limit, an oversized body, broken multipart, urlencoded garbage, wrong content types,
 * names no store should take, and methods the API does not serve. Probes are plain values
 * (method, path, headers, bytes), each tagged with the ROBUST clause it stands for and a
 * sampling group: the reference server's tests send them all (src/server/test/malformed.test.ts),
 * the ROBUST family a seeded, bounded sample to any target (sample.ts).
 *
 * Bounded: a body row gets 36 probes plus 3–6 per field, a GET row a few per declared
 * parameter, each path 4 methods: about 5,000 requests for the 6.2 table.
 */
import {
  answeredByBaseComponent,
  baseComponentPath,
  INPUT_LIMITS,
  offeredAt,
  type ClauseId,
  type Endpoint,
} from '../../spec/index.js';
import {
  BAD_QUERY_TEXTS,
  BAD_TEXTS,
  fieldsOf,
  QUERY_FIELDS,
  WRONG_INSIDE,
  WRONG_JSON,
  WRONG_QUERY,
  type BadText,
  type Field,
} from './fields.js';
import { multipartProbes } from './multipart.js';

export interface Probe {
  /** Class of malformed input, for grouping and messages. */
  readonly kind: string;
  /** What the sample picks one of per row (and field): `broken-json`, `multipart:no-boundary`, `unicode:nul`… */
  readonly group: string;
  /** The field the probe puts a wrong value in, if any. */
  readonly field?: string;
  /** The ROBUST clause the probe stands for; undefined for the reference server's own cases. */
  readonly clause?: ClauseId;
  readonly what: string;
  /** The row probed (for a method probe, a row at that path); undefined for a route the table does not have. */
  readonly ep?: Endpoint;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Send over a bare socket: a method fetch refuses, a Content-Length that promises more than is sent, a chunked body. */
  readonly raw?: { contentLength?: number; chunked?: boolean };
  /**
   * What the reference server answers (its tests hold it to this; the ROBUST family to its clauses only).
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

interface ProbeSetup {
  /** The target's release: rows it does not serve are left out. */
  version: string;
  /** Values of path parameters; a parameter not given is filled with a value naming nothing. */
  params: Readonly<Record<string, string | number>>;
  /** The credential to send for a row as `Token …`, if any (the harness adds its own at send time). */
  token(ep: Endpoint): string | undefined;
  /** Paths the endpoint table does not have (unknown-route probes): one per error style at least. */
  unknownPaths: readonly string[];
  /** The otherwise valid body a wrong value is put into (default: none, the field alone). */
  body?(ep: Endpoint): Readonly<Record<string, unknown>>;
  /** Query parameters every call of a row carries (its required ones, say); default none. */
  query?(ep: Endpoint): Readonly<Record<string, string>>;
  /** A bad text as sent (the harness prefixes names with the run's, so whatever is stored is swept). */
  text?(bad: string, kind: BadText): string;
  /** The value of a field in a multipart probe (default `x`). */
  name?: string;
  /** Only the probes of this clause (the others are not even built: some bodies are megabytes). */
  only?: ClauseId;
}

/** Does `setup` want probes of `clause` (undefined: the reference server's own cases)? */
const wants = (setup: ProbeSetup, ...clauses: (ClauseId | undefined)[]) => !setup.only || clauses.includes(setup.only);

/** Parameters that name the base or workspace a call works in; any other one in a DELETE path names nothing real. */
const SCOPE_PARAMS = new Set(['base_uuid', 'workspace_id', 'base_name']);
const NOTHING = '999999';
/** CONNECT reaches Node's `connect` event, TRACE and PROPFIND fastify's router, FOO only Node's HTTP parser. */
const METHODS_NOT_SERVED = ['CONNECT', 'TRACE', 'PROPFIND', 'FOO'] as const;
/** The methods ROBUST-5 names. */
const CLAUSE_METHODS = new Set<string>(['CONNECT', 'TRACE', 'PROPFIND']);

/** `[[…]]` with `levels` brackets (a value nested `levels` deep). */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const styleOfRow = (e: Endpoint): Probe['style'] => (answeredByBaseComponent(e.family) ? 'error_message' : 'error_msg');

function fill(ep: Endpoint, params: ProbeSetup['params']): { path: string; standIn: boolean } {
  let standIn = false;
  const path = ep.path.replace(/\{(\w+)\}/g, (_, k: string) => {
    // A DELETE names its target in the path and may read no body: naming a real one would let a body it ignores delete it.
    const real = ep.method === 'DELETE' && !SCOPE_PARAMS.has(k) ? undefined : params[k];
    if (real === undefined) standIn = true;
    return encodeURIComponent(String(real ?? NOTHING));
  });
  return { path, standIn };
}

const withQuery = (path: string, q: Readonly<Record<string, string>> | undefined) =>
  q && Object.keys(q).length ? `${path}?${new URLSearchParams(q as Record<string, string>)}` : path;

/** A JSON text of `base` with `field` set to the raw JSON text `raw` (nesting too deep for JSON.stringify to build). */
function withRaw(base: Readonly<Record<string, unknown>>, field: string, raw: string): string {
  const marker = '\u0000conformance-raw\u0000';
  return JSON.stringify({ ...base, [field]: marker }).replace(JSON.stringify(marker), raw);
}

export function malformedProbes(endpoints: readonly Endpoint[], setup: ProbeSetup): Probe[] {
  const served = endpoints.filter((e) => offeredAt(e, setup.version));
  const out: Probe[] = served.flatMap((ep) =>
    ep.method === 'GET' ? (wants(setup, 'ROBUST-4') ? queryProbes(ep, setup) : []) : bodyProbes(ep, setup),
  );
  // Methods per path (several rows share one), and a body past the limit that announces no length, per error style.
  const paths = new Map<string, Endpoint>();
  for (const e of served) if (!paths.has(fill(e, setup.params).path)) paths.set(fill(e, setup.params).path, e);
  for (const [path, ep] of wants(setup, 'ROBUST-5') ? paths : []) {
    for (const method of METHODS_NOT_SERVED) {
      out.push({
        kind: 'method',
        group: `method:${method}`,
        clause: CLAUSE_METHODS.has(method) ? 'ROBUST-5' : undefined,
        what: `${method} ${path}`,
        ep,
        method,
        path,
        headers: {},
        body: method === 'PROPFIND' ? '<propfind/>' : undefined,
        raw: {},
        expect: 'refused',
        status: [405],
        style: styleOfRow(ep),
      });
    }
  }
  for (const style of ['error_message', 'error_msg'] as const) {
    // A path parameter that does not percent-decode: refused before routing completes.
    const withParam = served.find((e) => /\{\w+\}/.test(e.path) && styleOfRow(e) === style);
    if (withParam)
      out.push({
        kind: 'url',
        group: 'url',
        what: `${withParam.id}: a path parameter %FF`,
        ep: withParam,
        method: withParam.method,
        path: withParam.path
          .replace(/\{\w+\}/, '%FF')
          .replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(setup.params[k] ?? NOTHING))),
        headers: {},
        expect: 'refused',
        status: [400],
        style,
      });
    const ep = served.find((e) => e.method === 'POST' && styleOfRow(e) === style);
    if (ep && wants(setup, 'ROBUST-3')) out.push(oversized(ep, setup, style));
  }
  out.push(...unknownRouteProbes(setup));
  return out.filter((p) => wants(setup, p.clause));
}

/** A JSON body one byte past INPUT_LIMITS.bodyBytes, sent chunked (no length announced): its padding is a wrong value too, so a target with a larger limit refuses it all the same. */
function oversized(ep: Endpoint, setup: ProbeSetup, style: Probe['style']): Probe {
  const base = setup.body?.(ep) ?? {};
  const field = fieldsOf(ep).find((f) => f.in === 'body' && f.kind !== 'string')?.name ?? 'a';
  const shell = JSON.stringify({ ...base, [field]: '' });
  const body = withRaw(base, field, `"${'x'.repeat(INPUT_LIMITS.bodyBytes + 1 - Buffer.byteLength(shell))}"`);
  const token = setup.token(ep);
  return {
    kind: 'size',
    group: 'size',
    clause: 'ROBUST-3',
    what: `${ep.id}: a chunked body of ${Buffer.byteLength(body)} bytes`,
    ep,
    method: ep.method,
    path: withQuery(fill(ep, setup.params).path, setup.query?.(ep)),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
    body,
    raw: { chunked: true },
    expect: 'refused',
    status: [413],
    style,
  };
}

function bodyProbes(ep: Endpoint, setup: ProbeSetup): Probe[] {
  const { path: bare, standIn } = fill(ep, setup.params);
  const path = withQuery(bare, setup.query?.(ep));
  const token = setup.token(ep);
  const auth: Record<string, string> = token ? { authorization: `Token ${token}` } : {};
  const style = styleOfRow(ep);
  const base = setup.body?.(ep) ?? {};
  // A stand-in target may be refused before the body is read (403 for another team, 404 for no such thing).
  const statuses = (s: number) => (standIn ? [s, 403, 404] : [s]);
  const out: Probe[] = [];
  type More = Partial<Probe> & Pick<Probe, 'group'>;
  const send = (
    kind: string,
    clause: ClauseId | undefined,
    what: string,
    body: string | Uint8Array | undefined,
    contentType: string | undefined,
    more: More,
  ) =>
    out.push({
      kind,
      clause,
      what: `${ep.id}: ${what}`,
      ep,
      method: ep.method,
      path,
      headers: { ...auth, ...(contentType ? { 'content-type': contentType } : {}) },
      body,
      expect: 'refused',
      style,
      ...more,
    });
  const json = (kind: string, clause: ClauseId | undefined, what: string, value: unknown, more: More) =>
    send(kind, clause, what, JSON.stringify(value), 'application/json', more);

  for (const text of ['{bad json', '{"a":', '{"a":1}}', "{'a': 1}", '{"a":1,}', 'undefined'])
    send('broken-json', 'ROBUST-1', `broken JSON ${JSON.stringify(text)}`, text, 'application/json', {
      group: 'broken-json',
      status: statuses(400),
      message: /not valid JSON/,
    });
  for (const text of ['[]', '[{}]', '"x"', '42', 'null', 'true'])
    send('top-level', 'ROBUST-2', `JSON ${text} at the top`, text, 'application/json', {
      group: 'top-level',
      status: statuses(400),
      message: /must be a JSON object/,
    });

  const fields = fieldsOf(ep).filter((f) => f.in === 'body');
  const first = fields[0]?.name ?? 'x';
  const max = INPUT_LIMITS.jsonDepth;
  // Refused by the parser, before any handler: the message names the limit.
  const deeper = new RegExp(`nested deeper than ${max}`);
  if (wants(setup, 'ROBUST-3'))
    send(
      'depth',
      'ROBUST-3',
      `${first} nested ${max} deep (body ${max + 1})`,
      withRaw(base, first, nested(max)),
      'application/json',
      { group: 'depth:over', field: first, status: statuses(400), message: deeper },
    );
  if (wants(setup, 'ROBUST-3'))
    send('depth', 'ROBUST-3', `${first} nested 5,000 deep`, withRaw(base, first, nested(5000)), 'application/json', {
      group: 'depth:5000',
      field: first,
      status: statuses(400),
      message: deeper,
    });
  send(
    'depth',
    undefined,
    `${first} nested ${max - 1} deep (body at the limit)`,
    `{"${first}":${nested(max - 1)}}`,
    'application/json',
    { group: 'depth:at-limit', expect: 'not-parse-refusal' },
  );
  send('size', undefined, `Content-Length ${INPUT_LIMITS.bodyBytes + 1}`, '{"a":"', 'application/json', {
    group: 'size:length-lie',
    raw: { contentLength: INPUT_LIMITS.bodyBytes + 1 },
    status: statuses(413),
  });

  if (wants(setup, 'ROBUST-2', 'ROBUST-4')) for (const f of fields) fieldProbes(f, base, setup, json);
  // A row that takes no body fields has none to get wrong (an empty object is a fine body there).
  if (wants(setup) && fields.length)
    for (const wrong of [12345, ['x'], { x: 1 }])
      json(
        'field-type',
        undefined,
        `every field ${JSON.stringify(wrong)}`,
        Object.fromEntries(fields.map((f) => [f.name, wrong])),
        { group: 'all-fields' },
      );
  send(
    'unicode',
    'ROBUST-4',
    'invalid UTF-8 bytes',
    Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    'application/json',
    { group: 'unicode:invalid-utf8' },
  );

  for (const m of wants(setup, 'ROBUST-1') ? multipartProbes(first, setup.name) : []) {
    out.push({
      kind: m.kind,
      group: `multipart:${m.variant}`,
      clause: m.variant === 'other' ? undefined : 'ROBUST-1',
      what: `${ep.id}: ${m.what}`,
      ep,
      method: ep.method,
      path,
      headers: { ...auth, 'content-type': m.contentType },
      body: m.body,
      expect: 'refused',
      style,
    });
  }
  send(
    'urlencoded',
    'ROBUST-1',
    'urlencoded garbage',
    '%ZZ=%&&==&a=%E0%A4%A&\u0000=\u0000',
    'application/x-www-form-urlencoded',
    { group: 'urlencoded' },
  );
  send(
    'urlencoded',
    'ROBUST-1',
    'urlencoded prototype keys',
    '__proto__[admin]=1&constructor[prototype][x]=1',
    'application/x-www-form-urlencoded',
    { group: 'urlencoded' },
  );
  for (const type of [
    'text/plain',
    'application/xml',
    'application/octet-stream',
    'text/html; charset=utf-8',
    'nonsense',
  ])
    send('content-type', 'ROBUST-1', `Content-Type ${type}`, '{}', type, {
      group: 'content-type',
      status: statuses(415),
    });
  if (ep.method === 'DELETE')
    send('empty-delete', undefined, 'DELETE with Content-Type: application/json and no body', '', 'application/json', {
      group: 'empty-delete',
      expect: 'not-parse-refusal',
    });
  return out;
}

type Json = (
  kind: string,
  clause: ClauseId | undefined,
  what: string,
  value: unknown,
  more: Partial<Probe> & Pick<Probe, 'group'>,
) => void;

/** Each field with values of the wrong type in the otherwise valid body (see fields.ts), and names no store should take. */
function fieldProbes(f: Field, base: Readonly<Record<string, unknown>>, setup: ProbeSetup, json: Json): void {
  const put = (v: unknown) => ({ ...base, [f.name]: v });
  for (const wrong of WRONG_JSON[f.kind])
    json('field-type', 'ROBUST-2', `${f.name} (${f.kind}) = ${JSON.stringify(wrong)}`, put(wrong), {
      group: 'field-type',
      field: f.name,
    });
  for (const wrong of WRONG_INSIDE[f.kind] ?? [])
    json('field-type', undefined, `${f.name} (${f.kind}) = ${JSON.stringify(wrong)}`, put(wrong), {
      group: 'field-inside',
      field: f.name,
    });
  if (f.kind !== 'string') return;
  for (const [k, bad] of Object.entries(BAD_TEXTS) as [BadText, string][]) {
    const sent = setup.text?.(bad, k) ?? bad;
    json(
      'unicode',
      'ROBUST-4',
      `${f.name} = ${JSON.stringify(sent.slice(0, 40))}${sent.length > 40 ? `… (${sent.length} characters)` : ''}`,
      put(sent),
      { group: `unicode:${k}`, field: f.name },
    );
  }
}

/** GET rows: wrong query values at each declared parameter; without `params`, every known one at once, leniently. */
function queryProbes(ep: Endpoint, setup: ProbeSetup): Probe[] {
  const { path } = fill(ep, setup.params);
  const token = setup.token(ep);
  const headers: Record<string, string> = token ? { authorization: `Token ${token}` } : {};
  const style = styleOfRow(ep);
  const always = setup.query?.(ep) ?? {};
  // Raw values: a probe's value is sent exactly as written (percent-escapes included).
  const q = (pairs: [string, string][]) => {
    const own = new Set(pairs.map(([k]) => k));
    const all: [string, string][] = [
      ...Object.entries(always)
        .filter(([k]) => !own.has(k))
        .map(([k, v]) => [k, encodeURIComponent(v)] as [string, string]),
      ...pairs,
    ];
    return `${path}?${all.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`;
  };
  const probe = (
    what: string,
    url: string,
    expect: Probe['expect'],
    group: string,
    more: Partial<Probe> = {},
  ): Probe => ({
    kind: 'query',
    group,
    what: `${ep.id}: ${what}`,
    ep,
    method: 'GET',
    path: url,
    headers,
    expect,
    style,
    ...more,
  });
  const enc = (s: string) => encodeURIComponent(s);
  const bad = Object.entries(BAD_QUERY_TEXTS);
  if (!ep.params) {
    const names = Object.keys(QUERY_FIELDS);
    return [
      probe(
        'every known parameter twice',
        q(
          names.flatMap(
            (n) =>
              [
                [n, 'a'],
                [n, 'b'],
              ] as [string, string][],
          ),
        ),
        'lenient',
        'query:twice',
      ),
      probe('every known parameter not a number', q(names.map((n) => [n, 'abc'])), 'lenient', 'query:type'),
      ...bad.map(([k, b]) =>
        probe(`every known parameter ${b.slice(0, 12)}`, q(names.map((n) => [n, b])), 'lenient', `query:${k}`),
      ),
    ];
  }
  const out: Probe[] = [];
  for (const f of fieldsOf(ep).filter((x) => x.in === 'query')) {
    out.push(
      probe(
        `${f.name} twice`,
        q([
          [f.name, 'a'],
          [f.name, 'b'],
        ]),
        'refused',
        'query:twice',
        { field: f.name },
      ),
    );
    for (const v of WRONG_QUERY[f.kind])
      out.push(
        probe(`${f.name} (${f.kind}) = ${v}`, q([[f.name, enc(v)]]), 'refused', 'query:type', { field: f.name }),
      );
    if (f.kind === 'string')
      for (const [k, b] of bad)
        out.push(
          probe(`${f.name} = ${b.slice(0, 12)}`, q([[f.name, b]]), 'refused', `unicode:${k}`, {
            field: f.name,
            clause: 'ROBUST-4',
          }),
        );
  }
  return out;
}

/** Routes the table does not have: 404 whatever the body, the content type or the method's body rules. */
function unknownRouteProbes(setup: ProbeSetup): Probe[] {
  if (!wants(setup)) return [];
  return setup.unknownPaths.flatMap((path) => {
    const style = baseComponentPath(path) ? ('error_message' as const) : ('error_msg' as const);
    const p = (
      what: string,
      method: string,
      body: string | undefined,
      contentType: string | undefined,
      raw?: Probe['raw'],
    ): Probe => ({
      kind: 'unknown-route',
      group: 'unknown-route',
      what: `${method} ${path}: ${what}`,
      method,
      path,
      headers: contentType ? { 'content-type': contentType } : {},
      body,
      raw,
      expect: 'refused',
      status: [404],
      style,
    });
    const unparseable = (what: string, headers: Record<string, string>, status: number): Probe => ({
      kind: 'unknown-route',
      group: 'unknown-route',
      what: `GET ${path}: ${what}`,
      method: 'GET',
      path,
      headers,
      raw: {},
      expect: 'refused',
      status: [status],
      style,
    });
    return [
      unparseable('a header name with a space', { 'bad header': 'x' }, 400),
      unparseable('20 kB of headers', { 'x-padding': 'x'.repeat(20_000) }, 431),
      p('JSON Content-Type, no body', 'DELETE', '', 'application/json'),
      p('broken JSON', 'POST', '{bad', 'application/json'),
      p('JSON nested 5,000 deep', 'PUT', nested(5000), 'application/json'),
      p('multipart without a boundary', 'POST', '--x\r\n', 'multipart/form-data'),
      p('text/plain', 'POST', 'hello', 'text/plain'),
      p(`Content-Length ${INPUT_LIMITS.bodyBytes + 1}`, 'POST', '{', 'application/json', {
        contentLength: INPUT_LIMITS.bodyBytes + 1,
      }),
    ];
  });
}

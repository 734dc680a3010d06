/**
 * "Malformed input never gets a 5xx": every probe of the harness's generator
 * (src/harness/robust/probes.ts, the ROBUST family sends a sample of them to any target),
 * generated from the endpoint table, against the reference server. Each must be refused with a 4xx and the family's error
 * body, change nothing (the whole database and every base's structure are compared around each
 * row's probes), and log nothing: the server logs only server faults, with a stack trace, and
 * the last test shows a real fault still is one.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ENDPOINTS, errorMessageOf, type Endpoint } from '../../spec/index.js';
import { fieldsOf } from '../../harness/robust/fields.js';
import { malformedProbes, type Probe } from '../../harness/robust/probes.js';
import { rawCall } from '../../harness/robust/raw-http.js';
import { call, Kit, serves, type Res, fileServer } from './kit.js';

/** Requests per run, at most: the generator's count is asserted under it, so growth shows. */
const MAX_PROBES = 12_000;
const PARALLEL = 6;
/** The body parser's own refusals: what an empty DELETE body or a body at the limit must not get. */
const PARSE_REFUSAL =
  /^Request body (is not valid JSON|must be a JSON object, not|is nested deeper)|Body cannot be empty|Content-Type .* is not supported/;

const kit = fileServer({ unlimited: true });
let probes: Probe[];
const logged: string[] = [];
const realWrite = process.stderr.write.bind(process.stderr);

test.beforeAll(async () => {
  const c = kit.srv.ctx.creds;
  await kit.createTable('Probe target', [{ column_name: 'Name', column_type: 'text' }]);
  const [rowId] = await kit.append('Probe target', [{ Name: 'kept' }]);
  const ws = `/api/v2.1/workspace/${c.workspaceId}/dtable/${encodeURIComponent(kit.base.name)}`;
  const hook = await call(kit.url, 'POST', `${ws}/webhooks/`, {
    token: c.admin.token,
    json: { url: 'http://127.0.0.1:9/' },
  });
  expect(hook.status, hook.text).toBe(200);
  const app = kit.srv.ctx.db.prepare('SELECT token FROM apps WHERE dtable_uuid = ?').get(kit.base.uuid) as
    { token: string } | undefined;
  const tokens: Partial<Record<Endpoint['credential'], string>> = {
    account: c.admin.token,
    admin: c.admin.token,
    'team-admin': c.admin.token,
    'api-token': kit.base.api_token,
    'base-token': kit.token,
  };
  // Rows the server does not serve yet answer the generic 404: their probes say nothing of its body handling.
  probes = malformedProbes(
    ENDPOINTS.filter((ep) => serves(kit.srv, ep)),
    {
      version: kit.srv.ctx.opts.apiVersion,
      params: {
        base_uuid: kit.base.uuid,
        workspace_id: c.workspaceId,
        base_name: kit.base.name,
        org_id: c.orgId,
        user_id: c.member.id,
        username: c.member.id,
        app_token: app?.token ?? 'none',
        webhook_id: hook.body.webhook.id as number,
        row_id: rowId!,
      },
      token: (ep) => tokens[ep.credential],
      unknownPaths: [`${kit.gw}/no-such-route/`, '/api/v2.1/no-such-route/', '/no-such-route/'],
    },
  );
  // The server's only log is a fault's stack trace on stderr: collect what it writes (and keep the expected one out of the test output).
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logged.push(String(chunk));
    return (
      String(chunk).startsWith('reference server:') ||
      (realWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest)
    );
  }) as typeof process.stderr.write;
});
test.afterAll(async () => {
  process.stderr.write = realWrite;
});

/** Every table of the databases (the accounts' and each base's), rows and all, as one hash; and the structure the server keeps in memory. */
async function state(): Promise<string> {
  const h = createHash('sha256');
  for (const db of [kit.srv.ctx.db, ...kit.srv.ctx.store.allBases().map((b) => b.db)])
    for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]) {
      h.update(name);
      for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}" ORDER BY rowid`).iterate())
        h.update(JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
    }
  h.update(JSON.stringify(await kit.metadata()));
  return h.digest('hex');
}

async function send(p: Probe): Promise<Res> {
  if (p.raw || !['GET', 'POST', 'PUT', 'DELETE'].includes(p.method)) {
    const r = await rawCall(kit.url, {
      method: p.method,
      path: p.path,
      headers: { ...p.headers },
      body: p.body,
      contentLength: p.raw?.contentLength,
      chunked: p.raw?.chunked,
    });
    if (!r.ok) return { status: 0, headers: new Headers(), text: `${r.kind}: ${r.message}`, body: undefined };
    let body: unknown;
    try {
      body = r.text ? JSON.parse(r.text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: r.status, headers: r.headers, text: r.text, body };
  }
  return call(kit.url, p.method, p.path, {
    raw: p.body,
    contentType: p.headers['content-type'],
    ...(p.headers.authorization ? { token: p.headers.authorization.slice('Token '.length) } : {}),
  });
}

/** What is wrong with the answer to `p`, or undefined. */
function verdict(p: Probe, r: Res): string | undefined {
  const b = r.body as Record<string, unknown> | undefined;
  const any = errorMessageOf(b);
  if (r.status >= 500 || r.status === 0) return `answered ${r.status || 'nothing'}`;
  if (p.expect === 'lenient')
    return r.status >= 400 && typeof any !== 'string' ? 'a 4xx without an error body' : undefined;
  if (p.expect === 'not-parse-refusal')
    return typeof any === 'string' && PARSE_REFUSAL.test(any) ? `refused by the body parser: ${any}` : undefined;
  if (r.status < 400) return `accepted (${r.status})`;
  if (p.status && !p.status.includes(r.status)) return `${r.status}, not ${p.status.join(' or ')}`;
  if (p.message && r.status === p.status?.[0] && !(typeof any === 'string' && p.message.test(any)))
    return `refused, but not by the check that should: ${String(any)}`;
  const own = b?.[p.style];
  const login = p.ep?.family === 'auth' && p.ep.credential === 'none' && Array.isArray(b?.non_field_errors);
  const credential = (r.status === 401 || r.status === 403) && typeof b?.detail === 'string';
  if (!(typeof own === 'string' && own.length > 0) && !login && !credential) return `no ${p.style} in the error body`;
  return undefined;
}

/** Send `list` (PARALLEL at a time); failures as lines. */
async function run(list: readonly Probe[]): Promise<string[]> {
  const failures: string[] = [];
  for (let i = 0; i < list.length; i += PARALLEL) {
    const batch = list.slice(i, i + PARALLEL);
    const answers = await Promise.all(batch.map(send));
    batch.forEach((p, j) => {
      const v = verdict(p, answers[j]!);
      if (v) failures.push(`${p.kind} ${p.what} → ${v}: ${answers[j]!.text.slice(0, 160)}`);
    });
  }
  return failures;
}

const stackTraces = () => logged.filter((l) => /reference server:|\n\s+at /.test(l));

test('the generator covers every row the release serves, each body row with every class, and stays bounded', () => {
  const served = new Set(probes.map((p) => p.ep?.id));
  for (const ep of ENDPOINTS.filter((e) => e.method !== 'GET' && served.has(e.id))) {
    const kinds = new Set(probes.filter((p) => p.ep === ep).map((p) => p.kind));
    // A row without body fields has no field to give a wrong type.
    const classes = [
      'broken-json',
      'top-level',
      'field-type',
      'depth',
      'size',
      'multipart',
      'urlencoded',
      'content-type',
      'unicode',
    ].filter((k) => k !== 'field-type' || fieldsOf(ep).some((f) => f.in === 'body'));
    for (const k of classes) expect(kinds.has(k), `${ep.id}: ${k}`).toBe(true);
    expect(
      probes.filter((p) => p.ep === ep).every((p) => p.group),
      `${ep.id}: every probe has a sampling group`,
    ).toBe(true);
  }
  expect(probes.length).toBeLessThanOrEqual(MAX_PROBES);
  test.info().annotations.push({
    type: 'probes',
    description: `${probes.length} malformed requests over ${served.size - 1} rows`,
  });
});

test("every malformed body is refused with a 4xx and the family's error body, per row, and writes nothing", async () => {
  test.setTimeout(300_000);
  // Query probes are apart: a GET the table lists no parameters for may answer 200, and some GETs write (a base token issued).
  const ofRows = probes.filter((p) => p.ep && p.kind !== 'query' && p.kind !== 'method');
  const failures: string[] = [];
  for (const ep of new Set(ofRows.map((p) => p.ep!))) {
    const before = await state();
    failures.push(...(await run(ofRows.filter((p) => p.ep === ep))));
    if ((await state()) !== before) failures.push(`${ep.id}: the probes changed the database or a base's structure`);
  }
  expect(failures).toEqual([]);
  expect(stackTraces()).toEqual([]);
});

test('malformed query values: refused at each declared parameter, never a 5xx where the table lists none', async () => {
  expect(await run(probes.filter((p) => p.kind === 'query'))).toEqual([]);
  expect(stackTraces()).toEqual([]);
});

test('methods the API does not serve are 405 with an error body (CONNECT included); unknown routes are 404 whatever the body', async () => {
  const before = await state();
  expect(await run(probes.filter((p) => p.kind === 'method' || p.kind === 'unknown-route'))).toEqual([]);
  expect(await state()).toBe(before);
  expect(stackTraces()).toEqual([]);
});

test('a server fault is still a 500, and it is logged with its stack', async () => {
  const faulty = await Kit.start({ unlimited: true, faults: ['malformed-json-500'] });
  try {
    const r = await faulty.gwCall('POST', 'rows/', { raw: '{bad', contentType: 'application/json' });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error_message: 'Internal Server Error' });
    expect(stackTraces().some((l) => l.includes('SyntaxError'))).toBe(true);
  } finally {
    await faulty.close();
  }
});

/**
 * What the reference server's black-box tests share: a real server on port 0, a small
 * HTTP client that never throws at a test, and helpers for the base operations.
 */
import { expect, test } from '@playwright/test';
import { errorMessageOf, gatewayPath, type Endpoint } from '../../spec/index.js';
import { startServer, type RunningServer } from '../index.js';
/** What `startServer` takes: the options plus a test clock. */
type StartOptions = NonNullable<Parameters<typeof startServer>[0]>;

export interface Res<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: T;
}

export interface CallOptions {
  token?: string;
  /** `Token` (default) or `Bearer`. */
  scheme?: 'Token' | 'Bearer';
  json?: unknown;
  /** A raw body; `contentType` is sent with it when given. */
  raw?: string | Uint8Array;
  contentType?: string;
  form?: Record<string, string>;
}

/** One HTTP call; answers every outcome, including errors, as a value. */
export async function call(url: string, method: string, path: string, o: CallOptions = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `${o.scheme ?? 'Token'} ${o.token}`;
  let body: string | Uint8Array | undefined;
  if (o.json !== undefined) {
    body = JSON.stringify(o.json);
    headers['content-type'] = 'application/json';
  }
  if (o.form) {
    body = new URLSearchParams(o.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (o.raw !== undefined) {
    body = o.raw;
    if (o.contentType) headers['content-type'] = o.contentType;
  }
  const r = await fetch(url + path, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: r.status, headers: r.headers, text, body: parsed };
}

/**
 * Does the server register a route for this row? The endpoint table also lists documented
 * operations the reference server does not serve (yet), and rows its release does not offer.
 */
export function serves(srv: RunningServer, ep: Endpoint): boolean {
  const url = ep.path.replace(/\{(\w+)\}/g, ':$1');
  // The router keeps routes without the trailing slash (it ignores trailing slashes).
  return (
    srv.app.hasRoute({ method: ep.method, url }) || srv.app.hasRoute({ method: ep.method, url: url.replace(/\/$/, '') })
  );
}

/** A 4xx with a readable error body in one of the real service's shapes (api-shapes §8). */
export function expectClientError(res: Res, status?: number): string {
  const where = `${res.status} ${res.text.slice(0, 300)}`;
  if (status !== undefined) expect(res.status, where).toBe(status);
  expect(res.status, where).toBeGreaterThanOrEqual(400);
  expect(res.status, where).toBeLessThan(500);
  const b = res.body as Record<string, unknown> | undefined;
  const message = errorMessageOf(b);
  expect(typeof message, `error body: ${where}`).toBe('string');
  expect((message as string).length, `error message: ${where}`).toBeGreaterThan(0);
  return message as string;
}

export interface ColumnDef {
  column_name: string;
  column_type: string;
  column_data?: Record<string, unknown>;
}

/** A started server with a base token for its first base, and helpers for base operations. */
export class Kit {
  token = '';
  constructor(
    readonly srv: RunningServer,
    readonly base = srv.descriptor.bases[0]!,
  ) {}

  static async start(opts: StartOptions = {}): Promise<Kit> {
    const kit = new Kit(await startServer({ port: 0, ...opts }));
    kit.token = await kit.baseToken(kit.base.api_token);
    return kit;
  }

  get url() {
    return this.srv.url;
  }
  get gw() {
    return gatewayPath(this.base.uuid).slice(0, -1);
  }
  close() {
    return this.srv.close();
  }

  /** A base token from an API token (AUTH-3). */
  async baseToken(apiToken: string, exp?: string): Promise<string> {
    const r = await call(this.url, 'GET', `/api/v2.1/dtable/app-access-token/${exp ? `?exp=${exp}` : ''}`, {
      token: apiToken,
    });
    expect(r.status, r.text).toBe(200);
    return r.body.access_token as string;
  }

  /** A gateway call with this kit's base token: `path` is relative to the base (`rows/`). */
  gwCall(method: string, path: string, o: CallOptions = {}) {
    return call(this.url, method, `${this.gw}/${path}`, { token: this.token, ...o });
  }

  async createTable(name: string, columns: ColumnDef[]) {
    const r = await this.gwCall('POST', 'tables/', { json: { table_name: name, columns } });
    expect(r.status, r.text).toBe(200);
    return r.body as { _id: string; name: string; columns: { key: string; name: string; type: string; data: any }[] };
  }

  async addColumn(table: string, col: ColumnDef) {
    const r = await this.gwCall('POST', 'columns/', { json: { table_name: table, ...col } });
    expect(r.status, r.text).toBe(200);
    return r.body as { key: string; name: string; type: string; data: any };
  }

  async append(table: string, rows: unknown[]): Promise<string[]> {
    const r = await this.gwCall('POST', 'rows/', { json: { table_name: table, rows } });
    expect(r.status, r.text).toBe(200);
    return (r.body.row_ids as { _id: string }[]).map((x) => x._id);
  }

  async list(
    table: string,
    query: Record<string, string | number | boolean | undefined> = {},
  ): Promise<Record<string, any>[]> {
    const q = new URLSearchParams({
      table_name: table,
      convert_keys: 'true',
      ...Object.fromEntries(
        Object.entries(query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      ),
    });
    const r = await this.gwCall('GET', `rows/?${q}`);
    expect(r.status, r.text).toBe(200);
    return r.body.rows;
  }

  async count(table: string): Promise<number> {
    const r = await this.sql(`SELECT COUNT(*) AS n FROM \`${table}\``);
    return r.results[0]!.n as number;
  }

  async sql(
    sql: string,
    parameters?: unknown[],
    convertKeys = true,
  ): Promise<{ metadata: any[]; results: Record<string, any>[]; affected_rows?: number }> {
    const r = await this.gwCall('POST', 'sql/', {
      json: { sql, convert_keys: convertKeys, ...(parameters ? { parameters } : {}) },
    });
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  async metadata() {
    const r = await this.gwCall('GET', 'metadata/');
    expect(r.status, r.text).toBe(200);
    return r.body.metadata as {
      tables: {
        _id: string;
        name: string;
        columns: { key: string; name: string; type: string; data: any }[];
        views: any[];
      }[];
    };
  }

  async table(name: string) {
    const t = (await this.metadata()).tables.find((x) => x.name === name);
    expect(t, `table ${name}`).toBeTruthy();
    return t!;
  }
}

/** Unique names per test, so tests sharing a server never collide. */
let seq = 0;
export const uniq = (prefix: string) => `${prefix} ${++seq}`;

/** `n` rows for bulk tests: a text and a number column. */
export const bulkRows = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ Name: `row ${from + i}`, N: from + i }));

/**
 * The one server of a test file: started before the file's first test, closed after its last
 * (a file's own set-up goes in a `test.beforeAll` registered after this call). The Kit it
 * returns stands for that server inside tests and hooks.
 */
export function fileServer(opts: StartOptions = {}): Kit {
  let kit: Kit | undefined;
  test.beforeAll(async () => {
    kit = await Kit.start(opts);
  });
  test.afterAll(async () => {
    await kit?.close();
  });
  return new Proxy({} as Kit, {
    get(_, prop) {
      if (!kit) throw new Error('the file server is used before its tests started');
      const v: unknown = Reflect.get(kit, prop, kit);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(kit) : v;
    },
  });
}

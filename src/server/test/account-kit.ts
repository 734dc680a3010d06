/**
 * What the account-family tests share: multipart uploads, a started server with the seeded
 * credentials at hand, and a small zip reader (central directory + inflate) for exports.
 */
import { inflateRawSync } from 'node:zlib';
import { expect } from '@playwright/test';
import { startServer, type RunningServer } from '../index.js';
import type { ServerOptionsInput } from '../options.js';
import { call, type CallOptions, type Res } from './kit.js';

interface Upload {
  name: string;
  data: Uint8Array | string;
  type?: string;
}

/** A multipart/form-data call (fields and files), answered as a value like `call`. */
export async function multipart(
  url: string,
  method: string,
  path: string,
  token: string | undefined,
  fields: Record<string, string>,
  files: Record<string, Upload> = {},
): Promise<Res> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, f] of Object.entries(files))
    form.append(k, new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  const r = await fetch(url + path, {
    method,
    body: form,
    headers: token ? { authorization: `Token ${token}` } : {},
    signal: AbortSignal.timeout(30_000),
  });
  const buf = Buffer.from(await r.arrayBuffer());
  const text = buf.toString('utf8');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: r.status, headers: r.headers, text, body };
}

/** A server and its seeded accounts: admin (system and team admin of team 1), member, other team's admin. */
export class Acct {
  constructor(readonly srv: RunningServer) {}
  static async start(opts: ServerOptionsInput & { clock?: () => number; env?: NodeJS.ProcessEnv } = {}): Promise<Acct> {
    return new Acct(await startServer({ port: 0, ...opts }));
  }
  get url() {
    return this.srv.url;
  }
  get creds() {
    return this.srv.ctx.creds;
  }
  get admin() {
    return this.creds.admin.token;
  }
  get member() {
    return this.creds.member.token;
  }
  get other() {
    return this.creds.otherAdmin.token;
  }
  close() {
    return this.srv.close();
  }
  call(method: string, path: string, token: string | undefined, o: Omit<CallOptions, 'token'> = {}) {
    return call(this.url, method, path, { token, ...o });
  }
  get(path: string, token = this.admin) {
    return this.call('GET', path, token);
  }
  async ok(method: string, path: string, token: string, o: Omit<CallOptions, 'token'> = {}) {
    const r = await this.call(method, path, token, o);
    expect(r.status, `${method} ${path}: ${r.text.slice(0, 300)}`).toBe(200);
    return r.body;
  }
  /** Bytes of a GET (exports, logos, downloads). */
  async bytes(path: string, token: string | undefined, headers: Record<string, string> = {}) {
    const r = await fetch(this.url + path, {
      headers: { ...(token ? { authorization: `Token ${token}` } : {}), ...headers },
    });
    return { status: r.status, type: r.headers.get('content-type') ?? '', data: Buffer.from(await r.arrayBuffer()) };
  }
}

/** Entries of a zip archive: name → bytes. */
export function unzip(buf: Buffer): Map<string, Buffer> {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(dataAt, dataAt + size);
    out.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

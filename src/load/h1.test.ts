/**
 * The load runner's HTTP/1.1 client (engine/h1.ts) on the framings a server may answer with:
 * a length, chunks, the end of the connection, HEAD, an interim 1xx, `Connection: close`, and
 * a kept-alive connection the server closed in between (sent again once, as k6's client does);
 * and answers that keep their bodies though the thread's read buffer is reused.
 */
import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { H1Pool } from './engine/h1.js';
import { HttpIo } from './engine/io.js';
import type { Answer } from './runtime/protocol.js';

interface Got {
  status: number;
  reason: string;
  headers: readonly string[];
  body: string;
  error?: string;
  starts: number;
}

function send(pool: H1Pool, method: string, path: string, body: string | null = null): Promise<Got> {
  return new Promise((resolve) => {
    const got: Got = { status: 0, reason: '', headers: [], body: '', starts: 0 };
    const chunks: Buffer[] = [];
    pool.dispatch(
      { method, path, headers: { 'User-Agent': 'h1-test' }, body },
      {
        onRequestStart: () => void got.starts++,
        onResponseStart: (_c, code, headers, reason) => Object.assign(got, { status: code, headers, reason }),
        onResponseData: (_c, chunk) => void chunks.push(Buffer.from(chunk)),
        onResponseEnd: () => resolve({ ...got, body: Buffer.concat(chunks).toString() }),
        onResponseError: (_c, e) => resolve({ ...got, error: `${(e as Error & { code?: string }).code}` }),
      },
    );
  });
}

const listen = async (s: Server | ReturnType<typeof createTcpServer>) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
};

test('lengths, chunks, HEAD, 1xx, Connection: close and a body until the end of the connection', async () => {
  const seen: string[] = [];
  const server = createServer((q, r) => {
    seen.push(`${q.method} ${q.url} ${q.headers['content-length'] ?? '-'} ${q.headers['user-agent']}`);
    if (q.url === '/chunked') {
      r.write('ab');
      r.end('cd');
    } else if (q.url === '/close') r.writeHead(200, { connection: 'close' }).end('bye');
    else if (q.url === '/early') {
      r.writeProcessing();
      r.end('after 102');
    } else r.writeHead(201, 'Made', { 'x-twice': ['1', '2'] }).end('made');
  });
  const url = await listen(server);
  const pool = new H1Pool(url, { connections: 1 });
  try {
    const made = await send(pool, 'POST', '/made?x=1', 'héllo');
    expect(made).toMatchObject({ status: 201, reason: 'Made', body: 'made', starts: 1 });
    const twice = made.headers.flatMap((k, i) => (i % 2 === 0 && k === 'x-twice' ? [made.headers[i + 1]] : []));
    expect(twice).toEqual(['1', '2']);
    expect(await send(pool, 'GET', '/chunked')).toMatchObject({ status: 200, body: 'abcd' });
    expect(await send(pool, 'HEAD', '/made')).toMatchObject({ status: 201, body: '' });
    expect(await send(pool, 'GET', '/early')).toMatchObject({ status: 200, body: 'after 102' });
    expect(await send(pool, 'GET', '/close')).toMatchObject({ status: 200, body: 'bye' });
    // Two at once on one connection: the second waits for the first.
    const both = await Promise.all([send(pool, 'GET', '/a'), send(pool, 'POST', '/b')]);
    expect(both.map((g) => g.status)).toEqual([201, 201]);
    expect(seen).toEqual([
      'POST /made?x=1 6 h1-test',
      'GET /chunked - h1-test',
      'HEAD /made - h1-test',
      'GET /early - h1-test',
      'GET /close - h1-test',
      'GET /a - h1-test',
      'POST /b 0 h1-test',
    ]);
  } finally {
    await pool.destroy();
    server.close();
  }

  // HTTP/1.0 style: no length, the body ends with the connection.
  const raw = createTcpServer((sock) =>
    sock.once('data', () => sock.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the end')),
  );
  const rawPool = new H1Pool(await listen(raw), { connections: 1 });
  try {
    expect(await send(rawPool, 'GET', '/')).toMatchObject({ status: 200, body: 'until the end' });
  } finally {
    await rawPool.destroy();
    raw.close();
  }
});

test('a kept-alive connection the server drops at the next request: a GET is sent again on a new one, a POST fails', async () => {
  let answered = 0;
  const raw = createTcpServer((sock) => {
    // Each connection answers its first request and drops the connection at its second.
    let requests = 0;
    sock.on('data', () => {
      if (++requests > 1) sock.destroy();
      else sock.write(`HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\n${++answered}`);
    });
  });
  const pool = new H1Pool(await listen(raw), { connections: 1 });
  try {
    expect(await send(pool, 'GET', '/')).toMatchObject({ status: 200, body: '1', starts: 1 });
    expect(await send(pool, 'GET', '/')).toMatchObject({ status: 200, body: '2', starts: 2 });
    expect(await send(pool, 'POST', '/')).toMatchObject({ status: 0, error: 'UND_ERR_SOCKET' });
    const refused = new H1Pool(new URL('http://127.0.0.1:1'), { connections: 1 });
    expect((await send(refused, 'GET', '/')).error).toBe('ECONNREFUSED');
    await refused.destroy();
    expect(() =>
      pool.dispatch({ method: 'GET', path: '/', headers: { 'x-bad': 'a\r\nb' }, body: null }, null!),
    ).toThrow(/invalid x-bad header/);
  } finally {
    await pool.destroy();
    raw.close();
  }
});

test('answers keep their bodies after later reads into the shared read buffer', async () => {
  const server = createServer((q, r) => r.end(q.url === '/a' ? 'aaaa' : 'bbbb'));
  const url = await listen(server);
  const io = new HttpIo();
  const get = (path: string) =>
    new Promise<Answer>((resolve) =>
      io.send(
        { method: 'GET', url: `${url.origin}${path}`, headers: [], body: null, timeoutMs: 5000, responseType: 'text' },
        undefined,
        resolve,
        1,
      ),
    );
  try {
    const answers = await Promise.all([get('/a'), get('/b')]);
    expect(answers.map((a) => Buffer.concat(a.chunks!).toString())).toEqual(['aaaa', 'bbbb']);
  } finally {
    await io.close();
    server.close();
  }
});

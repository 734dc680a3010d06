/** The rate limiter under concurrency, its configuration and the client IP behind a proxy (RATE-1..7). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Acct } from './account-kit.js';
import { call, Kit, type Res } from './kit.js';

const count = (rs: Res[], status: number) => rs.filter((r) => r.status === status).length;

function configFile(content: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'limits-')), 'limits.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

async function baseTokens(a: Acct): Promise<string[]> {
  const k = new Kit(a.srv);
  return Promise.all(a.srv.descriptor.bases.map((b) => k.baseToken(b.api_token)));
}

test('RATE-5 RATE-2 200 concurrent clients per base: exactly the limit is admitted per base and window', async () => {
  let now = Date.now();
  const a = await Acct.start({
    clock: () => now,
    rateWindowSeconds: 2,
    env: { API_GATEWAY_BASE_API_LIMIT_PER_MINUTE: '100' },
  });
  try {
    const tokens = await baseTokens(a);
    const bases = a.srv.descriptor.bases;
    const burst = () =>
      Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          call(a.url, 'GET', `/api-gateway/api/v2/dtables/${bases[i % 2]!.uuid}/metadata/`, { token: tokens[i % 2] }),
        ),
      );
    const rs = await burst();
    for (const side of [0, 1]) {
      const mine = rs.filter((_, i) => i % 2 === side);
      expect(count(mine, 200), `base ${side}`).toBe(100);
      expect(count(mine, 429), `base ${side}`).toBe(100);
    }
    for (const r of rs.filter((x) => x.status === 429)) {
      expect(r.text).toBe('');
      expect(r.headers.get('content-length')).toBe('0');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    now += 2000; // the next window
    const again = await burst();
    expect(count(again, 200)).toBe(200);
  } finally {
    await a.close();
  }
});

test('RATE-5 RATE-2 200 concurrent clients on account operations: exactly the limit per IP; auth-token 60/min on cloud', async () => {
  const now = Date.now();
  const a = await Acct.start({ clock: () => now, env: { API_ACCOUNT_LIMIT_PER_MINUTE: '50' } });
  try {
    const rs = await Promise.all(
      Array.from({ length: 200 }, () => a.call('GET', '/api/v2.1/dtable/items-search/?query_str=x', a.member)),
    );
    expect(count(rs, 200)).toBe(50);
    expect(count(rs, 429)).toBe(150);
    expect(rs.find((r) => r.status === 429)!.headers.get('x-ratelimit-limit')).toBeNull(); // headers are for gateway answers
  } finally {
    await a.close();
  }
  const cloud = await Acct.start({ edition: 'cloud', clock: () => now });
  try {
    const rs = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        cloud.call('POST', '/api2/auth-token/', undefined, {
          form: { username: `nobody${i}@example.com`, password: 'x' },
        }),
      ),
    );
    expect(count(rs, 400)).toBe(60);
    expect(count(rs, 429)).toBe(140);
  } finally {
    await cloud.close();
  }
  const selfHosted = await Acct.start({ clock: () => now });
  try {
    const rs = await Promise.all(
      Array.from({ length: 200 }, () =>
        selfHosted.call('POST', '/api2/auth-token/', undefined, {
          form: { username: 'nobody@example.com', password: 'x' },
        }),
      ),
    );
    expect(count(rs, 429)).toBe(0);
  } finally {
    await selfHosted.close();
  }
});

test('RATE-1 /ping/ and /server-info/ are never limited', async () => {
  const a = await Acct.start({ env: { API_ACCOUNT_LIMIT_PER_MINUTE: '3' } });
  try {
    const rs = await Promise.all(
      Array.from({ length: 30 }, (_, i) => a.call('GET', i % 2 ? '/ping/' : '/server-info/', undefined)),
    );
    expect(count(rs, 200)).toBe(30);
  } finally {
    await a.close();
  }
});

test('RATE-6 gateway answers carry integer x-ratelimit-* headers; remaining falls by one; reset is the window end', async () => {
  const now = Date.UTC(2026, 5, 1, 12, 0, 30, 500);
  const a = await Acct.start({ clock: () => now });
  try {
    const [token] = await baseTokens(a);
    const uuid = a.srv.descriptor.bases[0]!.uuid;
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await call(a.url, 'GET', `/api-gateway/api/v2/dtables/${uuid}/metadata/`, { token });
      expect(r.headers.get('x-ratelimit-limit')).toBe('500');
      expect(r.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 5, 1, 12, 1, 0) / 1000));
      seen.push(Number(r.headers.get('x-ratelimit-remaining')));
    }
    expect(seen).toEqual([499, 498, 497]);
  } finally {
    await a.close();
  }
});

test('RATE-7 limits come from the configuration file on dedicated and self-hosted (5.3+); environment variables win over it', async () => {
  const file = configFile({
    base_api_limit_per_minute: 3,
    account_api_limit_per_minute: 7,
    auth_token_limit_per_minute: 2,
  });
  const limitOf = async (opts: Parameters<typeof Acct.start>[0]) => {
    const a = await Acct.start({ configFile: file, ...opts });
    try {
      const [token] = await baseTokens(a);
      const r = await call(a.url, 'GET', `/api-gateway/api/v2/dtables/${a.srv.descriptor.bases[0]!.uuid}/metadata/`, {
        token,
      });
      return { gateway: r.headers.get('x-ratelimit-limit'), limits: a.srv.ctx.limits.rate };
    } finally {
      await a.close();
    }
  };
  expect(await limitOf({ edition: 'self-hosted' })).toEqual({
    gateway: '3',
    limits: { gateway: 3, account: 7, 'auth-token': 2 },
  });
  expect((await limitOf({ edition: 'dedicated' })).gateway).toBe('3');
  expect((await limitOf({ edition: 'cloud' })).gateway).toBe('200'); // not customisable on the cloud
  expect((await limitOf({ edition: 'self-hosted', apiVersion: '5.2' })).gateway).toBe('500'); // one file only from 5.3
  expect((await limitOf({ edition: 'self-hosted', env: { API_GATEWAY_BASE_API_LIMIT_PER_MINUTE: '9' } })).gateway).toBe(
    '9',
  );
  expect(
    (await limitOf({ edition: 'self-hosted', env: { API_ACCOUNT_LIMIT_PER_MINUTE: '-1' } })).limits.account,
  ).toBeNull();
  await expect(Acct.start({ configFile: configFile({ base_api_limt: 3 }) })).rejects.toThrow(/base_api_limt/);
});

test('RATE-2 --trust-proxy counts per X-Forwarded-For address; without it the socket address counts', async () => {
  const now = Date.now();
  const xff = (a: Acct, ip: string) =>
    fetch(`${a.url}/api/v2.1/dtable/items-search/?query_str=x`, {
      headers: { authorization: `Token ${a.member}`, 'x-forwarded-for': ip },
    }).then((r) => r.status);
  const proxied = await Acct.start({ clock: () => now, trustProxy: true, env: { API_ACCOUNT_LIMIT_PER_MINUTE: '5' } });
  try {
    const first = await Promise.all(Array.from({ length: 6 }, () => xff(proxied, '198.51.100.1')));
    expect(first.filter((s) => s === 200)).toHaveLength(5);
    expect(first.filter((s) => s === 429)).toHaveLength(1);
    expect(await xff(proxied, '198.51.100.2')).toBe(200);
  } finally {
    await proxied.close();
  }
  const direct = await Acct.start({ clock: () => now, env: { API_ACCOUNT_LIMIT_PER_MINUTE: '5' } });
  try {
    const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => xff(direct, `198.51.100.${i}`)));
    expect(rs.filter((s) => s === 429)).toHaveLength(1);
  } finally {
    await direct.close();
  }
});

test('RATE-2 the counter faults: watched, both counters kept and the switch read only where their admissions differ; unwatched and unset, one counter; a mutant refuses as before', async () => {
  const now = Date.now();
  const env = { API_GATEWAY_BASE_API_LIMIT_PER_MINUTE: '100' };
  const start = async (faults: ('limit-per-ip' | 'account-limit-global')[], watched = true) => {
    const a = await Acct.start({ clock: () => now, rateWindowSeconds: 60, env, faults });
    const reads: string[] = [];
    const set = a.srv.ctx.faults as Set<string>;
    const has = Set.prototype.has;
    set.has = (name: string) => (reads.push(name), has.call(set, name));
    // As the selftest's coverage does (src/mutants/coverage.ts).
    a.srv.ctx.faultReadsWatched = watched;
    return { a, reads, tokens: await baseTokens(a) };
  };
  const calls = (a: Acct, tokens: string[], base: number, n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        call(a.url, 'GET', `/api-gateway/api/v2/dtables/${a.srv.descriptor.bases[base]!.uuid}/metadata/`, {
          token: tokens[base],
        }),
      ),
    );
  const clean = await start([]);
  try {
    clean.reads.length = 0;
    await calls(clean.a, clean.tokens, 0, 10); // one base from one address: both counters alike
    expect(clean.reads.filter((r) => r === 'limit-per-ip')).toEqual([]);
    const other = await calls(clean.a, clean.tokens, 1, 60); // a second base: the per-address counter differs
    expect(clean.reads).toContain('limit-per-ip');
    expect(count(other, 200)).toBe(60);
  } finally {
    await clean.a.close();
  }
  // A run nobody watches, without the fault (every run a user makes): one counter, the faulty one never kept.
  const plain = await start([], false);
  try {
    const keys: string[] = [];
    const limiter = plain.a.srv.ctx.limiter;
    const take = limiter.take.bind(limiter);
    limiter.take = (key, ...rest) => (keys.push(key), take(key, ...rest));
    const rs = [...(await calls(plain.a, plain.tokens, 0, 60)), ...(await calls(plain.a, plain.tokens, 1, 60))];
    expect(count(rs, 200)).toBe(120);
    expect(keys).toHaveLength(120);
    expect(keys.filter((k) => k.startsWith('limit-per-ip|'))).toEqual([]);
  } finally {
    await plain.a.close();
  }
  const perIp = await start(['limit-per-ip'], false);
  try {
    // Base tokens came first (account calls); 60 + 60 gateway calls of one address against its one budget of 100.
    const rs = [...(await calls(perIp.a, perIp.tokens, 0, 60)), ...(await calls(perIp.a, perIp.tokens, 1, 60))];
    expect(count(rs, 200)).toBe(100);
    expect(count(rs, 429)).toBe(20);
  } finally {
    await perIp.a.close();
  }
});

/**
 * Making a k6 bundle awaitable (runtime/transform/) so that VUs can share a thread: what is
 * rewritten, what is declined (the built-in runner then refuses the script, stock k6 runs
 * it), and that VUs sharing a thread stay apart — identity, tags, group, __ENV — across every
 * await.
 */
import { test, expect } from '@playwright/test';
import { parse } from 'acorn';
import { makeAwaitable, ScriptRefused } from './runtime/transform/awaitable.js';
import { runBuiltin } from './engine/run.js';
import { bundleAll } from './bundle.js';
import { runScript, sinkOf, stubServer, type StubServer } from './test-helpers.js';

const K6 = `import http from "k6/http"; import { sleep, group, check } from "k6";\n`;
const rewrite = (body: string) => {
  const r = makeAwaitable(K6 + body);
  if (!r.ok) throw new Error(r.reason);
  return r.code.slice(K6.length);
};
const declined = (body: string) => {
  const r = makeAwaitable(K6 + body);
  return r.ok ? 'rewritten' : r.reason;
};

test('blocking calls are awaited, and so is every call of a function that reaches one; other calls are left alone', () => {
  expect(
    rewrite('function a(u) { return http.get(u); }\nexport default function () { check(a(1), {}); Math.max(1, 2); }'),
  ).toBe(
    'async function a(u) { return __k6b(await __k6s(http.get(u))); }\nexport default async function () { check(__k6b(await __k6s(a(1))), {}); Math.max(1, 2); }',
  );
  expect(rewrite('const b = (u) => sleep(u);\nexport default function () { group("g", () => { b(1); }); }')).toBe(
    'const b = async (u) => __k6b(await __k6s(sleep(u)));\nexport default async function () { __k6b(await __k6s(group("g", async () => { __k6b(await __k6s(b(1))); }))); }',
  );
  // A callback parameter that receives a blocking function is awaited where it is called.
  expect(
    rewrite('function retry(f) { let r = f(); return r; }\nexport default function () { retry(() => http.get(1)); }'),
  ).toBe(
    'async function retry(f) { let r = __k6b(await __k6s(f())); return r; }\nexport default async function () { __k6b(await __k6s(retry(async () => __k6b(await __k6s(http.get(1)))))); }',
  );
  // setup() and teardown() are awaited as much as the iterations.
  expect(
    rewrite('export function setup() { return http.get(1).json(); }\nexport function teardown(d) { sleep(d); }'),
  ).toBe(
    'export async function setup() { return __k6b(await __k6s(http.get(1))).json(); }\nexport async function teardown(d) { __k6b(await __k6s(sleep(d))); }',
  );
  expect(declined('export function setup() { return [1].map((u) => http.get(u)); }')).toMatch(/used as a value/);
  // A script without blocking calls is unchanged.
  expect(rewrite('export default function () { check(1, { a: () => true }); }')).toBe(
    'export default function () { check(1, { a: () => true }); }',
  );
});

test('declined, with the reason, wherever awaiting would change what the iteration does', () => {
  expect(declined('export default function () { [1, 2].forEach((u) => http.get(u)); }')).toMatch(/used as a value/);
  expect(declined('function a() { http.get(1); }\nexport default function () { [1].map(a); }')).toMatch(
    /"a", which makes blocking calls, is used as a value/,
  );
  expect(declined('const f = http.get;\nexport default function () { f(1); }')).toMatch(/http\.get is used as a value/);
  expect(declined('export default function () { check(null, { ok: () => http.get(1).status === 200 }); }')).toMatch(
    /used as a value/,
  );
  expect(declined('const o = { run() { http.get(1); } };\nexport default function () { o.run(); }')).toMatch(
    /used as a value/,
  );
  expect(declined('http.get(1);\nexport default function () {}')).toMatch(/init context/);
  expect(declined('export default async function () { http.get(1); }')).toMatch(/async or generator/);
  expect(declined('function a(x = http.get(1)) { return x; }\nexport default function () { a(); }')).toMatch(
    /parameter default/,
  );
  expect(
    declined(
      'function a() { http.get(1); }\nfunction b() { const a = 1; return a; }\nexport default function () { a(); b(); }',
    ),
  ).toMatch(/declared more than once/);
  expect(declined('export default function () { const h = http; h.get(1); }')).toMatch(/module binding "http"/);
});

test('every shipped scenario is made awaitable, and what comes out still parses as a module and maps back to the bundle', async () => {
  for (const b of await bundleAll()) {
    const r = makeAwaitable(b.code);
    expect(r.ok ? 'ok' : `${b.name}: ${r.reason}`).toBe('ok');
    if (r.ok) {
      expect(r.sites).toBeGreaterThan(0);
      expect(() => parse(r.code, { ecmaVersion: 'latest', sourceType: 'module' })).not.toThrow();
      expect(r.code.split('\n').length).toBe(b.code.split('\n').length);
      expect(JSON.parse(r.map()).mappings).not.toBe('');
    }
  }
});

test('a script the transform declines is refused before anything starts, pointing to stock k6', async () => {
  const refused = await runBuiltin({
    bundleCode: `${K6}export default function () { [1, 2].forEach(() => http.get(__ENV.URL)); }`,
    scriptDir: process.cwd(),
    env: {},
    log: () => undefined,
  }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ScriptRefused);
  expect((refused as Error).message).toContain('used as a value (line 2)');
  expect((refused as Error).message).toContain('run it on stock k6 (`--engine k6`)');
});

let srv: StubServer;
test.beforeAll(async () => {
  srv = await stubServer();
});
test.afterAll(async () => {
  await srv.close();
});

test('VUs that share a thread keep their own __VU, iteration, VU tags, group and __ENV across every awaited call, and errors reach their own catch', async () => {
  const out = await runScript(
    `
    import http from 'k6/http';
    import { sleep, group } from 'k6';
    import exec from 'k6/execution';
    import { Counter } from 'k6/metrics';
    const mixed = new Counter('mixed');
    const caught = new Counter('caught');
    const inGroup = new Counter('in_group');
    const thresholds = {};
    for (let v = 1; v <= 6; v++) thresholds['in_group{group:::g' + v + '}'] = ['count==5'];
    export const options = { thresholds, scenarios: {
      a: { executor: 'per-vu-iterations', vus: 3, iterations: 5, env: { WHO: 'a' }, exec: 'work' },
      b: { executor: 'per-vu-iterations', vus: 3, iterations: 5, env: { WHO: 'b' }, exec: 'work' },
    } };
    function step(me, it, who) {
      http.get(__ENV.URL + '/slow/' + (1 + (me * 7 + it) % 5));
      if (__VU !== me || exec.vu.iterationInScenario !== it || exec.vu.tags.me !== String(me) || __ENV.WHO !== who) mixed.add(1);
    }
    export function work() {
      const me = __VU, it = exec.vu.iterationInScenario, who = __ENV.WHO;
      exec.vu.tags.me = String(me);
      step(me, it, who);
      group('g' + me, () => { sleep(0.003 * (me % 3)); step(me, it, who); inGroup.add(1); });
      try { group('boom', () => { http.get(__ENV.URL + '/status/200'); throw new Error('x' + me); }); }
      catch (e) { if (e.message === 'x' + me && __VU === me) caught.add(1); else mixed.add(1); }
      step(me, it, who);
    }`,
    { URL: srv.url },
  );
  expect(out.exitCode).toBe(0);
  const sum = (name: string) => {
    const s = sinkOf(out, name);
    return s?.type === 'counter' ? s.sum : NaN;
  };
  expect(sum('iterations')).toBe(30);
  expect(sum('mixed')).toBe(0);
  expect(sum('caught')).toBe(30);
  // Samples taken in a group after awaited calls carry that VU's own group: ::g1 … ::g6, five each.
  for (let v = 1; v <= 6; v++) expect(sum(`in_group{group:::g${v}}`)).toBe(5);
  expect(out.thresholds.every((t) => t.ok)).toBe(true);
  expect(out.vuThreads).toBe(2);
});

/**
 * A correct server never fails: black-box runs against targets that vary as a real server
 * legitimately may — a column type it does not offer, a missing view worded as a 404, a
 * feature it has not configured, limits configured lower than the edition's (§8.4) — and
 * against setup that cannot be done (fixture tables refused). Such runs may end undecided
 * (error) where the harness cannot judge; none ends with a failure.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from '../src/server/index.js';
import { cli, ROOT, tempDir } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';
import { startVaryingTarget, type Variation } from './helpers/variations.js';
import { harnessEnvVars } from '../src/common/harness-env.js';

// Independent tests (each run starts its own servers), and long ones: on workers of their own they do not end the project on one worker.
test.describe.configure({ mode: 'parallel' });

/** A descriptor file for `url`, with the reference server's credentials. */
function descriptorFile(server: RunningServer, url: string, extra: Record<string, unknown> = {}): string {
  const file = join(tempDir('varying'), 'target.json');
  writeFileSync(file, JSON.stringify({ ...server.descriptor, url, ...extra }));
  return file;
}

async function withVariation<T>(v: Variation, body: (file: string) => Promise<T>): Promise<T> {
  const server = await startServer({ rateWindowSeconds: 3 });
  const varying = await startVaryingTarget(server.url, v);
  try {
    return await body(descriptorFile(server, varying.url));
  } finally {
    await varying.close();
    await server.close();
  }
}

const isPost = (path: RegExp) => (s: { method: string; path: string }) => s.method === 'POST' && path.test(s.path);

test("a server without one column type, a missing view as a 404, no scripts service: no failure, only that type's checks undecided", async () => {
  test.setTimeout(300_000);
  const variation: Variation = {
    answer: (s) => {
      const body = s.json() as Record<string, unknown> | undefined;
      if (isPost(/\/columns\/$/)(s) && body?.column_type === 'geolocation')
        return { status: 400, body: { error_message: 'column type geolocation is not supported' } };
      if (isPost(/\/archive-view\/$/)(s) && body?.view_name === 'no-such-view')
        return { status: 404, body: { error_message: 'view no-such-view not found' } };
      return undefined;
    },
    rewrite: (s, status, body) => {
      if (s.path !== '/api/v2.1/org/admin/info/' || status !== 200) return undefined;
      const { scripts_running_limit: _a, scripts_running_total: _b, ...rest } = body as Record<string, unknown>;
      return rest;
    },
  };
  await withVariation(variation, async (file) => {
    const dir = tempDir('variations');
    const r = await cli([
      'run',
      '--target-file',
      file,
      '--report-dir',
      dir,
      '--clauses',
      'SHAPE-*,ROUTE-1,ROUTE-3,AUTH-2,ACCT-1',
    ]);
    const results = readResults(dir);
    expect(results.totals.fail, r.output).toBe(0);
    const errors = results.tests.filter((t) => t.outcome === 'error');
    expect(errors.length, 'the checks of the refused type, and only those, are undecided').toBeGreaterThan(0);
    for (const t of errors) {
      expect(t.title).toMatch(/geolocation/);
      expect(t.cause).toBe('fixture');
    }
    expect(
      results.clauses.find((c) => c.id === 'ROUTE-1')?.outcome,
      "archive-view's 404 names a missing view: the route exists",
    ).toBe('pass');
    const acct1 = results.tests.filter((t) => t.clause === 'ACCT-1');
    expect(acct1.map((t) => t.outcome)).toEqual(['skip']);
    expect(acct1[0]!.message).toMatch(/neither scripts_running_limit nor scripts_running_total/);
    expect(r.code, 'undecided checks and no failure').toBe(2);
  });
});

test('fixture tables the target refuses: the checks that need them are errors (fixture), never failures', async () => {
  test.setTimeout(300_000);
  const variation: Variation = {
    answer: (s) =>
      isPost(/\/tables\/$/)(s) && /^cf_.*_types$/.test(String((s.json() as { table_name?: unknown })?.table_name))
        ? { status: 403, body: { error_message: 'You have no permission to create tables.' } }
        : undefined,
  };
  await withVariation(variation, async (file) => {
    const dir = tempDir('no-fixtures');
    const r = await cli(['run', '--target-file', file, '--report-dir', dir, '--clauses', 'ROUTE-1,ROUTE-3,AUTH-2']);
    expect(r.stderr).toMatch(/could not create the fixture tables/);
    const results = readResults(dir);
    expect(results.totals.fail, r.output).toBe(0);
    const needing = results.tests.filter((t) => t.outcome === 'error');
    expect(needing.length).toBeGreaterThan(3);
    for (const t of needing) expect(t.cause, t.title).toBe('fixture');
    expect(r.code).toBe(2);
  });
});

const LIMITS = { base_api_limit_per_minute: 40, account_api_limit_per_minute: 300, auth_token_limit_per_minute: 30 };

test('configured limits (a limits file, or the descriptor\'s "limits"): every rate clause holds the target to them, and the report says so', async () => {
  test.setTimeout(420_000);
  const file = join(tempDir('limits'), 'limits.json');
  writeFileSync(file, JSON.stringify(LIMITS));
  const server = await startServer({ rateWindowSeconds: 3, configFile: file });
  try {
    const dir = tempDir('configured');
    const r = await cli([
      'run',
      '--target-file',
      descriptorFile(server, server.url),
      '--limits-config',
      file,
      '--report-dir',
      dir,
      '--clauses',
      'RATE-1,RATE-3,RATE-5',
    ]);
    const results = readResults(dir);
    expect(results.totals.fail, r.output).toBe(0);
    expect(r.code, r.output).toBe(0);
    expect(results.run.limits).toEqual({
      source: `the limits file ${file}`,
      values: { account: 300, gateway: 40, 'auth-token': 30 },
    });
    const configuredChecks = results.tests.filter((t) => t.title.includes('configured limits'));
    expect(configuredChecks.map((t) => t.outcome)).toEqual(['pass', 'pass', 'pass']);
    expect(
      results.tests.filter((t) => t.title.startsWith('RATE-5 self-hosted')).every((t) => t.outcome === 'skip'),
    ).toBe(true);
    expect(r.stderr).toMatch(/rate limits held to: account 300, gateway 40, auth-token 30 \(the limits file/);

    const inDescriptor = tempDir('configured-descriptor');
    const d = await cli([
      'run',
      '--target-file',
      descriptorFile(server, server.url, { limits: LIMITS }),
      '--report-dir',
      inDescriptor,
      '--clauses',
      'RATE-5',
    ]);
    expect(d.code, d.output).toBe(0);
    expect(readResults(inDescriptor).run.limits?.source).toBe('the target descriptor\'s "limits"');
  } finally {
    await server.close();
  }
});

test('a restore that fails leaves a run-level warning and exit 2: the account was left changed', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('restore');
  const r = await cli(['run', '--report-dir', dir, '--clauses', 'ACCT-5'], {
    env: harnessEnvVars({ suitesDir: join(ROOT, 'test', 'suites', 'restore') }),
  });
  expect(r.code, r.output).toBe(2);
  const results = readResults(dir);
  expect(results.totals).toMatchObject({ pass: 1, fail: 0, error: 0 });
  expect(results.warnings).toEqual([
    expect.objectContaining({
      check: 'ACCT-5 selftest: restore fails',
      accountChanged: true,
      what: expect.stringMatching(/could not restore: the deliberate probe setting put back — answered 404/),
    }),
  ]);
  expect(r.stderr).toMatch(
    /warning: ACCT-5 selftest: restore fails: could not restore[^\n]*the account was left changed/,
  );
  expect(r.stderr).toMatch(/ACCOUNT LEFT CHANGED/);
});

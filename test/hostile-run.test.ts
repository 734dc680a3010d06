/**
 * `conformance run` against a hostile target (black box, the CLI in a child process): the
 * checks whose calls meet a hanging, trickling, resetting, oversized, malformed, mistyped
 * or redirecting route end as `error` with a message naming the cause; the other checks
 * still pass through the proxy; the run ends by itself with exit 2 and writes its results.
 */
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Results } from '../src/reports/results-schema.js';
import { startHostile, type HostileServer, type Rule } from '../src/mutants/hostile.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { cliEntry } from './helpers/cli.js';

/** The run's own bound: far above what it needs (each hostile call costs at most its 2 s timeouts). */
const RUN_BUDGET_MS = 240_000;

/** Each behaviour on a route exactly one family of checks meets; `title` finds those checks in results.json. */
const CASES: { rule: Rule; title: RegExp; cause: RegExp }[] = [
  {
    rule: { behaviour: 'hang', path: '/api/v2.1/admin/plugins-install-count/' },
    title: /plugins-install-count/,
    cause: /timeout-headers\b.*no response headers in time/,
  },
  {
    rule: { behaviour: 'slow-headers', path: '/api/v2.1/dtable/custom/app-asset-dir/' },
    title: /app-asset-dir/,
    cause: /timeout-headers\b.*no response headers in time/,
  },
  {
    rule: { behaviour: 'reset', path: '/api/v2.1/org/1/admin/admin-logs/' },
    title: /admin-logs/,
    cause: /reset\b.*closed the connection/,
  },
  {
    rule: { behaviour: 'huge', path: '/api/v2.1/org/1/admin/login-logs/' },
    title: /login-logs/,
    cause: /too-large\b.*larger than the cap/,
  },
  {
    rule: { behaviour: 'redirect-loop', path: '/api/v2.1/org/1/admin/org-logo/' },
    title: /org-logo/,
    cause: /redirect\b.*302/,
  },
  {
    rule: { behaviour: 'bad-json', path: '/api2/auth-token/', method: 'POST' },
    title: /^ROUTE-5 /,
    cause: /bad-json\b.*not valid JSON/,
  },
  {
    rule: { behaviour: 'wrong-type', path: '/server-info/' },
    title: /^ROUTE-4 .*pong/,
    cause: /content-type\b.*text\/html/,
  },
];
/** Checks no rule touches: they must still pass through the proxy. */
const UNAFFECTED = /^ROUTE-(1|6|7) |^ROUTE-4 \/ping\/ and/;

let upstream: RunningServer;
let hostile: HostileServer;
let dir: string;

test.beforeAll(async () => {
  upstream = await startServer({ rateWindowSeconds: 3 });
  hostile = await startHostile(
    upstream.url,
    CASES.map((c) => c.rule),
  );
  dir = mkdtempSync(join(tmpdir(), 'hostile-run-'));
  writeFileSync(join(dir, 'target.json'), JSON.stringify({ ...upstream.descriptor, url: hostile.url }));
});

test.afterAll(async () => {
  await hostile?.close();
  await upstream?.close();
});

function runCli(args: string[]): Promise<{ code: number | null; killed: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliEntry(), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    let killed = false;
    const t = setTimeout(() => {
      killed = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, RUN_BUDGET_MS);
    child.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, killed, output });
    });
  });
}

test('a run against a hostile target ends by itself with exit 2; affected checks are errors naming the cause', async () => {
  test.setTimeout(RUN_BUDGET_MS + 60_000);
  const reportDir = join(dir, 'report');
  const grep = [...CASES.map((c) => c.title.source.replace(/^\^/, '')), UNAFFECTED.source.replace(/\^/g, '')].join('|');
  const r = await runCli([
    'run',
    '--target-file',
    join(dir, 'target.json'),
    '--request-timeout',
    '2',
    '--clauses',
    'ROUTE-*',
    '--grep',
    grep,
    '--report-dir',
    reportDir,
    '--reporter',
    'dot',
    '--workers',
    '2',
  ]);
  expect(r.killed, `the run had to be killed after ${RUN_BUDGET_MS / 1000} s:\n${r.output.slice(-2000)}`).toBe(false);
  expect(existsSync(join(reportDir, 'results.json')), r.output.slice(-2000)).toBe(true);
  const results = Results.parse(JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')));
  const failed = results.tests.filter((t) => t.outcome === 'fail');
  expect(
    failed.map((t) => `${t.title}: ${t.message}`),
    'no check may fail because of the transport',
  ).toEqual([]);
  expect(r.code, r.output.slice(-2000)).toBe(2);
  for (const c of CASES) {
    const hit = results.tests.filter((t) => c.title.test(t.title));
    expect(hit.length, `checks meeting ${c.rule.behaviour} (${c.title})`).toBeGreaterThan(0);
    for (const t of hit) {
      expect(t.outcome, `${t.title} (${c.rule.behaviour})`).toBe('error');
      expect(t.message ?? '', `${t.title} (${c.rule.behaviour})`).toMatch(c.cause);
    }
    expect(hostile.hits[c.rule.behaviour], `requests that met ${c.rule.behaviour}`).toBeGreaterThan(0);
  }
  const good = results.tests.filter((t) => UNAFFECTED.test(t.title));
  expect(good.length).toBeGreaterThan(3);
  for (const t of good) expect(t.outcome, `${t.title}: ${t.message}`).toBe('pass');
});

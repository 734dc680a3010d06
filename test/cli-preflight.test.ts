/**
 * The preflight, black box: a given target that is not reachable, an account token it
 * refuses, or a base UUID that is not the API token's base ends the run before any check —
 * exit 2, one line naming what failed and what to fix, and the same line in every report
 * (results.json, clauses.md, junit.xml, the HTML front page). The time each took is measured
 * and attached to the test (the budget, under 5 s, is stated, not asserted).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, serve, tempDir, type Served } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';

let server: Served;
test.beforeAll(async () => {
  server = await serve();
});
test.afterAll(async () => {
  await server?.stop();
});

/** A copy of the server's descriptor with one thing wrong. */
function broken(
  label: string,
  change: (d: Record<string, unknown> & { bases: { uuid: string; api_token: string }[] }) => void,
): string {
  const d = JSON.parse(JSON.stringify(server.descriptor)) as Record<string, unknown> & {
    bases: { uuid: string; api_token: string }[];
  };
  change(d);
  const file = join(tempDir(`preflight-${label}`), 'target.json');
  writeFileSync(file, JSON.stringify(d));
  return file;
}

const CASES: [
  string,
  (d: Record<string, unknown> & { bases: { uuid: string; api_token: string }[] }) => void,
  RegExp,
][] = [
  [
    'unreachable target',
    (d) => {
      d.url = 'http://127.0.0.1:9';
    },
    /the target http:\/\/127\.0\.0\.1:9 is not reachable: .*refused.* — check the URL \(--target, or the descriptor's "url"\)/,
  ],
  [
    'refused account token',
    (d) => {
      d.account_token = 'not-the-account-token';
    },
    /the account token is refused \(40[13]\) — check the descriptor's "account_token" \(or --account-token\)/,
  ],
  [
    'wrong base UUID',
    (d) => {
      d.bases[1]!.uuid = '00000000-0000-4000-8000-000000000000';
    },
    /base #2 \(UUID 00000000-0000-4000-8000-000000000000\): .* — check the descriptor's bases\[1\]\.uuid/,
  ],
];

for (const [label, change, line] of CASES) {
  test(`${label}: exit 2 before any check, one line in the terminal and in every report`, async () => {
    test.setTimeout(60_000);
    const dir = tempDir(`preflight-${label.replace(/ /g, '-')}`);
    const t0 = Date.now();
    const r = await cli(['run', '--target-file', broken(label.replace(/ /g, '-'), change), '--report-dir', dir], {
      exclusive: false,
    });
    const ms = Date.now() - t0;
    test.info().annotations.push({
      type: 'wall time',
      description: `${label}: ${(ms / 1000).toFixed(2)} s (budget: under 5 s)`,
    });
    console.log(`preflight ${label}: ${(ms / 1000).toFixed(2)} s`);
    expect(r.code, r.output).toBe(2);
    const first = r.stderr.split('\n')[0]!;
    expect(first).toMatch(/^conformance: preflight failed, no check ran: /);
    expect(first).toMatch(line);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(2); // that line, and where the reports are
    const results = readResults(dir);
    expect(results.totals.tests).toBe(0);
    expect(results.runErrors).toEqual([{ phase: 'preflight', reason: expect.stringMatching(line) }]);
    expect(results.verdict).toEqual({ exitCode: 2, text: 'NOT STARTED (preflight failed)' });
    const md = readFileSync(join(dir, 'clauses.md'), 'utf8');
    expect(md).toMatch(/^# Conformance: NOT STARTED \(preflight failed\) \(exit 2\)/);
    expect(md).toMatch(line);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="run errors" tests="1" failures="0" errors="1"/);
    expect(junit.replace(/&quot;/g, '"')).toMatch(line);
    const html = readFileSync(join(dir, 'html', 'index.html'), 'utf8');
    expect(html).toContain('<h1>Conformance: NOT STARTED (preflight failed) (exit 2)</h1>');
    expect(html.replace(/&quot;/g, '"')).toMatch(line);
    for (const text of [r.output, md, junit, html]) expect(text).not.toContain(server.descriptor.bases[0]!.api_token);
  });
}

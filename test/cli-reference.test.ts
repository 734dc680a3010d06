/**
 * The self-test of issue 4 item 11, black box: `conformance run` in a child process against
 * the reference server exits 0 and writes every report, valid against its schema; across
 * the clean runs (the default edition, and the cloud edition for RATE-8) every clause of
 * src/spec/clauses.ts is covered by a check that ran (not skipped). The last test names
 * the clauses no check covers yet.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect, test } from '@playwright/test';
import type { Results } from '../src/reports/results-schema.js';
import { CLAUSES } from '../src/spec/index.js';
import { cli, ROOT, serve, tempDir } from './helpers/cli.js';
import { everyArtefact, findSecrets, htmlTests, readResults } from './helpers/reports.js';
import { serverSecrets } from './helpers/secrets.js';

test.describe.configure({ mode: 'serial' });

const covered = new Map<string, string[]>();
function noteCoverage(label: string, r: Results): void {
  for (const t of r.tests) if (t.clause && t.outcome !== 'skip') covered.set(t.clause, [...(covered.get(t.clause) ?? []), label]);
}
const problems = (r: Results) => r.tests.filter((t) => t.outcome === 'fail' || t.outcome === 'error').map((t) => `${t.outcome}: ${t.title}: ${t.message?.split('\n')[0]}`);

test('a full run against the reference server exits 0 with valid reports and no secret in them', async () => {
  test.setTimeout(600_000);
  const server = await serve();
  try {
    const dir = tempDir('reference');
    const r = await cli(['run', '--target-file', server.file, '--report-dir', dir], { timeoutMs: 540_000 });
    const results = readResults(dir);
    noteCoverage('self-hosted 6.2', results);
    // Soft: the reports below are checked whatever the verdict.
    expect.soft(problems(results), r.stderr.slice(-3000)).toEqual([]);
    expect.soft(r.code, r.stderr.slice(-3000)).toBe(0);

    // results.json against the JSON Schema written beside it.
    const schema = JSON.parse(readFileSync(join(dir, 'results.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const raw = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as unknown;
    expect(validate(raw), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(results.schemaVersion).toBe(1);

    // JUnit: valid against junit-10.xsd, the same counts as results.json, a clause property per suite.
    execFileSync('xmllint', ['--noout', '--schema', join(ROOT, 'fixtures', 'junit', 'junit-10.xsd'), join(dir, 'junit.xml')], { stdio: 'pipe' });
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${results.totals.tests}" failures="${results.totals.fail}" errors="${results.totals.error}"`));
    expect((xml.match(/<testcase /g) ?? []).length).toBe(results.totals.tests);
    for (const id of new Set(results.tests.map((t) => t.clause).filter(Boolean))) expect(xml).toContain(`<property name="clause" value="${id}"/>`);

    // clauses.md: every clause, with an outcome or "not covered".
    const md = readFileSync(join(dir, 'clauses.md'), 'utf8');
    for (const c of CLAUSES) expect(md).toMatch(new RegExp(`^\\| ${c.id} \\| (✅ pass|❌ fail|⚠️ error|⏭️ skip|▫️ not covered) \\|`, 'm'));

    // HTML: each check that called the target carries its redacted transcript and a curl reproducer.
    const html = await htmlTests(dir);
    expect(html.length).toBe(results.totals.tests);
    const calling = results.tests.filter((t) => (t.calls ?? 0) > 0).map((t) => t.title);
    for (const title of calling) {
      const names = html.find((t) => t.title === title)?.results[0]?.attachments.map((a) => a.name) ?? [];
      expect(names, title).toEqual(expect.arrayContaining(['requests and responses', 'curl reproducer']));
    }

    expect(findSecrets([...(await everyArtefact(dir)), ['terminal', r.output]], serverSecrets(server))).toEqual([]);
  } finally {
    await server.stop();
  }
});

test('the embedded reference server as the cloud edition: the rate family passes (RATE-8 applies)', async () => {
  test.setTimeout(600_000);
  const dir = tempDir('cloud');
  const r = await cli(['run', '--edition', 'cloud', '--clauses', 'RATE-*', '--report-dir', dir], { timeoutMs: 540_000 });
  const results = readResults(dir);
  noteCoverage('cloud 6.2', results);
  expect.soft(problems(results), r.stderr.slice(-3000)).toEqual([]);
  expect.soft(r.code, r.stderr.slice(-3000)).toBe(0);
});

test('every clause is covered by a check that ran in a clean run', () => {
  const uncovered = CLAUSES.map((c) => c.id).filter((id) => !covered.has(id));
  expect(uncovered, `clauses no executed check covers yet: ${uncovered.join(', ')}`).toEqual([]);
});

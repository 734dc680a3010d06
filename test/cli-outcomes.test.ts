/**
 * Outcomes and exit codes, black box: `conformance run` over a test-only suite with one
 * check per outcome (test/suites/outcomes). Fail and error stay apart in results.json,
 * clauses.md, JUnit (<failure> vs <error>), the terminal summary and the HTML report
 * (an `outcome` annotation); the exit code is 1 with a failure, 2 with only undecided
 * checks (or an unreachable target), 0 with passes and skips.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { cli, ROOT, tempDir } from './helpers/cli.js';
import { identity } from '../src/spec/identity.js';
import { htmlTests, readResults } from './helpers/reports.js';
import { onOfflinePage } from './helpers/offline-page.js';
import { harnessEnvVars } from '../src/common/harness-env.js';

const SUITES = harnessEnvVars({ suitesDir: join(ROOT, 'test', 'suites', 'outcomes') });
/** The clauses the test-only suite covers: a run asks for them, so none ends "not covered" (a run error). */
const COVERED = ['--clauses', 'ROUTE-3,ROUTE-4,ROUTE-5,ROUTE-6,ROUTE-7,SIZE-1,SIZE-2,SIZE-3,SIZE-4,SIZE-5'];
const XSD = join(ROOT, 'fixtures', 'junit', 'junit-10.xsd');

test.describe.configure({ mode: 'parallel' });

test('every outcome apart in every output; a failure exits 1', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('outcomes');
  const summary = join(dir, 'step-summary.md');
  const r = await cli(['run', '--report-dir', join(dir, 'r'), '--reporter', 'progress', ...COVERED], {
    env: { ...SUITES, GITHUB_STEP_SUMMARY: summary },
  });
  expect(r.code, r.output).toBe(1);
  const reports = join(dir, 'r');

  const results = readResults(reports);
  const outcome = (title: string) => results.tests.find((t) => t.title.endsWith(`selftest: ${title}`))?.outcome;
  expect(['pass', 'fail', 'error', 'skip', 'timeout', 'vacuous'].map(outcome)).toEqual([
    'pass',
    'fail',
    'error',
    'skip',
    'error',
    'error',
  ]);
  expect(results.totals).toMatchObject({ pass: 1, fail: 3, error: 5, skip: 1, tests: 10 });
  // Outcomes are data: a check's own TypeError is an error; a violation before a timeout is a failure
  // with both reasons; a body echoing the old text marker changes nothing; a missing fixture is an error.
  const byTitle = (t: string) => results.tests.find((x) => x.title.endsWith(`selftest: ${t}`))!;
  expect(byTitle('type-error')).toMatchObject({ outcome: 'error', cause: 'harness-bug' });
  expect(byTitle('type-error').message).toMatch(/TypeError/);
  const softTimeout = byTitle('soft-then-timeout');
  expect(softTimeout.outcome).toBe('fail');
  expect(softTimeout.violations?.map((v) => v.message)).toEqual(['deliberate soft violation: one must be two']);
  expect(softTimeout.errors?.map((e) => e.cause)).toEqual(['timeout']);
  expect(softTimeout.message).toMatch(/one must be two[^]*harness could not decide \(timeout\)/);
  expect(byTitle('marker-echo')).toMatchObject({ outcome: 'fail' });
  expect(byTitle('marker-echo').violations?.[0]).toMatchObject({
    expected: '"pong"',
    exchange: expect.stringMatching(/#1 GET .*\/ping\/ → 200/),
  });
  expect(byTitle('fixture')).toMatchObject({ outcome: 'error', cause: 'fixture' });
  expect(byTitle('error')).toMatchObject({ outcome: 'error', cause: 'bad-json' });
  expect(results.runErrors).toEqual([]);
  // The verdict names its judge in every output, with what the target was held to.
  const judge = identity();
  expect(results.tool).toEqual(judge);
  expect(results.run).toMatchObject({ apiVersion: '6.2', edition: 'self-hosted' });
  expect(results.tests.find((t) => t.outcome === 'skip')?.message).toBe('needs a second base (deliberate skip)');
  expect(results.tests.find((t) => t.title.endsWith('vacuous'))?.message).toMatch(/^vacuous-pass guard/);

  // JUnit: schema-valid, <failure> for the failure only, <error> for each undecided check, the skip reason kept.
  execFileSync('xmllint', ['--noout', '--schema', XSD, join(reports, 'junit.xml')], { stdio: 'pipe' });
  const xml = readFileSync(join(reports, 'junit.xml'), 'utf8');
  expect(xml.match(/<failure /g)).toHaveLength(3);
  expect(xml.match(/<error /g)).toHaveLength(5);
  expect(xml).toMatch(/<testsuites [^>]*tests="10" failures="3" errors="5"/);
  expect(xml).toContain('<error type="harness-bug"');
  for (const [n, v] of [
    ['harness.version', judge.version],
    ['spec.revision', judge.specRevision],
    ['clauses.hash', judge.clauseTableHash],
    ['held.release', '6.2'],
    ['held.edition', 'self-hosted'],
  ])
    expect(xml).toContain(`<property name="${n}" value="${v}"/>`);
  expect(xml).toContain('<error type="fixture"');
  expect(xml).toContain('<error type="bad-json"');
  expect(xml).toContain('<error type="timeout"');
  expect(xml).toContain('<error type="vacuous-pass"');
  expect(xml).toContain('<skipped message="needs a second base (deliberate skip)"/>');
  expect(xml).toMatch(
    /<testsuite name="ROUTE-6"[^]*?<property name="clause" value="ROUTE-6"\/>[^]*?<testcase name="ROUTE-6 selftest: error"/,
  );

  // clauses.md, also appended to $GITHUB_STEP_SUMMARY.
  const md = readFileSync(join(reports, 'clauses.md'), 'utf8');
  expect(md).toMatch(/\| ROUTE-5 \| ❌ fail \|/);
  expect(md).toMatch(/\| ROUTE-6 \| ⚠️ error \|/);
  expect(md).toMatch(/\| ROUTE-7 \| ⏭️ skip \|/);
  expect(md).toMatch(/\| ROUTE-1 \| ▫️ not covered \|/);
  expect(readFileSync(summary, 'utf8')).toBe(md);
  expect(md).toContain(
    `Judged by ${judge.name} ${judge.version} (specification ${judge.specRevision}, clause table ${judge.clauseTableHash}).`,
  );
  expect(readFileSync(join(reports, 'html', 'index.html'), 'utf8')).toContain(
    `Judged by ${judge.name} ${judge.version}, specification ${judge.specRevision}, clause table ${judge.clauseTableHash}.`,
  );

  // Terminal: per check and in the summary, failures and errors named apart.
  expect(r.stdout).toMatch(/✘ fail +ROUTE-5 selftest: fail/);
  expect(r.stdout).toMatch(/⚠ error ROUTE-6 selftest: error/);
  expect(r.stdout).toMatch(/↷ skip +ROUTE-7 selftest: skip — needs a second base/);
  expect(r.stderr).toMatch(/1 passed, 3 failed, 5 errors, 1 skipped/);
  expect(r.stderr).toMatch(/failed \(the target breaks the clause\): ROUTE-5 \(1\), SIZE-3 \(1\), SIZE-4 \(1\)/);
  expect(r.stderr).toMatch(
    /errors \(the harness could not decide\): ROUTE-3 \(1\), ROUTE-6 \(1\), SIZE-1 \(1\), SIZE-2 \(1\), SIZE-5 \(1\)/,
  );

  // HTML: each undecided check says so; each check that made calls has its transcript and curl reproducer.
  const html = await htmlTests(reports);
  const mark = (title: string) =>
    html.find((t) => t.title.endsWith(title))?.results[0]?.annotations?.find((a) => a.type === 'outcome')
      ?.description ?? '';
  expect(mark('selftest: error')).toMatch(/^error — the harness could not decide \(bad-json\)/);
  expect(mark('selftest: timeout')).toMatch(/^error — the harness could not decide \(timeout\)/);
  expect(mark('selftest: vacuous')).toMatch(/^error — vacuous-pass guard/);
  expect(mark('selftest: fail')).toMatch(/^fail/);
  expect(mark('selftest: pass')).toBe('');
  const pass = html.find((t) => t.title.endsWith('selftest: pass'))!;
  const names = pass.results[0]!.attachments.map((a) => a.name);
  expect(names).toEqual(expect.arrayContaining(['requests and responses', 'curl reproducer']));
  expect(pass.results[0]!.attachments.find((a) => a.name === 'curl reproducer')?.body).toMatch(
    /^curl -sS -X GET .*\/ping\/'$/,
  );

  // The HTML front page, in a real browser: the same outcomes apart, clause by clause, each clause linking to its checks and their exchanges.
  await frontPage(join(reports, 'html', 'index.html'), async (page) => {
    const totals = await page.$$eval('.totals [data-outcome]', (els) => els.map((e) => e.textContent));
    expect(totals).toEqual(['pass 1', 'fail 3', 'error 5', 'skip 1', 'assertion warnings 0']);
    const row = (id: string) =>
      page.locator('#clauses tr', { hasText: id }).first().locator('[data-outcome]').getAttribute('data-outcome');
    expect([await row('ROUTE-5'), await row('ROUTE-6'), await row('ROUTE-7'), await row('ROUTE-1')]).toEqual([
      'fail',
      'error',
      'skip',
      'not covered',
    ]);
    await page.click('#clauses a[href="#clause-ROUTE-5"]');
    const check = page.locator('#clause-ROUTE-5 [data-check="ROUTE-5 selftest: fail"]');
    await expect(check).toBeVisible();
    await expect(check).toContainText('violation: deliberate failure: ping must answer 418');
    await check.locator('summary', { hasText: 'requests and responses' }).click();
    await expect(check.locator('pre')).toContainText('GET http://127.0.0.1');
    expect(await check.locator('a[href^="playwright/"]').getAttribute('href')).toMatch(
      /^playwright\/index\.html#\?testId=/,
    );
    // Its exchanges as a HAR file beside the report (issue 24).
    expect(await check.locator('a.har').getAttribute('href')).toMatch(/^\.\.\/har\/ROUTE-5-selftest-fail-\w+\.har$/);
    await expect(page.locator('#clause-SIZE-2 .check')).toContainText('harness could not decide (harness-bug)');
  });
});

test('only undecided checks (no failure) exit 2', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('outcomes-error');
  const r = await cli(['run', '--report-dir', dir, '--grep', 'selftest: (pass|error)$'], { env: SUITES });
  expect(r.code, r.output).toBe(2);
  expect(readResults(dir).totals).toMatchObject({ pass: 1, error: 1, fail: 0 });
  expect(r.stderr).toMatch(/UNDECIDED/);
});

test('passes and skips exit 0', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('outcomes-pass');
  const r = await cli(['run', '--report-dir', dir, '--grep', 'selftest: (pass|skip)$'], { env: SUITES });
  expect(r.code, r.output).toBe(0);
  expect(readResults(dir).totals).toMatchObject({ pass: 1, skip: 1, fail: 0, error: 0 });
  expect(r.stderr).toMatch(/PASSED/);
});

test('a selection that matches no check exits 2', async () => {
  test.setTimeout(240_000);
  const dir = tempDir('nothing');
  const r = await cli(['run', '--report-dir', dir, '--grep', 'no check has this title'], { env: SUITES });
  expect(r.code, r.output).toBe(2);
  expect(r.stderr).toMatch(/no check matches the selection/);
});

/** Open a report page in Debian's chromium, offline, and fail on any console error, page error or network request. */
async function frontPage(file: string, body: (page: Page) => Promise<void>): Promise<void> {
  const { problems } = await onOfflinePage(file, body);
  expect(problems).toEqual([]);
}

test('--transcripts failures keeps the exchanges of the checks that did not pass; none keeps none; the outcomes stay the same', async () => {
  test.setTimeout(120_000);
  const dir = tempDir('transcripts');
  const junitOf = async (which: string) => {
    const r = await cli(['run', '--report-dir', join(dir, which), '--transcripts', which, ...COVERED], { env: SUITES });
    expect(r.code, r.output).toBe(1);
    const xml = readFileSync(join(dir, which, 'junit.xml'), 'utf8');
    const cases = [...xml.matchAll(/<testcase name="([^"]*)"[\s\S]*?<\/testcase>/g)];
    const withCurl = cases.filter((c) => /curl -sS/.test(c[0])).map((c) => c[1]!.replace(/^.*selftest: /, ''));
    // The HTML report keeps every check's attachments: there the pass shows whether it carries its own.
    const html = (await htmlTests(join(dir, which))).filter((t) =>
      t.results.some((x) => x.attachments.some((a) => a.name === 'curl reproducer')),
    );
    return {
      withCurl: withCurl.sort(),
      inHtml: html.map((t) => t.title.replace(/^.*selftest: /, '')).sort(),
      outcomes: readResults(join(dir, which))
        .tests.map((t) => `${t.title} ${t.outcome}`)
        .sort(),
    };
  };
  // Three runs at once: they share nothing (own reports, own embedded servers, no rate phase).
  const [all, failures, none] = await Promise.all([junitOf('all'), junitOf('failures'), junitOf('none')]);
  // JUnit shows the exchanges of checks that did not pass: with "failures" exactly as with "all".
  expect(failures.withCurl).toEqual(all.withCurl);
  expect(failures.withCurl).toEqual(expect.arrayContaining(['fail', 'error']));
  expect(none.withCurl).toEqual([]);
  expect(all.inHtml).toContain('pass');
  expect(failures.inHtml).not.toContain('pass');
  expect(failures.inHtml).toEqual(expect.arrayContaining(['fail', 'error']));
  expect(none.inHtml).toEqual([]);
  expect(failures.outcomes).toEqual(all.outcomes);
  expect(none.outcomes).toEqual(all.outcomes);
});

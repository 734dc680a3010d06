/**
 * Baselines, and the one verdict every report states, black box: a reference server started
 * with a fault switch (`--fault omit-null` breaks SHAPE-1's text and long-text checks) and
 * runs of a few SHAPE-1 and ROUTE-4 checks with baselines naming checks and clauses — known
 * failures keep the run green (exit 0), new ones fail it (exit 1), an entry that now passes is
 * stale and fails it too; the exit code, results.json, clauses.md, junit.xml and the HTML front
 * page say the same. `conformance replay` then runs the failures of that report again: still
 * failing against the same server, fixed against a clean one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, serve, tempDir, type Served } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';

const CLAUSE = 'SHAPE-1';
const FAULT = 'omit-null';
/**
 * A few of the clause's checks (text, long-text, number, auto-number): omit-null fails the first
 * three. Each failed check costs a Playwright worker restart (≈ 0.6 s); all 24 would cost 10 s a run.
 */
const SOME = 'text column|number column';
const TEXT =
  'SHAPE-1 text column "Name" in row list and row get: present, null when never set, the written value reads back';
const LONG =
  'SHAPE-1 long-text column "c long-text" in row list and row get: present, null when never set, the written value reads back';
const AUTO = 'SHAPE-1 auto-number column "c auto-number" in row list and row get: present, null or a valid value';

function baselineFile(dir: string, listed: Record<string, string>): string {
  const file = join(dir, 'baseline.json');
  writeFileSync(file, JSON.stringify({ implementation: 'reference server with a fault', expected_failures: listed }));
  return file;
}

async function runWith(server: Served, baseline: string, label: string) {
  const dir = tempDir(`baseline-${label}`);
  const r = await cli([
    'run',
    '--target-file',
    server.file,
    '--clauses',
    CLAUSE,
    '--grep',
    SOME,
    '--baseline',
    baseline,
    '--report-dir',
    dir,
    '--no-html',
  ]);
  return {
    r,
    results: readResults(dir),
    md: readFileSync(join(dir, 'clauses.md'), 'utf8'),
    junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
  };
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const attr = (xml: string, name: string) => Number(new RegExp(`<testsuites [^>]*${name}="(\\d+)"`).exec(xml)?.[1]);

test.describe('against a server that breaks SHAPE-1', () => {
  let server: Served;
  test.beforeAll(async () => {
    server = await serve(['--fault', FAULT]);
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a clause entry forgives its failing checks and says how many: exit 0, and JUnit skips them with their message; written by 0.1.0 (no version), it names the clauses new since', async () => {
    test.setTimeout(240_000);
    const { r, results, md, junit } = await runWith(
      server,
      baselineFile(tempDir('bl'), { [CLAUSE]: 'our server omits unset values' }),
      'known',
    );
    expect(results.clauses.find((c) => c.id === CLAUSE)?.outcome, r.output).toBe('fail');
    expect(results.baseline).toMatchObject({ known: [CLAUSE], new: [], fixed: [], stale: [] });
    expect(results.baseline?.entries).toEqual([{ entry: CLAUSE, kind: 'clause', forgives: 3, status: 'known' }]);
    expect(results.clauses.find((c) => c.id === CLAUSE)?.baseline).toBe('known failure');
    expect(md).toMatch(/\| SHAPE-1 \| ❌ fail \(known failure\) \|/);
    expect(md).toMatch(/^# Conformance: PASSED \(known failures only\) \(exit 0\)/);
    expect(r.stderr).toMatch(/baseline: 3 known and 0 new failing check\(s\); clauses 1 known \[SHAPE-1\]/);
    expect(r.stderr).toMatch(/clause entry SHAPE-1 forgives 3 failing check\(s\)/);
    // One verdict: JUnit has no failure where the run passed; each known one is skipped, its message kept.
    expect(attr(junit, 'failures')).toBe(0);
    expect(junit).not.toMatch(/<failure/);
    expect(
      junit.match(
        /<skipped message="baseline: clause entry SHAPE-1: our server omits unset values — row list, never-set row: column &quot;[^&]+&quot; is missing/g,
      ),
    ).toHaveLength(3);
    expect(results.verdict).toEqual({ exitCode: 0, text: 'PASSED (known failures only)' });
    expect(r.code, r.output).toBe(0);
    // Upgrades do not surprise: a baseline that records no harness version was written by 0.1.0,
    // when the extended clauses did not exist; it still works, and names the clauses new since.
    expect(results.baseline).toMatchObject({ harnessVersion: '0.1.0' });
    expect(results.baseline?.newSince?.clauses).toEqual(
      expect.arrayContaining(['ROUTE-8', 'SHAPE-8', 'BASE-1', 'CLIENT-1', 'ROBUST-1']),
    );
    expect(results.baseline?.newSince?.clauses).not.toContain(CLAUSE);
    expect(md).toMatch(/written by harness 0\.1\.0[^]*New since harness 0\.1\.0: clauses ROUTE-8, SHAPE-8/);
    expect(r.stderr).toMatch(/new since the baseline's harness 0\.1\.0: clauses ROUTE-8/);
  });

  test('new, known, fixed and stale entries in one run: exit 1, and the five reports agree; --write-baseline only removes; replay says STILL FAILING', async () => {
    test.setTimeout(300_000);
    const dir = tempDir('bl-mixed');
    const file = baselineFile(dir, { [TEXT]: 'known: text', [AUTO]: 'was broken', 'ROUTE-4': 'was broken' });
    const reports = join(dir, 'reports');
    const r = await cli([
      'run',
      '--target-file',
      server.file,
      '--clauses',
      `${CLAUSE},ROUTE-4`,
      '--grep',
      'text column|auto-number|/ping/ and',
      '--baseline',
      file,
      '--write-baseline',
      file,
      '--report-dir',
      reports,
    ]);
    const results = readResults(reports);
    const md = readFileSync(join(reports, 'clauses.md'), 'utf8');
    const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
    const html = readFileSync(join(reports, 'html', 'index.html'), 'utf8');
    expect(results.tests.map((t) => [t.title, t.outcome]).sort(), r.output).toEqual(
      [
        [AUTO, 'pass'],
        ['ROUTE-4 /ping/ and /server-info/ answer without credentials', 'pass'],
        [LONG, 'fail'],
        [TEXT, 'fail'],
      ].sort(),
    );
    // new: LONG; known: TEXT (its check entry); fixed: ROUTE-4 (a clause entry, now passing); stale: AUTO's entry and ROUTE-4's.
    expect(results.baseline).toMatchObject({ new: [CLAUSE], fixed: ['ROUTE-4'], newChecks: [LONG] });
    expect(results.baseline?.stale.sort()).toEqual([AUTO, 'ROUTE-4'].sort());
    expect(results.tests.find((t) => t.title === TEXT)?.baseline).toBe('check entry: known: text');
    // The five agree: exit code, results.json, clauses.md, JUnit, the HTML front page.
    expect(r.code, r.output).toBe(1);
    expect(results.verdict).toEqual({ exitCode: 1, text: 'FAILED' });
    expect(md).toMatch(/^# Conformance: FAILED \(exit 1\)/);
    expect(md).toContain(`Stale baseline entry: remove "${AUTO.replace(/\|/g, '\\|')}"`);
    expect(html).toContain('<h1>Conformance: FAILED (exit 1)</h1>');
    expect(html).toMatch(/class="stale">stale baseline entry: remove &quot;ROUTE-4&quot;/);
    expect(attr(junit, 'failures')).toBe(3); // LONG, and the two stale entries
    expect(junit).toMatch(
      /<skipped message="baseline: check entry: known: text — row list, never-set row: column &quot;Name&quot; is missing/,
    );
    expect(junit).toMatch(
      /<testcase name="stale baseline entry: ROUTE-4" classname="baseline"[^>]*><failure type="stale-baseline"/,
    );
    expect(r.stderr).toMatch(/stale baseline entry: remove "ROUTE-4" from .*baseline\.json \(it passes now\)/);
    // --write-baseline over the same file: the stale entries go, the new failure is not added silently.
    const written = JSON.parse(readFileSync(file, 'utf8')) as { expected_failures: Record<string, string> };
    expect(written.expected_failures).toEqual({ [TEXT]: 'known: text' });
    expect(r.stderr).toMatch(
      /1 new failure\(s\) not added \(SHAPE-1 long-text column[^)]*\) — add them with --update-baseline/,
    );
    // Each failed check carries its exchanges as a HAR 1.2 file, linked from results.json and the front page; secrets masked.
    const failed = results.tests.filter((t) => t.outcome === 'fail');
    for (const t of failed) {
      expect(t.har, t.title).toMatch(/^har\/SHAPE-1-.*\.har$/);
      const har = JSON.parse(readFileSync(join(reports, t.har!), 'utf8')) as {
        log: {
          version: string;
          entries: {
            request: { method: string; url: string; headers: { name: string; value: string }[] };
            response: { status: number };
          }[];
        };
      };
      expect(har.log.version).toBe('1.2');
      expect(
        har.log.entries.some(
          (e) => e.request.method === 'GET' && /\/rows\//.test(e.request.url) && e.response.status === 200,
        ),
      ).toBe(true);
      const auth = har.log.entries.flatMap((e) => e.request.headers).filter((h) => h.name === 'authorization');
      expect(auth.length).toBeGreaterThan(0);
      expect(auth.every((h) => /«redacted»/.test(h.value))).toBe(true);
      expect(html).toContain(`href="../${t.har}"`);
    }
    expect(results.tests.filter((t) => t.outcome === 'pass').every((t) => !t.har)).toBe(true);
    expect(results.run.options).toMatchObject({ seed: 1, clauses: `${CLAUSE},ROUTE-4`, targetFile: server.file });

    // Replay: exactly the two failed checks, the same way, against the same broken server.
    const again = await cli(['replay', reports, '--report-dir', join(dir, 'replay'), '--no-html']);
    expect(again.stdout).toMatch(new RegExp(`^STILL FAILING +${esc(TEXT)} — row list, never-set row`, 'm'));
    expect(again.stdout).toMatch(new RegExp(`^STILL FAILING +${esc(LONG)}`, 'm'));
    expect(again.stdout).toMatch(/^replay: 0 of 2 fixed$/m);
    expect(
      readResults(join(dir, 'replay'))
        .tests.map((t) => t.title)
        .sort(),
    ).toEqual([LONG, TEXT].sort());
    expect(again.code, again.output).toBe(1);

    // Against a clean server (--target-file replaces the report's): both FIXED, exit 0.
    const clean = await serve();
    try {
      const fixed = await cli([
        'replay',
        reports,
        '--target-file',
        clean.file,
        '--report-dir',
        join(dir, 'replay-clean'),
        '--no-html',
      ]);
      expect(fixed.stdout).toMatch(new RegExp(`^FIXED +${esc(TEXT)}$`, 'm'));
      expect(fixed.stdout).toMatch(new RegExp(`^FIXED +${esc(LONG)}$`, 'm'));
      expect(fixed.stdout).toMatch(/^replay: 2 of 2 fixed$/m);
      expect(readResults(join(dir, 'replay-clean')).run.options).toMatchObject({ seed: 1, targetFile: clean.file });
      expect(fixed.code, fixed.output).toBe(0);
    } finally {
      await clean.stop();
    }
  });

  test('--write-baseline records the version and the checks; a later run with it lists the checks it did not know', async () => {
    test.setTimeout(240_000);
    const dir = tempDir('bl-write');
    const file = join(dir, 'written.json');
    const first = await cli([
      'run',
      '--target-file',
      server.file,
      '--clauses',
      CLAUSE,
      '--grep',
      'text column',
      '--write-baseline',
      file,
      '--report-dir',
      join(dir, 'a'),
    ]);
    expect(first.code, first.output).toBe(1);
    const written = JSON.parse(readFileSync(file, 'utf8')) as {
      harness_version: string;
      expected_failures: Record<string, string>;
      checks: string[];
    };
    expect(written.harness_version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(written.expected_failures).sort()).toEqual([TEXT, LONG].sort());
    expect(written.checks.length).toBe(readResults(join(dir, 'a')).totals.tests);
    const { r, results } = await runWith(server, file, 'written');
    // The baseline names the two checks it saw fail; the number column's check, which it never ran, fails now: a new failure.
    expect(results.baseline?.newChecks).toEqual([
      'SHAPE-1 number column "c number" in row list and row get: present, null when never set, the written value reads back',
    ]);
    expect(r.code, r.output).toBe(1);
    expect(results.baseline?.newSince?.clauses).toEqual([]);
    const unknown = results.baseline?.newSince?.checks ?? [];
    expect(unknown.length).toBe(results.totals.tests - written.checks.length);
    expect(unknown.every((t) => !written.checks.includes(t))).toBe(true);
  });
});

/** The end of a run: a merge that crashed or a phase that could not be started is a run error, never "nothing matched". */
import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import JSZip from 'jszip';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretsFile } from './redact-stream.js';
import { finish, type PhaseEnd } from './finish.js';
import type { RunOptions } from './options.js';
import { mergeReports, runRedacted } from './phases.js';
import { BOTH_PHASES } from '../common/harness-env.js';
import type { Results } from '../reports/results-schema.js';
import { fakeResults } from '../../test/helpers/reports.js';

function end(phases: PhaseEnd[], mergeError?: string, results?: Results) {
  const reportDir = mkdtempSync(join(tmpdir(), 'finish-'));
  if (results) writeFileSync(join(reportDir, 'results.json'), JSON.stringify(results));
  const out = finish({
    o: { html: false } as RunOptions,
    reportDir,
    workDir: mkdtempSync(join(tmpdir(), 'finish-work-')),
    info: { startedAt: new Date().toISOString() },
    interrupted: false,
    timings: [],
    phases,
    ...(mergeError ? { mergeError } : {}),
  });
  return {
    exitCode: out.exitCode,
    reasons: (
      JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as { runErrors: { reason: string }[] }
    ).runErrors.map((e) => e.reason),
  };
}

test('a merge of the reports that failed is a run error of its own (exit 2), not "no check matches the selection"', () => {
  const r = end(
    [{ phase: 'functional', exitCode: 0 }],
    "merging the phases' reports failed (Playwright merge-reports ended with exit code 1): the reports are incomplete",
  );
  expect(r.exitCode).toBe(2);
  expect(r.reasons.join('\n')).toContain('merge-reports ended with exit code 1');
  expect(r.reasons.join('\n')).not.toContain('no check matches');
});

test('a phase whose process could not be started says why', async () => {
  const secrets = new SecretsFile(join(mkdtempSync(join(tmpdir(), 'finish-secrets-')), 'secrets'));
  const started = await runRedacted(join(tmpdir(), 'no-such-program-here'), [], process.env, secrets, true);
  expect(started.error).toMatch(/could not be started: spawn .*ENOENT/);
  expect(started.exitCode).not.toBe(0);
  const r = end([{ phase: 'functional', ...started }]);
  expect(r.exitCode).toBe(2);
  expect(r.reasons.join('\n')).toMatch(/the functional phase did not run: .*no-such-program-here could not be started/);
});

test("mergeReports says when Playwright's merge-reports failed (a blob report it cannot read)", async () => {
  const work = mkdtempSync(join(tmpdir(), 'finish-merge-'));
  mkdirSync(join(work, 'blobs', 'functional'), { recursive: true });
  const zip = new JSZip().file('report.jsonl', '{"method":"onBlobReportMetadata","params":{"version":999}}\n');
  writeFileSync(join(work, 'blobs', 'functional', 'functional.zip'), await zip.generateAsync({ type: 'nodebuffer' }));
  const secrets = new SecretsFile(join(work, 'secrets'));
  const problem = await mergeReports(
    work,
    join(work, 'report'),
    { startedAt: new Date().toISOString() },
    secrets,
    false,
  );
  expect(problem).toMatch(
    /^merging the phases' reports failed \(Playwright merge-reports ended with exit code [1-9]\d*\)/,
  );
});

test('both phases in one process: a failed check of either project explains exit code 1; none failed, exit 1 is a run error', () => {
  const both: PhaseEnd = { phase: BOTH_PHASES, projects: ['functional', 'rate'], exitCode: 1 };
  const ran = (rateOutcome: 'fail' | 'pass') => {
    const r = fakeResults([
      ['ROUTE-4', 'ROUTE-4 ping answers', 'pass'],
      ['RATE-3', 'RATE-3 429 body', rateOutcome],
    ]);
    r.tests[1]!.project = 'rate';
    return r;
  };
  const why = /functional∥rate phase ended with exit code 1 although every check of it passed/;
  expect(end([both], undefined, ran('fail')).reasons.join('\n')).not.toMatch(why);
  expect(end([both], undefined, ran('pass')).reasons.join('\n')).toMatch(why);
});

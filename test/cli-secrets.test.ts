/**
 * No secret in any artefact, black box. A reference server is started with a data file, so
 * the test knows every credential it holds and every token it issued during the run (its
 * tables of tokens). A test-only suite (test/suites/leaky) then does everything a careless
 * check could do with them: print, assert, throw, attach, annotate, skip with a reason.
 * Every file under the report directory — zips opened, the HTML report's embedded data
 * decoded, base64 forms searched too — and the terminal output must show none of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, ROOT, serve, tempDir } from './helpers/cli.js';
import { everyArtefact, findSecrets, readResults } from './helpers/reports.js';
import { serverSecrets } from './helpers/secrets.js';
import { harnessEnvVars } from '../src/common/harness-env.js';

test('no secret of the target, nor any token the run obtained, in any artefact or on the terminal', async () => {
  test.setTimeout(300_000);
  const server = await serve();
  try {
    const dir = tempDir('secrets');
    const summary = join(dir, 'step-summary.md');
    const reports = join(dir, 'reports');
    const r = await cli(['run', '--target-file', server.file, '--report-dir', reports, '--reporter', 'list'], {
      env: { ...harnessEnvVars({ suitesDir: join(ROOT, 'test', 'suites', 'leaky') }), GITHUB_STEP_SUMMARY: summary },
    });
    const results = readResults(reports);
    expect(results.totals.tests, r.output).toBe(4);
    const secrets = serverSecrets(server);
    const d = server.descriptor as Record<string, unknown>;
    for (const s of [d.password, d.account_token, ...server.descriptor.bases.map((b) => b.api_token)])
      expect(secrets).toContain(s);
    expect(secrets.length, 'base tokens issued during the run are among them').toBeGreaterThan(6);

    const artefacts = await everyArtefact(reports);
    artefacts.push(['terminal', r.output], ['$GITHUB_STEP_SUMMARY', readFileSync(summary, 'utf8')]);
    expect(
      artefacts.some(([label]) => label.includes('index.html!')),
      'the HTML report data was opened',
    ).toBe(true);
    // The failing checks' HAR files (the one that sent a token in a header among them) are searched too.
    expect(results.tests.filter((t) => t.har).length, 'HAR files were written').toBeGreaterThanOrEqual(2);
    for (const t of results.tests.filter((x) => x.har))
      expect(
        artefacts.some(([label]) => label === t.har),
        t.har,
      ).toBe(true);
    expect(artefacts.find(([label]) => label.endsWith('.har') && label.includes('ROUTE-4'))?.[1]).toMatch(
      /"name": "x-debug",\s*"value": "«redacted»"/,
    );
    expect(findSecrets(artefacts, secrets)).toEqual([]);
    // The checks did print and attach: the masks are there instead.
    expect(r.output).toContain('«redacted»');
  } finally {
    await server.stop();
  }
});

test('conformance diff --record: no secret of the target, nor any token it obtained (upload links among them), in the recording, the reports or on the terminal', async () => {
  test.setTimeout(180_000);
  const server = await serve();
  try {
    const dir = tempDir('diff-secrets');
    const [recording, reports] = [join(dir, 'recording'), join(dir, 'reports')];
    // The answer recipes obtain every kind of token (account, base, app, upload link); values and probes add the rest of the calls.
    const r = await cli([
      'diff',
      '--target-file',
      server.file,
      '--record',
      recording,
      '--report-dir',
      reports,
      '--sequences',
      'answers,values',
    ]);
    expect(r.code, r.output).toBeLessThan(2);
    const secrets = serverSecrets(server);
    expect(secrets.length, 'tokens issued during the diff are among them').toBeGreaterThan(6);
    const rec = readFileSync(join(recording, 'recording.json'), 'utf8');
    expect(rec, 'the recording holds the upload-link answer, normalised').toContain('"ref": "answers/getUploadLink"');
    const artefacts = [
      ...(await everyArtefact(recording)),
      ...(await everyArtefact(reports)),
      ['terminal', r.output] as [string, string],
    ];
    expect(findSecrets(artefacts, secrets)).toEqual([]);
  } finally {
    await server.stop();
  }
});

/**
 * `conformance diff`, black box: the reference server against itself (0 divergences, exit 0),
 * recorded and diffed against its recording offline (0), a mutant's divergence (exit 1), an
 * --accept file (accepted, stale entries reported), diff.html in chromium, diff.json against
 * its JSON Schema, and a side that cannot be run (exit 2).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { chromium, expect, test } from '@playwright/test';
import type { DiffReport } from '../src/diff/report.js';
import type { Recording } from '../src/diff/recording.js';
import { cli, tempDir } from './helpers/cli.js';

test.describe.configure({ mode: 'parallel' });

const read = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

function valid(dir: string): DiffReport {
  const schema = read<object>(join(dir, 'diff.schema.json'));
  const report = read<DiffReport>(join(dir, 'diff.json'));
  const check = new Ajv2020({ strict: false }).compile(schema);
  expect(check(report), JSON.stringify(check.errors?.slice(0, 3))).toBe(true);
  return report;
}

test('the reference server against itself: no divergence, exit 0; recorded, then diffed against the recording offline: no divergence', async () => {
  test.setTimeout(180_000);
  const dir = tempDir('diff-self');
  const rec = join(dir, 'rec');
  const live = await cli([
    'diff',
    '--report-dir',
    join(dir, 'live'),
    '--record',
    rec,
    '--record-name',
    'reference-6.2',
  ]);
  expect(live.code, live.output).toBe(0);
  const a = valid(join(dir, 'live'));
  expect(a.summary.open).toBe(0);
  expect(a.summary.same, 'every sequence compared something').toBeGreaterThan(350);
  expect(new Set(a.results.map((r) => r.ref.split('/')[0]))).toEqual(
    new Set(['values', 'refusals', 'caps', 'structure', 'records', 'account', 'answers', 'probe', 'removed']),
  );
  expect(readFileSync(join(dir, 'live', 'diff.md'), 'utf8')).toMatch(/^# conformance diff: no divergence/);

  const recording = read<Recording>(join(rec, 'recording.json'));
  expect(recording).toMatchObject({
    name: 'reference-6.2',
    harness: { name: expect.any(String), version: expect.stringMatching(/^\d+\.\d+/) },
    target: { label: 'reference server', release: '6.2', edition: 'self-hosted' },
  });
  expect(Date.parse(recording.madeAt)).toBeGreaterThan(Date.now() - 600_000);

  // Offline, a part of the recording (the whole was just compared live): the values, a read-back sequence and one operation's answer.
  const offline = await cli([
    'diff',
    '--report-dir',
    join(dir, 'offline'),
    '--against-recording',
    rec,
    '--sequences',
    'values,structure,answers',
    '--operations',
    '^listRows$',
  ]);
  expect(offline.code, offline.output).toBe(0);
  const b = valid(join(dir, 'offline'));
  expect(b.against).toMatchObject({ calls: 0, recording: { name: 'reference-6.2' } });
  expect(b.summary.open).toBe(0);
  // Against a recording the diff says which behaviours it confirms, cited as name#ref.
  expect(b.evidence?.confirms).toContain('reference-6.2#answers/listRows');
  expect(b.evidence?.contradicts).toEqual([]);
});

test("a mutant's divergences fail the diff (exit 1), marked side by side in diff.html; --accept lists them (exit 0) and reports a stale entry", async () => {
  test.setTimeout(120_000);
  const dir = tempDir('diff-mutant');
  const args = ['diff', '--sequences', 'values', '--against-fault', 'omit-null'];
  const open = await cli([...args, '--report-dir', join(dir, 'open')]);
  expect(open.code, open.output).toBe(1);
  const r = valid(join(dir, 'open'));
  const diverged = r.results.filter((x) => x.verdict === 'diverged').map((x) => x.ref);
  expect(diverged).toContain('values/list');
  expect(readFileSync(join(dir, 'open', 'diff.md'), 'utf8')).toMatch(
    /\| `values\/list` \| structure \| \$\.rows\[\]\.Num: in every item against in some items only/,
  );

  const accept = join(dir, 'accept.json');
  writeFileSync(
    accept,
    JSON.stringify({
      accepted: [
        ...diverged.map((ref) => ({ ref, reason: 'omit-null, known' })),
        { ref: 'values/no-such-step', reason: 'fixed long ago' },
      ],
    }),
  );
  const accepted = await cli([...args, '--report-dir', join(dir, 'accepted'), '--accept', accept]);
  expect(accepted.code, accepted.output).toBe(0);
  expect(accepted.stderr).toContain('stale --accept entry values/no-such-step');
  const a = valid(join(dir, 'accepted'));
  expect(a.stale.map((e) => e.ref)).toEqual(['values/no-such-step']);
  expect(a.summary).toMatchObject({ open: 0, accepted: r.summary.open });

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('request', (q) => {
      if (!q.url().startsWith('file:')) problems.push(`network request ${q.url()}`);
    });
    await page.goto(`file://${join(dir, 'open', 'diff.html')}`);
    await expect(page.locator('#verdict')).toHaveText(`${r.summary.open} divergence(s)`);
    // Only the divergences by default, each open, the two answers side by side with the lines of one side only marked.
    await expect(page.locator('tr.x:visible')).toHaveCount(diverged.length);
    const row = page.locator('tr.diverged[data-ref="values/list"]');
    await expect(row.locator('li.open')).toContainText('structure');
    await expect(row.locator('pre.a mark').first()).toBeVisible();
    await expect(row.locator('pre.b mark').first()).toBeVisible();
    await page.locator('#only').uncheck();
    await expect(page.locator('tr.x:visible')).toHaveCount(r.results.length);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('a side that cannot be run ends the diff with exit 2; so does a usage error', async () => {
  const dir = tempDir('diff-unusable');
  const nowhere = join(dir, 'nowhere.json');
  writeFileSync(
    nowhere,
    JSON.stringify({
      url: 'http://127.0.0.1:9',
      bases: [{ uuid: '00000000-0000-4000-8000-000000000000', api_token: 'x'.repeat(40), name: 'B' }],
    }),
  );
  const r = await cli(['diff', '--against-file', nowhere, '--report-dir', join(dir, 'r')]);
  expect(r.code, r.output).toBe(2);
  expect(r.stderr).toMatch(/cannot be run/);
  const u = await cli(['diff', '--against-file', nowhere, '--against-recording', dir]);
  expect(u.code, u.output).toBe(2);
  expect(u.stderr).toMatch(/mutually exclusive|against-recording/);
});

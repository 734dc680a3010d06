/** The blob scrub and the redacting pipe: secrets in events, inline base64 attachments, attachment files and split output. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect, test } from '@playwright/test';
import JSZip from 'jszip';
import { MASK, registerSecret } from '../client/redact.js';
import { scrubBlob } from './blobs.js';
import { pipeRedacted, SecretsFile } from './redact-stream.js';

const SECRET = 'tok_9f8e7d6c5b4a3210fedcba';

test('a blob report comes back without the secret, in any form, and without directory entries', async () => {
  registerSecret(SECRET);
  const dir = mkdtempSync(join(tmpdir(), 'blob-'));
  const file = join(dir, 'functional.zip');
  const zip = new JSZip();
  const events = [
    { method: 'onTestEnd', params: { result: { errors: [{ message: `expected ${SECRET}` }] } } },
    {
      method: 'onAttach',
      params: { attachments: [{ name: 'x', base64: Buffer.from(`body ${SECRET} body`).toString('base64') }] },
    },
    { method: 'onStdIO', params: { buffer: Buffer.from(`out ${SECRET}`).toString('base64') } },
  ];
  zip.file('report.jsonl', events.map((e) => JSON.stringify(e)).join('\n'));
  zip.file('resources/abc.dat', Buffer.from(`\u0000\u0001${SECRET}\u0002`));
  writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer' }));

  expect(await scrubBlob(file)).toBe(2);
  const back = await JSZip.loadAsync(readFileSync(file));
  expect(Object.values(back.files).filter((f) => f.dir)).toEqual([]);
  const jsonl = await back.file('report.jsonl')!.async('string');
  expect(jsonl).not.toContain(SECRET);
  const lines = jsonl.split('\n').map((l) => JSON.parse(l) as { params: Record<string, unknown> });
  expect(JSON.stringify(lines[0])).toContain(MASK);
  const att = (lines[1]!.params.attachments as { base64: string }[])[0]!;
  expect(Buffer.from(att.base64, 'base64').toString()).toBe(`body ${MASK} body`);
  expect(Buffer.from(lines[2]!.params.buffer as string, 'base64').toString()).toBe(`out ${MASK}`);
  const res = await back.file('resources/abc.dat')!.async('nodebuffer');
  expect(res.toString()).toBe(`\u0000\u0001${MASK}\u0002`);
  expect(await scrubBlob(file), 'a clean blob is left as it is').toBe(0);
});

test('the terminal pipe redacts secrets learnt from the secrets file, also when a line arrives in pieces', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipe-'));
  const secrets = new SecretsFile(join(dir, 'secrets'));
  const learnt = 'worker-learnt-token-123456';
  writeFileSync(secrets.path, `${Buffer.from(learnt).toString('base64')}\n`);
  const from = new PassThrough();
  const to = new PassThrough();
  let out = '';
  to.on('data', (d: Buffer) => {
    out += d;
  });
  const done = pipeRedacted(from, to, secrets);
  from.write(`a ${learnt.slice(0, 10)}`);
  from.write(`${learnt.slice(10)} b\nc`);
  from.end(' d\n');
  await done;
  expect(out).toBe(`a ${MASK} b\nc d\n`);
});

/** Redaction of bodies: credential fields masked, and the tokens inside file-server links learnt. */
import { expect, test } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARNESS_ENV } from '../common/harness-env.js';
import { MASK, redactBody, redactText, registerSecret } from './redact.js';

test('credential fields are masked and learnt; a file-server link keeps its shape but not its token', () => {
  const upload = '0c8e2a74-5d1f-4b9e-9a3c-7f6b2d1e8a90';
  const download = '7d3f9b21-aa04-4e5c-8b6d-2c9e1f0a7b34';
  const body = JSON.stringify({
    api_token: 'tok-0123456789',
    dirent: { upload_link: `http://127.0.0.1:9/seafhttp/upload-api/${upload}`, parent_path: '/asset/x' },
    download_link: `http://127.0.0.1:9/seafhttp/files/${download}/a.txt`,
  });
  const out = redactBody(body, 'application/json');
  for (const secret of ['tok-0123456789', upload, download]) expect(out).not.toContain(secret);
  expect(out).toContain(`/seafhttp/upload-api/${MASK}`);
  expect(out).toContain('/asset/x');
  // Learnt: the same token elsewhere (the upload call's path, a message) is masked too.
  expect(redactText(`POST /seafhttp/upload-api/${upload}?ret-json=1`)).toBe(
    `POST /seafhttp/upload-api/${MASK}?ret-json=1`,
  );
});

const SECRETS_FILE = HARNESS_ENV.secretsFile.name;

test('a secret that cannot be appended to the secrets file fails its call, not silently (the runner could not scrub it)', () => {
  const before = process.env[SECRETS_FILE];
  const file = join(tmpdir(), `no-such-dir-${process.pid}`, 'secrets');
  process.env[SECRETS_FILE] = file;
  try {
    expect(() => registerSecret('learnt-token-0123456789')).toThrow(`a learnt secret could not be recorded in ${file}`);
  } finally {
    if (before === undefined) delete process.env[SECRETS_FILE];
    else process.env[SECRETS_FILE] = before;
  }
  // Still known to this process: its own output stays redacted.
  expect(redactText('x learnt-token-0123456789 y')).toBe(`x ${MASK} y`);
});

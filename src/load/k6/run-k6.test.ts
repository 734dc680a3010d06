/** Stock k6's samples as the runner reads them: an output it cannot read is said as such, not as "no samples". */
import { expect, test } from '@playwright/test';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runK6 } from './run-k6.js';

/** A stand-in k6 that does to its `--out json=FILE` what `action` says. */
function fakeK6(dir: string, action: string): string {
  const f = join(dir, 'k6');
  writeFileSync(
    f,
    `#!/usr/bin/env node\nconst out = process.argv.find((a) => a.startsWith('json=')).slice(5);\n${action}\n`,
  );
  chmodSync(f, 0o755);
  return f;
}

const run = (k6: string) =>
  runK6({ k6, bundleCode: 'export default function () {}', options: {}, env: {}, log: () => undefined });

test('k6 output that cannot be read is reported with its cause; no output at all is "k6 wrote no samples"', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'run-k6-'));
  const unreadable = await run(fakeK6(dir, "require('fs').mkdirSync(out);"));
  expect(unreadable.errors).toEqual([expect.stringMatching(/^k6's JSON output \(.*\) could not be read: .*EISDIR/)]);
  const none = await run(fakeK6(dir, ''));
  expect(none.errors).toEqual(['k6 wrote no samples']);
});

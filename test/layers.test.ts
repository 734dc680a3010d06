/**
 * Lower layers never reach up: the facts module knows no other part, the reference server and
 * the checks' machinery know neither the runner nor the selftest, the runner knows nothing of
 * the selftest (it hooks in from above, through the CLI). Read from every import of src/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from './helpers/cli.js';

const SRC = join(ROOT, 'src');
/** Each top folder of src/ and the folders it may import from (besides itself). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  spec: [],
  common: ['spec'],
  client: ['spec', 'common'],
  server: ['spec', 'common'],
  harness: ['spec', 'common', 'client'],
  reports: ['spec', 'common', 'client', 'harness'],
  runner: ['spec', 'common', 'client', 'harness', 'reports', 'server'],
  load: ['spec', 'common', 'client', 'server'],
  mutants: ['spec', 'common', 'client', 'harness', 'reports', 'runner', 'server'],
  diff: ['spec', 'common', 'client', 'harness', 'runner', 'server'],
  cli: ['spec', 'common', 'client', 'harness', 'reports', 'runner', 'server', 'load', 'mutants', 'diff'],
};

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !p.includes(`${join('server', 'test')}`)) yield p;
  }
}

test('every import of src/ goes down the layers, never up (the runner does not know the selftest)', () => {
  const wrong: string[] = [];
  let seen = 0;
  for (const file of sources(SRC)) {
    const from = relative(SRC, file).split(/[\\/]/)[0]!;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|\bimport\s*\(?)\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = relative(SRC, resolve(dirname(file), m[1]!));
      if (target.startsWith('..')) continue; // outside src/ (scripts, load scripts)
      seen++;
      const to = target.split(/[\\/]/)[0]!;
      if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to))
        wrong.push(`${relative(ROOT, file)} imports ${target} (${from} → ${to})`);
    }
  }
  expect(Object.keys(MAY_IMPORT).sort()).toEqual(
    readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort(),
  );
  expect(seen).toBeGreaterThan(300);
  expect(wrong).toEqual([]);
});

/**
 * One home per fact, read from the tree: a fact the harness had written in several places,
 * each in its own dialect, is now written in one module, and a new copy elsewhere fails here.
 * Comment lines are not read (they may name what they explain); tests may spell the
 * protocol as a client does (an oracle of their own), but not the harness's variables.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { HARNESS_ENV } from '../src/common/harness-env.js';
import { ROOT } from './helpers/cli.js';

const CODE = /\.(ts|js|mjs|cjs)$/;
const TEST = /\.test\.ts$|[\\/]server[\\/]test[\\/]|^test[\\/]/;

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'dist'].includes(e.name)) yield* files(p);
    } else if (CODE.test(e.name)) yield relative(ROOT, p);
  }
}
const TREE = ['src', 'test', 'scripts', 'suites', 'bin', 'load', 'bench'].flatMap((d) => [...files(join(ROOT, d))]);

/** `file:line: text` of each code line (comments left out) that matches `re`. */
function where(re: RegExp, inFile: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const file of TREE.filter(inFile)) {
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!/^\s*(\*|\/\/|\/\*)/.test(line) && re.test(line)) out.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return out;
}
const product = (home: readonly string[]) => (f: string) => !TEST.test(f) && !home.some((h) => f.startsWith(h));

test('the CONFHARNESS_* variables are named only in src/common/harness-env.ts, and the README lists each', () => {
  expect(TREE.length).toBeGreaterThan(300);
  const self = relative(ROOT, import.meta.filename);
  expect(where(/CONFHARNESS_/, (f) => f !== 'src/common/harness-env.ts' && f !== self)).toEqual([]);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Environment variables of the harness'));
  const rows = [...section.slice(0, section.indexOf('\n#')).matchAll(/^\| `(CONFHARNESS_\w+)` \| (.+) \|$/gm)];
  expect(rows.map((m) => [m[1], m[2]])).toEqual(Object.values(HARNESS_ENV).map((v) => [v.name, v.meaning]));
});

test("the base's metadata/ answer is read in src/harness/metadata.ts only (the server answers it)", () => {
  expect(
    where(
      /metadata\??\)?\??\.tables|metadata\?:\s*\{\s*tables/,
      product(['src/harness/metadata.ts', 'src/server/', 'src/spec/']),
    ),
  ).toEqual([]);
});

test("an error body's message is read in src/spec/error-bodies.ts only (the server writes them)", () => {
  // The official client's own rejection `{error_message}` is the client's form, not an answer's.
  const home = ['src/spec/error-bodies.ts', 'src/server/', 'src/harness/official/failures.ts'];
  expect(where(/\.\s*(error_msg|error_message)\b|\[\s*'(error_msg|error_message)'\s*\]/, product(home))).toEqual([]);
});

test('the mounts of the base components (/api-gateway/, /dtable-server/, /dtable-db/) are written in src/spec only', () => {
  expect(where(/['"`]\/(api-gateway|dtable-server|dtable-db)\/(?!\s)/, product(['src/spec/']))).toEqual([]);
});

test('a rate window is set by --rate-window in every command (a former name only as its alias)', () => {
  expect(where(/option\(\s*'(?!rate-window')[\w-]*window'/, (f) => f.startsWith('src/cli/'))).toEqual([]);
});

/**
 * The README states only what is true today, where a test can tell: its quick start is the
 * commands the project runs (package.json's start, .ci/run), its table of run options is the
 * one scripts/readme-options.ts renders from the CLI's definitions, every option it names is
 * an option of a command, and its family table names every clause and every suite.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import yargs, { type Argv } from 'yargs';
import { withRunOptions } from '../scripts/readme-options.js';
import { COMMANDS } from '../src/cli/commands/index.js';
import { CLAUSES } from '../src/spec/index.js';
import { ROOT } from './helpers/cli.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The part of the README under a `## ` heading. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

test('the quick start is two commands, the ones package.json and the CI job run', () => {
  const block = /```sh\n([\s\S]*?)```/.exec(section('Quick start'))![1]!;
  const commands = block
    .trim()
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, ''));
  expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.start, 'npm start is a run against the embedded server').toBe('node bin/conformance.js run');
  expect(pkg.scripts.test).toBe('tsx scripts/test.ts');
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((l) => /^npm /.test(l));
  expect(ci, '.ci/run runs the quick start').toEqual(['npm ci --no-audit --no-fund', 'npm test']);
});

test('the table of run options is current: run `npx tsx scripts/readme-options.ts`', () => {
  expect(readme).toBe(withRunOptions(readme));
});

type Y = Argv & {
  getOptions(): { key: Record<string, unknown> };
  getInternalMethods(): { getCommandInstance(): { getCommandHandlers(): Record<string, { builder: unknown }> } };
};

/** Every option name of a command and its subcommands, read from yargs as the CLI builds it. */
async function optionsOf(builder: unknown): Promise<string[]> {
  const y = yargs([]) as Y;
  // A command's builder imports its module first (src/cli/commands/index.ts): it is awaited.
  if (typeof builder === 'function') await (builder as (y: Argv) => unknown)(y);
  const subcommands = Object.values(y.getInternalMethods().getCommandInstance().getCommandHandlers());
  const nested = await Promise.all(subcommands.map((s) => optionsOf(s.builder)));
  return [...Object.keys(y.getOptions().key), ...nested.flat()];
}

/** Flags of other tools the README shows: npm, Playwright, Prettier, scripts/matrix.ts, scripts/build.ts. */
const OTHER_TOOLS = ['--config', '--check', '--log-level', '--write', '--changed-only', '--omit', '--test-suites'];

test('every option the README names is an option of a command', async () => {
  const known = new Set((await Promise.all(COMMANDS.map((c) => optionsOf(c.builder)))).flat());
  expect(known.has('max-regression'), 'subcommands are read too').toBe(true);
  const named = new Set([...readme.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!));
  const unknown = [...named].filter(
    (n) => !known.has(n) && !known.has(n.replace(/^no-/, '')) && !OTHER_TOOLS.includes(`--${n}`),
  );
  expect(unknown, 'options the README names that no command has').toEqual([]);
});

test('the family table names every clause and every suite', () => {
  const table = section('What it checks')
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Family') && !l.startsWith('|---'));
  const named = new Set<string>();
  for (const row of table) {
    const clauses = row.split('|')[3]!;
    for (const m of clauses.matchAll(/([A-Z]+)-(\d+)(?:…(\d+))?/g)) {
      for (let n = Number(m[2]); n <= Number(m[3] ?? m[2]); n++) named.add(`${m[1]}-${n}`);
    }
  }
  const ids = CLAUSES.map((c) => c.id as string);
  expect(
    ids.filter((id) => !named.has(id)),
    'clauses the family table leaves out',
  ).toEqual([]);
  expect(
    [...named].filter((id) => !ids.includes(id)),
    'clauses of the family table that do not exist',
  ).toEqual([]);
  const suites = readdirSync(join(ROOT, 'suites')).filter((f) => f.endsWith('.spec.ts'));
  expect(
    suites.filter((f) => !table.some((row) => row.includes(`suites/${f}`))),
    'suites the family table leaves out',
  ).toEqual([]);
});

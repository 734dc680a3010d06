/**
 * Into implementers' CI in one step. The package: `npm pack` compiles the harness into
 * JavaScript (dist/) and holds what a user runs, no TypeScript, tests or benchmarks; installed
 * into a fresh folder it runs — `--version`, the embedded run, `serve --json`, a run against
 * that server by descriptor, `load --emit` — with no TypeScript loader and nothing written
 * outside its report folders, so a file missing from the package fails here. The GitHub Action and the example workflow pass a validator for
 * Action and workflow files, and the README documents every input with its default.
 *
 * The install runs every install script with no compiler to be found (CC, CXX and node-gyp are
 * `false`): the embedded database's native binary comes prebuilt from npm (libsql).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { expect, test } from '@playwright/test';
import { ROOT, tempDir } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';
import { HARNESS_ENV_PREFIX, harnessEnv } from '../src/common/harness-env.js';

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/**
 * `npm pack` (its prepack build included) once per worker: both tests below read the same
 * tarball. Under npm test, which built dist/ with that same build before any test, the pack
 * skips the rebuild: it would empty dist/ under the other tests' compiled CLIs.
 */
let packed: (Packed & { path: string }) | undefined;
function pack(): Packed & { path: string } {
  if (packed) return packed;
  const into = tempDir('pack');
  const rebuild = harnessEnv('compiledCli') ? ['--ignore-scripts'] : [];
  const out = execFileSync('npm', ['pack', '--json', ...rebuild, '--pack-destination', into], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const p = (JSON.parse(out) as Packed[])[0]!;
  return (packed = { ...p, path: join(into, p.filename) });
}

test('npm pack holds what a user runs, no tests or benchmarks, and its size is stated in the README', () => {
  const p = pack();
  const files = p.files.map((f) => f.path);
  for (const f of [
    'bin/conformance.js',
    'dist/src/cli/start.js',
    'dist/src/runner/playwright.config.js',
    'dist/suites/routes.spec.js',
    'dist/load/k6/capacity.js',
    'dist/src/load/runtime/vu-worker.cjs',
    'spec/clauses.md',
    'spec/clauses-extended.md',
    'spec/openapi-operations.json',
    'package.json',
    'README.md',
  ]) {
    expect(files, f).toContain(f);
  }
  const unwanted = files.filter((f) =>
    /\.ts$|\.test\.js$|^src\/|^test\/|^bench\/|^dist\/src\/server\/test\/|^load\/bench\/|^fixtures\/|^scripts\//.test(
      f,
    ),
  );
  expect(unwanted).toEqual([]);
  const kb = (n: number) => `${Math.round(n / 1024)} kB`;
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const stated = /the package: ([\d,]+) kB packed, ([\d.]+) MB unpacked/.exec(readme);
  expect(stated, 'the README states the package size').not.toBeNull();
  expect(
    Math.abs(Number(stated![1]!.replace(/,/g, '')) - p.size / 1024),
    `README says ${stated![1]} kB, npm pack gives ${kb(p.size)}`,
  ).toBeLessThan(50);
});

test('installed from the tarball in a fresh folder: run (embedded), serve --json, run --target-file against it, load --emit', async () => {
  test.setTimeout(600_000);
  const dir = tempDir('install');
  const p = pack();
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'an-implementers-ci', version: '1.0.0', private: true }),
  );
  const noCompiler = { ...process.env, CC: 'false', CXX: 'false', npm_config_node_gyp: 'false' };
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', p.path], {
    cwd: dir,
    env: noCompiler,
    stdio: 'ignore',
    timeout: 400_000,
  });
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith(HARNESS_ENV_PREFIX)),
    ),
    XDG_CACHE_HOME: join(dir, 'cache'),
    FORCE_COLOR: '0',
  };
  // No TypeScript loader in the install: what runs is the compiled JavaScript, compiled by nothing at run time.
  expect(existsSync(join(dir, 'node_modules', 'tsx')), 'tsx is not installed with the package').toBe(false);
  const npx = (args: string[]) =>
    execFileSync('npx', ['--no-install', 'conformance', ...args], {
      cwd: dir,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 240_000,
    });

  expect(npx(['--version'])).toMatch(
    /^base-data-conformance \d+\.\d+\.\d+ \(specification 6\.2\+[0-9a-f]{12}, clause table [0-9a-f]{12}\)/,
  );

  npx(['run', '--clauses', 'ROUTE-4,SQL-1', '--report-dir', join(dir, 'embedded')]);
  expect(readResults(join(dir, 'embedded')).totals).toMatchObject({ fail: 0, error: 0 });

  // A process group of its own: npx does not pass a signal on to the server it started, so the whole group is stopped.
  const served = spawn('npx', ['--no-install', 'conformance', 'serve', '--json'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  const stopped = new Promise<void>((resolve) => served.once('close', () => resolve()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      const t = setTimeout(() => reject(new Error('serve --json printed no descriptor')), 120_000);
      served.stdout.on('data', (d: Buffer) => {
        out += d;
        if (out.includes('\n')) {
          clearTimeout(t);
          resolve(out.split('\n')[0]!);
        }
      });
    });
    const descriptor = JSON.parse(line) as { url: string };
    expect(descriptor.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    writeFileSync(join(dir, 'target.json'), line);
    npx([
      'run',
      '--target-file',
      join(dir, 'target.json'),
      '--clauses',
      'ROUTE-4,AUTH-3',
      '--report-dir',
      join(dir, 'against-serve'),
    ]);
    expect(readResults(join(dir, 'against-serve')).run.target).toBe(descriptor.url);
  } finally {
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-served.pid!, signal);
      } catch {
        /* gone */
      }
    };
    group('SIGINT');
    const kill = setTimeout(() => group('SIGKILL'), 10_000);
    await stopped;
    clearTimeout(kill);
    group('SIGKILL'); // anything of the group still there (the server, if npx went first)
  }

  npx(['load', '--emit', join(dir, 'k6')]);
  const emitted = readdirSync(join(dir, 'k6'));
  expect(emitted.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(5);
  expect(existsSync(join(dir, 'cache')), "the harness ran in place: nothing copied into the user's cache").toBe(false);
});

test('action.yml and the example workflow pass the validator; the README shows that workflow and every input with its default', () => {
  const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  const workflow = readFileSync(join(ROOT, 'examples', 'conformance.yml'), 'utf8');
  expect(validateAction(action).errors).toEqual([]);
  expect(validateWorkflow(workflow).errors).toEqual([]);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(readme, 'the README\'s "In your CI" is exactly examples/conformance.yml').toContain(
    `\`\`\`yaml\n${workflow}\`\`\``,
  );
  const inputs = [
    ...action.matchAll(/^ {2}([a-z-]+):\n {4}description: .*\n {4}required: false\n {4}default: (.*)$/gm),
  ].map((m) => [m[1]!, m[2]!.replace(/^'(.*)'$/, '$1')] as const);
  expect(inputs.length).toBeGreaterThanOrEqual(8);
  for (const [name, dflt] of inputs)
    expect(readme, `input ${name}`).toMatch(
      new RegExp(
        `\\| \`${name}\` \\| ${dflt === '' ? 'empty' : `\`${dflt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``} \\|`,
      ),
    );
  // The validator is not a rubber stamp: a composite `run` step without its `shell` is refused.
  expect(validateAction(action.replace('      shell: bash\n', '')).errors.length).toBeGreaterThan(0);
});

/**
 * `npm pack` (its `prepack` script): compiles the harness into dist/ — the package ships
 * JavaScript only, so an installed CLI compiles nothing when it starts and Playwright loads the
 * suites under node_modules as they are (it compiles no TypeScript there). Each module is
 * transpiled file by file into the same layout (dist/src, dist/suites), so relative imports
 * hold; the load threads and the k6 scenarios are bundled once here, as the checkout does on
 * demand. Types are the type check's business (`npm run typecheck`), not the build's.
 */
import { transform } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { bundleAll, PREBUILT_K6_DIR } from '../src/load/bundle.js';
import { bundleThread, THREAD_ENTRIES } from '../src/load/runtime/build.js';
import { CODE_ROOT, distTwin } from '../src/spec/layout.js';

const OUT = join(CODE_ROOT, 'dist');
/**
 * What runs: the CLI's modules and the suites; not the tests nor the server's test kits.
 * `--test-suites` (npm test's build, never the package's) adds the project tests' own suites,
 * so their runs start the compiled CLI too (test/helpers/cli.ts).
 */
const TREES = ['src', 'suites', ...(process.argv.includes('--test-suites') ? [join('test', 'suites')] : [])];
const skipped = (rel: string) => rel.endsWith('.test.ts') || rel.startsWith(join('src', 'server', 'test'));

function* modules(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* modules(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !skipped(relative(CODE_ROOT, p))) yield p;
  }
}

const write = (file: string, code: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, code);
};

rmSync(OUT, { recursive: true, force: true });
let count = 0;
for (const tree of TREES) {
  for (const file of modules(join(CODE_ROOT, tree))) {
    const out = await transform(readFileSync(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: relative(CODE_ROOT, file),
      logLevel: 'silent',
    });
    write(distTwin(file), out.code);
    count++;
  }
}
const runtime = join(OUT, 'src', 'load', 'runtime');
for (const thread of Object.keys(THREAD_ENTRIES) as (keyof typeof THREAD_ENTRIES)[])
  write(join(runtime, `${thread}.cjs`), await bundleThread(thread, ['http-parser-js']));
const k6Dir = join(OUT, relative(CODE_ROOT, PREBUILT_K6_DIR));
const scenarios = await bundleAll();
for (const b of scenarios) write(join(k6Dir, `${b.name}.js`), b.code);
process.stderr.write(
  `build: ${count} modules, ${Object.keys(THREAD_ENTRIES).length} thread bundles and ${scenarios.length} k6 scenarios into ${relative(process.cwd(), OUT) || '.'}\n`,
);

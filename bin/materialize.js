/**
 * Installed as a dependency, the harness lives under node_modules/, where Playwright will not
 * compile TypeScript (it leaves node_modules alone by design) — so the suites could not load.
 * This copies the package's TypeScript once into a cache folder outside node_modules, with a
 * node_modules/ of links to the very dependencies the package resolves, and the CLI runs from
 * that copy. A clone of the repository runs in place.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';

/** What the CLI needs at run time (the package's `files`, less bin/). */
const PARTS = ['src', 'suites', 'load', 'spec', 'tsconfig.json', 'package.json'];

const inNodeModules = (dir) => dir.split(sep).includes('node_modules');

/** The folder to run from: the package itself, or its materialised copy. */
export function runRoot(pkgDir) {
  if (!inNodeModules(pkgDir) || process.env.CONFHARNESS_NO_MATERIALIZE === '1') return pkgDir;
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const key = createHash('sha256').update(realpathSync(pkgDir)).update(pkg.version).update(readFileSync(join(pkgDir, 'package.json'))).digest('hex').slice(0, 12);
  const cache = process.env.CONFHARNESS_CACHE_DIR || (process.env.XDG_CACHE_HOME ? join(process.env.XDG_CACHE_HOME, 'base-data-conformance') : existsSync(homedir()) ? join(homedir(), '.cache', 'base-data-conformance') : join(tmpdir(), 'base-data-conformance'));
  const root = join(cache, `${pkg.version}-${key}`);
  if (existsSync(join(root, '.complete'))) return root;
  // Built beside its final place and renamed into it: two CLIs starting at once never see half a copy.
  const building = `${root}.${process.pid}.tmp`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(join(building, 'node_modules'), { recursive: true });
  for (const part of PARTS) if (existsSync(join(pkgDir, part))) cpSync(join(pkgDir, part), join(building, part), { recursive: true });
  const require = createRequire(join(pkgDir, 'package.json'));
  for (const dep of Object.keys({ ...pkg.dependencies })) {
    const at = join(building, 'node_modules', dep);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(dependencyDir(require, dep), at, 'dir');
  }
  writeFileSync(join(building, '.complete'), `${pkg.name} ${pkg.version} from ${realpathSync(pkgDir)}\n`);
  try {
    renameSync(building, root);
  } catch (e) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(join(root, '.complete'))) throw e;
  }
  return root;
}

/** The folder of `dep` as the package resolves it (hoisted or nested). */
function dependencyDir(require, dep) {
  const paths = require.resolve.paths(dep) ?? [];
  for (const p of paths) if (existsSync(join(p, dep, 'package.json'))) return realpathSync(join(p, dep));
  throw new Error(`conformance: dependency ${dep} is not installed beside the package`);
}

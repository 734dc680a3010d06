/**
 * Where the harness's files are. From a checkout the CLI runs its TypeScript sources in place;
 * from the package it runs the JavaScript that `npm pack` compiled into dist/ (Playwright loads
 * JavaScript under node_modules as it is, and compiles no TypeScript there). The code root is
 * the folder that holds src/, suites/ and load/: the checkout, or the package's dist/. The
 * package root holds package.json, spec/ and bin/ either way.
 */
import { basename, join, relative } from 'node:path';

/** True when this file is the compiled JavaScript of the package. */
export const COMPILED = import.meta.url.endsWith('.js');
/** The extension of the harness's own modules as they run: `.ts` from a checkout, `.js` compiled. */
export const CODE_EXT = COMPILED ? '.js' : '.ts';
/** The folder of src/, suites/ and load/ (the checkout, or dist/ in the package). */
export const CODE_ROOT = join(import.meta.dirname, '..', '..');
/** The folder of package.json, spec/ and bin/. */
export const PACKAGE_ROOT = COMPILED && basename(CODE_ROOT) === 'dist' ? join(CODE_ROOT, '..') : CODE_ROOT;
/** A module of the harness by its path without extension, relative to the code root: `codeFile('suites', 'rate.spec')`. */
export const codeFile = (...parts: string[]): string => join(CODE_ROOT, ...parts) + CODE_EXT;
/** The file name ending of a conformance suite as it runs (`.spec.ts` or `.spec.js`). */
export const SUITE_SUFFIX = `.spec${CODE_EXT}`;
/** The file that starts the CLI as this process runs: the checkout's bin (the sources through tsx), or the compiled start. */
export const CLI_ENTRY = COMPILED ? codeFile('src', 'cli', 'start') : join(PACKAGE_ROOT, 'bin', 'conformance.js');
/**
 * A checkout's file or folder as scripts/build.ts compiles it into dist/ (the same layout,
 * `.ts` → `.js`): the package's JavaScript, and what npm test's children start instead of tsx.
 */
export const distTwin = (path: string): string =>
  join(CODE_ROOT, 'dist', relative(CODE_ROOT, path)).replace(/\.ts$/, '.js');

#!/usr/bin/env node
// Entry point for `npx conformance` / the package bin. From a checkout (src/ holds the
// TypeScript) it runs the sources through tsx; the package has no src/, only the JavaScript
// that `npm pack` compiled into dist/, which it imports as it is. src/cli/start.ts runs the CLI.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/start.ts', import.meta.url);
let entry = new URL('../dist/src/cli/start.js', import.meta.url);
try {
  if (existsSync(source)) {
    const { register } = await import('tsx/esm/api');
    register();
    entry = source;
  }
  await import(entry.href);
} catch (e) {
  process.stderr.write(`conformance: ${e?.stack ?? String(e)}\n`);
  process.exitCode = 2;
}

#!/usr/bin/env node
// Entry point for `npx conformance` / the package bin: runs the TypeScript CLI through tsx,
// from the package itself or, when installed under node_modules, from its materialised copy.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { runRoot } from './materialize.js';

register();
const root = runRoot(join(dirname(fileURLToPath(import.meta.url)), '..'));
await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);

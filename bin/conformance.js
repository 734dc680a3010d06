#!/usr/bin/env node
// Entry point for `npx conformance` / the package bin: runs the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');

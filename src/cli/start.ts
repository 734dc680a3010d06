/**
 * The CLI as a process: runs `main` on this process's arguments and sets its exit code.
 * bin/conformance.js imports it (the TypeScript through tsx from a checkout, dist/ in the
 * package); compiled, `node dist/src/cli/start.js …` is the same CLI without tsx, which npm
 * test's helpers start (CONFHARNESS_COMPILED_CLI).
 */
import { main } from './main.js';

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`conformance: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exitCode = 2;
}

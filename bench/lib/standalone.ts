/**
 * A bench module run as a file of its own (`npx tsx bench/server.ts`) prints its figures;
 * imported by bench/main.ts it does nothing here (main.ts calls its `run()`).
 */
import { fileURLToPath } from 'node:url';

export function printWhenRunAlone(moduleUrl: string, run: () => Promise<Record<string, number | string>>): void {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return;
  run().then(
    (r) => {
      for (const [k, v] of Object.entries(r)) process.stdout.write(`${k}: ${v}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * `conformance diff` over the whole mutant catalog, once: for each mutant, the reference server
 * against the reference server with the mutant's faults. Prints, per mutant, the exchanges
 * that diverged (JSON lines on stdout) — the mutants with none change no answer the diff's
 * sequences see. Usage: npx tsx scripts/diff-catalog.ts [glob-ish substring] > out.jsonl
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diff, diffDone } from '../src/diff/diff.js';
import { MUTANTS } from '../src/mutants/catalog.js';

const only = process.argv[2];
for (const m of MUTANTS.filter((x) => !only || x.id.includes(only) || x.clause === only)) {
  const dir = mkdtempSync(join(tmpdir(), 'diff-catalog-'));
  const t0 = Date.now();
  try {
    const r = await diff({
      reportDir: dir,
      againstFaults: m.faults,
      apiVersion: m.serverOptions?.apiVersion,
      edition: m.serverOptions?.edition,
    });
    const diverged = r.results
      .filter((x) => x.verdict === 'diverged')
      .map((x) => ({
        ref: x.ref,
        kinds: x.divergences.map((d) => d.kind),
        detail: x.divergences[0]?.detail.slice(0, 160),
      }));
    process.stdout.write(
      `${JSON.stringify({ id: m.id, clause: m.clause, faults: m.faults, ms: Date.now() - t0, calls: r.target.calls + r.against.calls, diverged })}\n`,
    );
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ id: m.id, clause: m.clause, error: (e as Error).message })}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
await diffDone();

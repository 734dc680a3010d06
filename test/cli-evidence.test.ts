/**
 * Verdicts backed by evidence (issue 22), black box: `conformance run` against a reference
 * server with fault switches a correct server may have. Answering 501 to PROPFIND (RFC 9110
 * §15.6.2) passes ROBUST-5; coercing wrong-typed fields passes ROBUST-2 with assertion
 * warnings ("accepted a value of the wrong type") counted in every report, and fails it with
 * `--strict`, each failure citing the exchange of its own probe, never the check's last call.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, ROOT, serve, tempDir } from './helpers/cli.js';
import { readResults } from './helpers/reports.js';

test('501 for a method passes ROBUST-5; coerced wrong types pass ROBUST-2 with warnings, and fail it under --strict, each citing its probe', async () => {
  test.setTimeout(240_000);
  const s = await serve(['--fault', 'coerce-wrong-types', '--fault', 'unknown-method-501']);
  try {
    const dir = tempDir('evidence');
    const lenient = await cli([
      'run',
      '--target-file',
      s.file,
      '--clauses',
      'ROBUST-2,ROBUST-5',
      '--no-html',
      '--report-dir',
      join(dir, 'lenient'),
    ]);
    expect(lenient.code, lenient.output).toBe(0);
    const r = readResults(join(dir, 'lenient'));
    const robust5 = r.tests.find((t) => t.clause === 'ROBUST-5')!;
    expect(
      [robust5.outcome, robust5.assertionWarnings ?? []],
      'PROPFIND/TRACE/CONNECT answered 501 (RFC 9110 §15.6.2)',
    ).toEqual(['pass', []]);
    const robust2 = r.tests.find((t) => t.clause === 'ROBUST-2')!;
    expect(robust2.outcome).toBe('pass');
    const warned = robust2.assertionWarnings ?? [];
    expect(warned.filter((w) => /accepted a value of the wrong type \(200\)/.test(w.message)).length).toBeGreaterThan(
      0,
    );
    expect(warned.every((w) => w.evidence?.class === 'inferred')).toBe(true);
    // Counted in every report: results.json, the terminal, clauses.md, JUnit.
    expect(r.totals.assertionWarnings).toBe(warned.length);
    expect(r.clauses.find((c) => c.id === 'ROBUST-2')!.assertionWarnings).toBe(warned.length);
    expect(lenient.output).toContain(`${warned.length} assertion warnings`);
    expect(readFileSync(join(dir, 'lenient', 'clauses.md'), 'utf8')).toContain('## Assertion warnings');
    const xml = readFileSync(join(dir, 'lenient', 'junit.xml'), 'utf8');
    expect(xml).toContain(`<property name="assertion.warnings" value="${warned.length}"/>`);
    execFileSync(
      'xmllint',
      ['--noout', '--schema', join(ROOT, 'fixtures', 'junit', 'junit-10.xsd'), join(dir, 'lenient', 'junit.xml')],
      { stdio: 'pipe' },
    );

    const strict = await cli([
      'run',
      '--target-file',
      s.file,
      '--clauses',
      'ROBUST-2',
      '--strict',
      '--no-html',
      '--report-dir',
      join(dir, 'strict'),
    ]);
    expect(strict.code, strict.output).toBe(1);
    const f = readResults(join(dir, 'strict')).tests.find((t) => t.clause === 'ROBUST-2')!;
    expect(f.outcome).toBe('fail');
    const probes = f.violations!.filter((v) => /accepted a value of the wrong type/.test(v.message));
    expect(probes.length).toBeGreaterThan(0);
    for (const v of probes) {
      // The probe's own exchange: its method and path, its 200 — and its curl line.
      const [, method, path] = /^\S+: \S+ .*?\n\s+curl -sS -X (\w+) .* '(http[^']+)'$/s.exec(v.message) ?? [];
      expect(v.exchange, v.message).toMatch(
        new RegExp(`^#\\d+ ${method} ${path!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} → 200$`),
      );
      expect(v.curl).toContain(`-X ${method}`);
    }
    expect(new Set(probes.map((v) => v.exchange)).size, 'each violation cites its own exchange').toBe(probes.length);
  } finally {
    await s.stop();
  }
});

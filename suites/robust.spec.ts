/**
 * Malformed input (ROBUST-1…5): for every route the release offers (a route whose credential
 * the descriptor lacks is left out, the check's annotations say why), a seeded, bounded sample of malformed requests generated from the endpoint table
 * (src/harness/robust/) — broken bodies, wrong JSON types at documented fields, deep nesting
 * and an oversized body, Unicode edge cases, methods the API does not serve. Never a 5xx, a
 * reset or a hang; refused as each clause says; and where the clause says so, nothing written.
 * ROBUST-4's "stored and read back exactly" and ROBUST-6 (concurrent writers) have files of
 * their own.
 */
import { clause, test, ev } from '../src/harness/test.js';
import { malformedCheck } from '../src/harness/robust/check.js';
import type { RobustClause } from '../src/harness/robust/judge.js';

const CHECKS: Record<RobustClause, string> = {
  'ROBUST-1': 'broken JSON, a wrong content type, broken multipart and urlencoded garbage get a 4xx with an error body and write nothing',
  'ROBUST-2': 'a JSON value of the wrong type at a documented field gets a 4xx with an error body and writes nothing',
  'ROBUST-3': `a body nested too deep or past the size limit gets a 4xx and writes nothing`,
  'ROBUST-4': 'NUL, a lone surrogate, 10,000 characters and bytes that are not UTF-8 get a 4xx or are taken, never a 5xx',
  'ROBUST-5': 'CONNECT, TRACE and PROPFIND get a 405 or 400',
};

for (const [id, what] of Object.entries(CHECKS) as [RobustClause, string][]) {
  test(...clause(id, `${what}, on every route`, ev.spec('4.4')), async ({ target, state }) => {
    await malformedCheck(target, state, id);
  });
}

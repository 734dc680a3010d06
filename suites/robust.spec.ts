/**
 * Malformed input (ROBUST-1…5): for every route the release offers (a route whose credential
 * the descriptor lacks is left out, the check's annotations say why), a seeded, bounded sample of malformed requests generated from the endpoint table
 * (src/harness/robust/) — broken bodies, wrong JSON types at documented fields, deep nesting
 * and an oversized body, Unicode edge cases, methods the API does not serve. Never a 5xx, a
 * reset or a hang (a failure); refused as each clause says, or accepted as the target reads it
 * (a warning); a refused request writes nothing.
 * ROBUST-4's "stored and read back exactly" and ROBUST-6 (concurrent writers) have files of
 * their own.
 */
import { clause, test } from '../src/harness/test.js';
import { malformedCheck, ROBUST_OWED } from '../src/harness/robust/check.js';

// Each assertion names its own evidence (src/harness/robust/check.ts): a 5xx, a reset, a hang or a
// write of a refused request fails (owed by every server); any other answer RFC 9110 allows warns.
test(
  ...clause(
    'ROBUST-1',
    'broken JSON, a wrong content type, broken multipart and urlencoded garbage: never a 5xx, a reset or a hang, nothing written unless accepted; refused with a 4xx and an error body, else a warning, on every route',
    ROBUST_OWED,
  ),
  async ({ target, state }) => {
    await malformedCheck(target, state, 'ROBUST-1');
  },
);

test(
  ...clause(
    'ROBUST-2',
    'a JSON value of the wrong type at a documented field: never a 5xx, a reset or a hang, nothing written unless accepted; refused with a 4xx and an error body, or accepted as the target reads it (a warning), on every route',
    ROBUST_OWED,
  ),
  async ({ target, state }) => {
    await malformedCheck(target, state, 'ROBUST-2');
  },
);

test(
  ...clause(
    'ROBUST-3',
    'a body nested too deep or past the size limit: never a 5xx, a reset or a hang; refused with 400, 413 or 431, else a warning, on every route',
    ROBUST_OWED,
  ),
  async ({ target, state }) => {
    await malformedCheck(target, state, 'ROBUST-3');
  },
);

test(
  ...clause(
    'ROBUST-4',
    'NUL, a lone surrogate, 10,000 characters and bytes that are not UTF-8: refused with a 4xx or taken, never a 5xx, a reset or a hang, on every route',
    ROBUST_OWED,
  ),
  async ({ target, state }) => {
    await malformedCheck(target, state, 'ROBUST-4');
  },
);

test(
  ...clause(
    'ROBUST-5',
    'CONNECT, TRACE and PROPFIND: never another 5xx, a reset or a hang; 400, 405 with Allow, or 501 (RFC 9110), else a warning, on every route',
    ROBUST_OWED,
  ),
  async ({ target, state }) => {
    await malformedCheck(target, state, 'ROBUST-5');
  },
);

/** What a diff counts as the same and as a divergence: normalised structure, order-free lists, error forms, values, accept entries. */
import { expect, test } from '@playwright/test';
import { applyAccept } from './accept.js';
import { compareAll, compareExchange } from './compare.js';
import type { Exchange } from './exchange.js';
import { shapeDifferences, shapeOf } from './shape.js';

const x = (o: Partial<Exchange> = {}): Exchange => ({
  ref: 'answers/listRows',
  operation: 'listRows',
  request: { method: 'GET', path: '/rows/' },
  status: 200,
  contentType: 'application/json',
  shape: null,
  rateHeaders: [],
  ...o,
});

test("ids, uuids, column keys and the order and length of lists make no difference; a field's presence, type and nullability do", () => {
  const keys = new Map([['aB3x', 'Name']]);
  const one = shapeOf(
    {
      rows: [
        { _id: 'Qtf7xPmoRaiFyQPO1aENTQ', aB3x: 'a', n: 1 },
        { _id: 'Zz9xPmoRaiFyQPO1aENTQq', aB3x: null, n: 2 },
      ],
    },
    keys,
  );
  const other = shapeOf(
    {
      rows: [
        { _id: 'AAAAAAAAAAAAAAAAAAAAA1', k9Zq: 'b', n: 3 },
        { _id: 'BBBBBBBBBBBBBBBBBBBBB2', k9Zq: null, n: 4 },
        { _id: 'CCCCCCCCCCCCCCCCCCCCC3', k9Zq: 'c', n: 5 },
      ].reverse(),
    },
    new Map([['k9Zq', 'Name']]),
  );
  expect(shapeDifferences(one, other)).toEqual([]);
  // A map keyed by row ids compares its values, not its keys.
  expect(
    shapeDifferences(
      shapeOf({ Qtf7xPmoRaiFyQPO1aENTQ: [1] }),
      shapeOf({ Zz9xPmoRaiFyQPO1aENTQq: [2], Yz9xPmoRaiFyQPO1aENTQq: [] }),
    ),
  ).toEqual([]);
  expect(shapeDifferences(shapeOf({ rows: [{ a: 1, b: null }] }), shapeOf({ rows: [{ a: 1 }] }))).toEqual([
    '$.rows[].b: present against absent',
  ]);
  expect(
    shapeDifferences(
      shapeOf({
        rows: [
          { a: 1, b: null },
          { a: 2, b: 'x' },
        ],
      }),
      shapeOf({ rows: [{ a: 1 }, { a: 2, b: 'x' }] }),
    ),
  ).toEqual(['$.rows[].b: in every item against in some items only', '$.rows[].b: null|string against string']);
  expect(shapeDifferences(shapeOf({ n: 1 }), shapeOf({ n: '1' }))).toEqual(['$.n: number against string']);
  expect(shapeDifferences(shapeOf([]), shapeOf([{ a: 1 }])), 'an empty list says nothing of its items').toEqual([]);
});

test('each kind of difference is one divergence; a call not made after a setup answered otherwise diverges, one the descriptor rules out is not compared', () => {
  expect(compareExchange(x(), x()).verdict).toBe('same');
  expect(compareExchange(x(), x({ status: 404 })).divergences.map((d) => d.kind)).toEqual(['status']);
  const kinds = compareExchange(
    x({
      status: 400,
      errorForm: ['error_msg'],
      rateHeaders: ['x-ratelimit-limit'],
      values: { count: 3 },
      shape: shapeOf({ error_msg: 'x' }),
    }),
    x({
      status: 400,
      contentType: 'text/html',
      errorForm: ['detail'],
      rateHeaders: [],
      values: { count: 2 },
      shape: shapeOf({ detail: 'x' }),
    }),
  ).divergences.map((d) => d.kind);
  expect(kinds).toEqual(['content-type', 'error-form', 'structure', 'rate-headers', 'values']);
  expect(
    compareExchange(x(), x({ skipped: 'fixture: create table: status 500', setupFailed: true })).divergences[0]?.kind,
  ).toBe('outcome');
  expect(compareExchange(x(), x({ skipped: 'needs an admin account' })).verdict).toBe('not compared');
  expect(compareAll([x()], [x({ ref: 'answers/other' })]).map((r) => r.verdict)).toEqual([
    'not compared',
    'not compared',
  ]);
});

test('--accept marks the divergences it lists (by ref, and kind when given) and reports the entries that match none as stale', () => {
  const results = compareAll(
    [x(), x({ ref: 'values/get', operation: 'getRow' })],
    [x({ status: 500 }), x({ ref: 'values/get', operation: 'getRow' })],
  );
  const stale = applyAccept(results, [
    { ref: 'answers/listRows', kind: 'status', reason: 'known' },
    { ref: 'values/get', reason: 'fixed since' },
  ]);
  expect(results[0]!.divergences[0]!.accepted).toBe('known');
  expect(stale.map((e) => e.ref)).toEqual(['values/get']);
  expect(applyAccept(results, [{ ref: 'answers/listRows', kind: 'structure', reason: 'other kind' }])).toHaveLength(1);
});

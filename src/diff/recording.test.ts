/** An exchange of a recording is cited as `<recording name>#<ref>`: the citation finds it, or says why not. */
import { expect, test } from '@playwright/test';
import { citedExchange, type Recording } from './recording.js';

const rec: Recording = {
  format: 1,
  name: 'cloud-6.2',
  harness: { name: 'h', version: '0.2.0' },
  target: { label: 'cloud.json', release: '6.2', edition: 'cloud' },
  madeAt: '2026-01-01T00:00:00Z',
  calls: 1,
  exchanges: [
    { ref: 'answers/listRows', operation: 'listRows', request: { method: 'GET', path: '/rows/' }, status: 200 },
  ],
};

test("a citation names the recording and the exchange's ref", () => {
  expect(citedExchange('cloud-6.2#answers/listRows', rec)).toMatchObject({ status: 200 });
  expect(String(citedExchange('cloud-6.2#answers/getRow', rec))).toMatch(/has no exchange answers\/getRow/);
  expect(String(citedExchange('other#answers/listRows', rec))).toMatch(/names recording "other"/);
  expect(String(citedExchange('answers/listRows', rec))).toMatch(/<recording name>#<ref>/);
});

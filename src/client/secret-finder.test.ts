/** The secret finder answers exactly what a search for each secret would: never a miss, never a false yes. */
import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { SecretFinder } from './secret-finder.js';

const naive = (secrets: readonly string[], hay: string) =>
  secrets.some((s) => hay.includes(s) || hay.includes(JSON.stringify(s).slice(1, -1)));

test('finds each secret wherever it stands (start, middle, end, overlapping others), in text and as UTF-8 bytes', () => {
  const secrets = [
    'abcdef',
    'abcdefgh12',
    'cdefgh',
    'pa"ss\\word',
    'größer-als',
    'x'.repeat(5000),
    `cf_run_${'y'.repeat(40)}`,
  ];
  const f = new SecretFinder(secrets, 6);
  for (const s of secrets) {
    for (const hay of [s, `${s} tail`, `head ${s}`, `a${s}b`]) {
      expect(f.inText(hay), `${s.slice(0, 20)} in text`).toBe(true);
      expect(f.inBytes(Buffer.from(hay)), `${s.slice(0, 20)} in bytes`).toBe(true);
    }
  }
  // As written in a JSON string: the quote and the backslash escaped.
  expect(f.inText(JSON.stringify({ password: 'pa"ss\\word' }))).toBe(true);
  for (const miss of ['', 'abcde', 'bcdefg', 'cf_run_yyy', 'x'.repeat(4999), 'größer-al']) {
    expect(f.inText(miss), `"${miss.slice(0, 20)}" holds no secret`).toBe(false);
    expect(f.inBytes(Buffer.from(miss))).toBe(false);
  }
});

test('on random text with planted secrets it agrees with a plain search, call for call', () => {
  const secrets = Array.from({ length: 300 }, (_, i) => randomBytes(8 + (i % 40)).toString('hex'));
  const f = new SecretFinder(secrets, 6);
  for (let i = 0; i < 400; i++) {
    let hay = randomBytes(200 + i).toString('hex');
    if (i % 3 === 0) {
      const s = secrets[i % secrets.length]!;
      const at = i % hay.length;
      hay = hay.slice(0, at) + s + hay.slice(at);
    }
    expect(f.inText(hay)).toBe(naive(secrets, hay));
    expect(f.inBytes(Buffer.from(hay))).toBe(naive(secrets, hay));
  }
});

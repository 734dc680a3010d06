/**
 * The rewrite and the emit of the transform (magic-string): `async ` before each function the
 * analysis found blocking, and each blocking call wrapped so that it is awaited:
 * `http.get(u)` becomes `__k6b(await __k6s(http.get(u)))`. `__k6s` turns a rejection into a
 * value and `__k6b` makes the calling VU current again before the value is used or the error
 * rethrown, since other VUs ran in between (runtime/worker.ts defines both). Only insertions,
 * none across a line break: the script's line numbers stay those of the bundle.
 */
import MagicString from 'magic-string';
import type { Analysis } from './analyse.js';

type Found = Extract<Analysis, { ok: true }>;

export function rewrite(a: Found): MagicString {
  const edits: { pos: number; text: string; order: number }[] = [];
  for (const f of a.asyncFns) edits.push({ pos: f.start, text: 'async ', order: 0 });
  for (const c of a.sites) {
    // At one position, the wider call opens first and closes last (and both open before `async `).
    edits.push({ pos: c.start, text: '__k6b(await __k6s(', order: -(c.end - c.start) });
    edits.push({ pos: c.end, text: '))', order: c.end - c.start });
  }
  edits.sort((x, y) => x.pos - y.pos || x.order - y.order);
  const s = new MagicString(a.code);
  // Inserted in order: what is appended at one position comes out in the order appended.
  for (const e of edits) s.appendLeft(e.pos, e.text);
  return s;
}

/** The awaitable script, and its source map back to the bundle (made only when asked for). */
export function emit(s: MagicString): { code: string; map: () => string } {
  return { code: s.toString(), map: () => s.generateMap({ hires: true, source: 'script.js' }).toString() };
}

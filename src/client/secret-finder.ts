/**
 * Does a text (or a buffer) hold any of a few hundred secrets? Asked of every string of every
 * report — tens of megabytes per run — where almost every answer is no. A regular expression
 * of the alternatives (even factored as a trie) costs ~85 ns per character; a rolling hash of
 * the first `window` characters with a bit table in front costs a few, and a candidate is
 * confirmed by a plain comparison, so an answer is never a guess.
 */
const BASE = 0x01000193;
const TABLE_BITS = 16;
const MASK = (1 << TABLE_BITS) - 1;

interface Units {
  length: number;
  at(i: number): number;
}
const textUnits = (s: string): Units => ({ length: s.length, at: (i) => s.charCodeAt(i) });
const byteUnits = (b: Uint8Array): Units => ({ length: b.length, at: (i) => b[i]! });

class RollingFinder<T extends string | Buffer> {
  private readonly table = new Uint8Array(1 << TABLE_BITS);
  private readonly heads = new Map<number, T[]>();
  private readonly out: number;

  /** `words` are at least `window` units long. */
  constructor(
    words: readonly T[],
    private readonly window: number,
    private readonly units: (w: T) => Units,
    private readonly startsAt: (hay: T, w: T, i: number) => boolean,
  ) {
    let out = 1;
    for (let i = 1; i < window; i++) out = Math.imul(out, BASE);
    this.out = out;
    for (const w of words) {
      const h = this.hash(units(w));
      this.table[h & MASK] = 1;
      this.heads.set(h, [...(this.heads.get(h) ?? []), w]);
    }
  }

  private hash(u: Units): number {
    let h = 0;
    for (let i = 0; i < this.window; i++) h = (Math.imul(h, BASE) + u.at(i)) | 0;
    return h;
  }

  has(hay: T): boolean {
    const u = this.units(hay);
    const k = this.window;
    if (u.length < k) return false;
    let h = this.hash(u);
    for (let i = 0; ; i++) {
      if (this.table[h & MASK] && this.heads.get(h)?.some((w) => this.startsAt(hay, w, i))) return true;
      if (i + k >= u.length) return false;
      h = (Math.imul((h - Math.imul(u.at(i), this.out)) | 0, BASE) + u.at(i + k)) | 0;
    }
  }
}

/** Finds any of `secrets` (each at least `window` characters) in text (as is or JSON-escaped), or as UTF-8 in bytes. */
export class SecretFinder {
  private readonly text: RollingFinder<string>;
  private readonly bytes: RollingFinder<Buffer>;

  constructor(secrets: readonly string[], window: number) {
    // In text, also as written inside a JSON string (a quote or a backslash escaped): a report line is JSON.
    const inJson = secrets.map((s) => JSON.stringify(s).slice(1, -1));
    this.text = new RollingFinder([...new Set([...secrets, ...inJson])], window, textUnits, (hay, w, i) =>
      hay.startsWith(w, i),
    );
    // Every secret's UTF-8 form is at least as long in bytes as it is in characters.
    this.bytes = new RollingFinder<Buffer>(
      secrets.map((s) => Buffer.from(s)),
      window,
      byteUnits,
      (hay, w, i) => i + w.length <= hay.length && hay.compare(w, 0, w.length, i, i + w.length) === 0,
    );
  }

  inText(s: string): boolean {
    return this.text.has(s);
  }
  inBytes(b: Buffer): boolean {
    return this.bytes.has(b);
  }
}

/**
 * How deeply JSON nests (`{}` and `[]` are 1, `{"a": [1]}` is 2), measured without recursion:
 * JSON.parse, JSON.stringify and every recursive walker overflow the stack a few thousand
 * levels down, so a limit has to be checked by something that cannot.
 */

/**
 * Depth of a JSON text, by a scan that skips strings; it stops as soon as the depth passes
 * `stopAbove`. The text need not be valid JSON (the parser that follows says what is wrong).
 */
export function jsonTextDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return max; // an unterminated string: the parser will say so
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > stopAbove) return max;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return max;
}

/** Index of the quote closing the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  // indexOf is native: bodies are mostly string content, and a character-by-character walk through it costs more than JSON.parse.
  for (let from = open + 1; ;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

/** Depth of a parsed value (arrays and plain objects nest; anything else is 0), iteratively. */
export function jsonValueDepth(value: unknown, stopAbove = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) {
      max = d;
      if (max > stopAbove) return max;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

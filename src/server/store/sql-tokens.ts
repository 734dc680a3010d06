/**
 * A tokenizer for the service's SQL dialect (MySQL-like: `backticks` quote identifiers,
 * '…' and "…" are strings). The translator only renames identifiers, so tokens keep
 * their source text and everything else passes through to SQLite unchanged.
 */
export type TokenKind = 'word' | 'ident' | 'string' | 'number' | 'param' | 'op' | 'space';
export interface Token {
  kind: TokenKind;
  text: string;
  value?: string;
}

const WORD = /[\p{L}_][\p{L}\p{N}_]*/uy;
const NUMBER = /\d+(\.\d+)?([eE][+-]?\d+)?/y;
const SPACE = /\s+/y;
const OPS = ['<=', '>=', '!=', '<>', '||', '==', '<', '>', '=', '+', '-', '*', '/', '%', '(', ')', ',', '.', ';'];

export class SqlSyntaxError extends Error {}

function quoted(src: string, i: number, q: string): { value: string; end: number } {
  let value = '';
  let j = i + 1;
  for (;;) {
    if (j >= src.length) throw new SqlSyntaxError(`unterminated ${q === '`' ? 'identifier' : 'string'} at ${i}`);
    if (src[j] === q) {
      if (src[j + 1] === q) {
        value += q;
        j += 2;
        continue;
      }
      return { value, end: j + 1 };
    }
    if (src[j] === '\\' && q !== '`' && j + 1 < src.length) {
      value += src[j + 1];
      j += 2;
      continue;
    }
    value += src[j];
    j++;
  }
}

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const at = (re: RegExp) => {
    re.lastIndex = i;
    return re.exec(src);
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (src.startsWith('--', i) || ch === '#') {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const e = src.indexOf('*/', i + 2);
      if (e < 0) throw new SqlSyntaxError('unterminated comment');
      i = e + 2;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = at(SPACE))) {
      out.push({ kind: 'space', text: ' ' });
      i += m[0].length;
      continue;
    }
    if (ch === "'" || ch === '"') {
      const q = quoted(src, i, ch);
      out.push({ kind: 'string', text: src.slice(i, q.end), value: q.value });
      i = q.end;
      continue;
    }
    if (ch === '`') {
      const q = quoted(src, i, '`');
      out.push({ kind: 'ident', text: src.slice(i, q.end), value: q.value });
      i = q.end;
      continue;
    }
    if (ch === '?') {
      out.push({ kind: 'param', text: '?' });
      i++;
      continue;
    }
    if ((m = at(NUMBER))) {
      out.push({ kind: 'number', text: m[0] });
      i += m[0].length;
      continue;
    }
    if ((m = at(WORD))) {
      out.push({ kind: 'word', text: m[0], value: m[0] });
      i += m[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new SqlSyntaxError(`unexpected character ${JSON.stringify(ch)} at ${i}`);
    out.push({ kind: 'op', text: op });
    i += op.length;
  }
  return out;
}

/** SQLite string literal. */
export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * A small subset of the real service's formula language, enough for a read-only formula
 * column: `{Column}` references, numbers, "strings", + - * / & (concatenate), parentheses,
 * and the functions below. Anything else evaluates to the real service's `#VALUE!`.
 */
type Value = number | string | boolean | null;
type Fn = (args: Value[]) => Value;

const FUNCTIONS: Record<string, Fn> = {
  concatenate: (a) => a.map((x) => (x === null ? '' : String(x))).join(''),
  round: ([x, d]) => (typeof x === 'number' ? Number(x.toFixed(typeof d === 'number' ? d : 0)) : null),
  abs: ([x]) => (typeof x === 'number' ? Math.abs(x) : null),
  upper: ([x]) => (x === null ? null : String(x).toUpperCase()),
  lower: ([x]) => (x === null ? null : String(x).toLowerCase()),
  len: ([x]) => (x === null ? 0 : String(x).length),
  if: ([c, a, b]) => (c ? (a ?? null) : (b ?? null)),
};

const FORMULA_ERROR = '#VALUE!';

class Parser {
  private i = 0;
  constructor(
    private readonly src: string,
    private readonly lookup: (name: string) => Value,
  ) {}

  parse(): Value {
    const v = this.concat();
    this.ws();
    if (this.i < this.src.length) throw new Error(`unexpected ${this.src[this.i]}`);
    return v;
  }
  private ws() {
    while (/\s/.test(this.src[this.i] ?? '')) this.i++;
  }
  private eat(ch: string): boolean {
    this.ws();
    if (this.src[this.i] === ch) {
      this.i++;
      return true;
    }
    return false;
  }
  private concat(): Value {
    let v = this.sum();
    while (this.eat('&')) v = `${v ?? ''}${this.sum() ?? ''}`;
    return v;
  }
  private sum(): Value {
    let v = this.product();
    for (;;) {
      if (this.eat('+')) v = num(v) + num(this.product());
      else if (this.eat('-')) v = num(v) - num(this.product());
      else return v;
    }
  }
  private product(): Value {
    let v = this.unary();
    for (;;) {
      if (this.eat('*')) v = num(v) * num(this.unary());
      else if (this.eat('/')) {
        const d = num(this.unary());
        if (d === 0) throw new Error('division by zero');
        v = num(v) / d;
      } else return v;
    }
  }
  private unary(): Value {
    if (this.eat('-')) return -num(this.unary());
    return this.atom();
  }
  private atom(): Value {
    this.ws();
    const ch = this.src[this.i];
    if (ch === '(') {
      this.i++;
      const v = this.concat();
      if (!this.eat(')')) throw new Error('missing )');
      return v;
    }
    if (ch === '{') {
      const end = this.src.indexOf('}', this.i);
      if (end < 0) throw new Error('missing }');
      const name = this.src.slice(this.i + 1, end);
      this.i = end + 1;
      return this.lookup(name);
    }
    if (ch === '"' || ch === "'") {
      const end = this.src.indexOf(ch, this.i + 1);
      if (end < 0) throw new Error('unterminated string');
      const s = this.src.slice(this.i + 1, end);
      this.i = end + 1;
      return s;
    }
    const numMatch = /^\d+(\.\d+)?/.exec(this.src.slice(this.i));
    if (numMatch) {
      this.i += numMatch[0].length;
      return Number(numMatch[0]);
    }
    const word = /^[A-Za-z_]\w*/.exec(this.src.slice(this.i));
    if (word) {
      this.i += word[0].length;
      const fn = FUNCTIONS[word[0].toLowerCase()];
      if (!fn || !this.eat('(')) throw new Error(`unknown function ${word[0]}`);
      const args: Value[] = [];
      if (!this.eat(')')) {
        do args.push(this.concat());
        while (this.eat(','));
        if (!this.eat(')')) throw new Error('missing )');
      }
      return fn(args);
    }
    throw new Error(`unexpected ${ch ?? 'end'}`);
  }
}

function num(v: Value): number {
  if (typeof v === 'number') return v;
  if (v === null || v === '') return 0;
  const n = Number(v);
  if (Number.isNaN(n)) throw new Error('not a number');
  return n;
}

/** Check a formula's syntax against the known columns; returns an error message or undefined. */
export function checkFormula(src: string, columnNames: readonly string[]): string | undefined {
  try {
    new Parser(src, (name) => {
      if (!columnNames.includes(name)) throw new Error(`unknown column {${name}}`);
      return 1;
    }).parse();
    return undefined;
  } catch (e) {
    return (e as Error).message === 'division by zero' ? undefined : (e as Error).message;
  }
}

export function evaluateFormula(src: string, lookup: (name: string) => unknown): Value {
  try {
    const v = new Parser(src, (name) => {
      const x = lookup(name);
      return x === undefined || typeof x === 'object' ? (Array.isArray(x) ? x.join(', ') : null) : (x as Value);
    }).parse();
    return typeof v === 'number' && !Number.isFinite(v) ? FORMULA_ERROR : v;
  } catch {
    return FORMULA_ERROR;
  }
}

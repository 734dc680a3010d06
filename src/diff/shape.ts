/**
 * The structure of a JSON answer, order-free: a list's items are merged into one shape (a field
 * some items lack is optional, a field null in some is a union with null), so the order of a
 * list the API does not sort, and how many items it has, never make a difference.
 */
import type { Shape } from './exchange.js';

/** Keys that name things rather than fields: row ids, uuids, numbers. Column keys are learnt from the answers (keys.ts). */
export type ColumnKeys = ReadonlyMap<string, string>;
const ID_KEY = /^(?:(?=.*[A-Z0-9])[A-Za-z0-9_-]{22}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/;

/** Does `k` name a thing (an id)? */
export const namesThing = (k: string) => ID_KEY.test(k);
/** A key as the structure names it: a column key by its column, `[Name]`; anything else as it is. */
export const keyName = (k: string, known: ColumnKeys) => {
  const name = known.get(k);
  return name === undefined ? k : `[${name}]`;
};

/** The field that stands for every key of an object that names a thing. */
const ID_FIELD = '<key>';

export function shapeOf(v: unknown, known: ColumnKeys = new Map()): Shape {
  const isKey = (k: string) => !known.has(k) && namesThing(k);
  if (v === null || v === undefined) return { kind: 'null' };
  if (Array.isArray(v))
    return { kind: 'array', items: v.reduce<Shape | null>((s, x) => merge(s, shapeOf(x, known)), null) };
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length && entries.every(([k]) => isKey(k)))
      return { kind: 'map', values: entries.reduce<Shape | null>((s, [, x]) => merge(s, shapeOf(x, known)), null) };
    // Fields beside keys that name things: those are one field, `<key>`; a column key is its column's field.
    const fields: Record<string, { shape: Shape; optional: boolean }> = {};
    for (const [k, x] of entries) {
      const name = isKey(k) ? ID_FIELD : keyName(k, known);
      fields[name] = { shape: merge(fields[name]?.shape ?? null, shapeOf(x, known))!, optional: false };
    }
    return { kind: 'object', fields };
  }
  const t = typeof v;
  return { kind: t === 'number' || t === 'bigint' ? 'number' : t === 'boolean' ? 'boolean' : 'string' };
}

const variants = (s: Shape): Shape[] => (s.kind === 'union' ? s.of : [s]);
/** An empty map and an empty object are one thing ({}); a map merges with an object of id keys. */
const family = (s: Shape) => (s.kind === 'map' ? 'object' : s.kind);

function mergeSame(a: Shape, b: Shape): Shape {
  if (a.kind === 'array' && b.kind === 'array') return { kind: 'array', items: merge(a.items, b.items) };
  if (a.kind === 'map' && b.kind === 'map') return { kind: 'map', values: merge(a.values, b.values) };
  if (a.kind === 'map' || b.kind === 'map') {
    const m = (a.kind === 'map' ? a : b) as Extract<Shape, { kind: 'map' }>;
    const o = (a.kind === 'map' ? b : a) as Extract<Shape, { kind: 'object' }>;
    return Object.keys(o.fields).length ? o : m;
  }
  if (a.kind === 'object' && b.kind === 'object') {
    const fields: Record<string, { shape: Shape; optional: boolean }> = {};
    for (const k of new Set([...Object.keys(a.fields), ...Object.keys(b.fields)])) {
      const [x, y] = [a.fields[k], b.fields[k]];
      fields[k] =
        x && y
          ? { shape: merge(x.shape, y.shape)!, optional: x.optional || y.optional }
          : { shape: (x ?? y)!.shape, optional: true };
    }
    return { kind: 'object', fields };
  }
  return a;
}

/** The shape of values of either shape. */
function merge(a: Shape | null, b: Shape | null): Shape | null {
  if (!a) return b;
  if (!b) return a;
  const out: Shape[] = [];
  for (const v of [...variants(a), ...variants(b)]) {
    const i = out.findIndex((o) => family(o) === family(v));
    if (i < 0) out.push(v);
    else out[i] = mergeSame(out[i]!, v);
  }
  out.sort((x, y) => family(x).localeCompare(family(y)));
  return out.length === 1 ? out[0]! : { kind: 'union', of: out };
}

/** A shape in one line: `{a: number, b?: string|null}`. */
function showShape(s: Shape | null, depth = 0): string {
  if (!s) return 'nothing';
  if (depth > 3) return '…';
  switch (s.kind) {
    case 'array':
      return `[${showShape(s.items, depth + 1)}]`;
    case 'map':
      return `{<id>: ${showShape(s.values, depth + 1)}}`;
    case 'union':
      return s.of.map((x) => showShape(x, depth)).join('|');
    case 'object':
      return `{${Object.entries(s.fields)
        .map(([k, f]) => `${k}${f.optional ? '?' : ''}: ${showShape(f.shape, depth + 1)}`)
        .join(', ')}}`;
    default:
      return s.kind;
  }
}

/** Where two shapes differ, one line each, by JSON path (`$.rows[].Name`). Empty: the same structure. */
export function shapeDifferences(a: Shape | null, b: Shape | null, path = '$'): string[] {
  if (!a || !b) return a === b ? [] : [`${path}: ${showShape(a)} against ${showShape(b)}`];
  const [va, vb] = [variants(a), variants(b)];
  const fa = va.map(family).join('|');
  const fb = vb.map(family).join('|');
  if (fa !== fb) return [`${path}: ${fa} against ${fb}`];
  const out: string[] = [];
  for (let i = 0; i < va.length; i++) {
    const [x, y] = [va[i]!, vb[i]!];
    if (x.kind === 'array' && y.kind === 'array') {
      // An empty list on one side says nothing of its items.
      if (x.items && y.items) out.push(...shapeDifferences(x.items, y.items, `${path}[]`));
    } else if (x.kind === 'object' && y.kind === 'object') {
      for (const k of new Set([...Object.keys(x.fields), ...Object.keys(y.fields)])) {
        const [p, q] = [x.fields[k], y.fields[k]];
        const at = `${path}.${k}`;
        if (!p || !q) out.push(`${at}: ${p ? 'present' : 'absent'} against ${q ? 'present' : 'absent'}`);
        else {
          if (p.optional !== q.optional)
            out.push(
              `${at}: ${p.optional ? 'in some items only' : 'in every item'} against ${q.optional ? 'in some items only' : 'in every item'}`,
            );
          out.push(...shapeDifferences(p.shape, q.shape, at));
        }
      }
    } else if (x.kind === 'map' && y.kind === 'map') {
      if (x.values && y.values) out.push(...shapeDifferences(x.values, y.values, `${path}{}`));
    } else if (x.kind !== y.kind) {
      // An object of fields against a map of ids; an empty object is both.
      const o = (x.kind === 'object' ? x : y) as Extract<Shape, { kind: 'object' }>;
      if (Object.keys(o.fields).length) out.push(`${path}: ${showShape(x)} against ${showShape(y)}`);
    }
  }
  return out;
}

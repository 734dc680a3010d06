/**
 * Text a client names things with (tables, columns, views, teams, users, tokens): what makes it
 * unusable, worded for the 400 that refuses it. Cell values are data and are not held to this.
 */
import { INPUT_LIMITS } from '../spec/index.js';

/** A lone surrogate (U+D800–U+DFFF not in a pair): SQLite would store it as U+FFFD, so the name would change. */
const LONE_SURROGATE = /\p{Cs}/u;
const NUL = /\u0000/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `v` cannot be stored as given (NUL, a lone surrogate), or undefined. */
export function textProblem(v: string): string | undefined {
  if (NUL.test(v)) return 'holds a NUL character';
  if (LONE_SURROGATE.test(v)) return 'is not well-formed Unicode (a lone surrogate)';
  return undefined;
}

/**
 * Does a written cell value hold a lone surrogate (a string, or strings in a list)? SQLite
 * would store U+FFFD in its place, so the value read back would not be the one written
 * (ROBUST-4): such a value is refused. NUL and control characters are data and kept.
 */
export function illFormedValue(v: unknown): boolean {
  if (typeof v === 'string') return LONE_SURROGATE.test(v);
  return Array.isArray(v) && v.some((x) => typeof x === 'string' && LONE_SURROGATE.test(x));
}

/** Why `v` is no usable name: empty, too long, control characters, ill-formed Unicode; or undefined. */
export function nameProblem(v: unknown, max: number = INPUT_LIMITS.nameLength): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return 'must be a non-empty string';
  if (v.length > max) return `is too long (at most ${max} characters)`;
  if (CONTROL.test(v)) return 'holds a control character';
  return textProblem(v);
}

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

/** Why `v` is no usable name: empty, too long, control characters, ill-formed Unicode; or undefined. */
export function nameProblem(v: unknown, max: number = INPUT_LIMITS.nameLength): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return 'must be a non-empty string';
  if (v.length > max) return `is too long (at most ${max} characters)`;
  if (CONTROL.test(v)) return 'holds a control character';
  return textProblem(v);
}

/**
 * Outcomes beyond Playwright's pass/fail/skip: `error` = the harness could not decide
 * (timeout, reset, unreadable body). A check throws `Undecided`; the results reporter
 * recognises the marker and keeps error apart from fail.
 */
import type { TransportError } from '../client/errors.js';
import { redactText } from '../client/redact.js';

export const UNDECIDED_MARK = 'HARNESS-ERROR';

export class Undecided extends Error {
  constructor(readonly kind: string, message: string) {
    super(`${UNDECIDED_MARK}[${kind}] ${redactText(message)}`);
    this.name = 'Undecided';
  }
}

export const undecided = (e: TransportError, what: string) => new Undecided(e.kind, `${what}: ${e.message}`);

/** Parse the outcome marker out of an error message. */
export function undecidedKind(message: string | undefined): string | undefined {
  const m = message ? new RegExp(`${UNDECIDED_MARK}\\[([\\w-]+)\\]`).exec(message) : null;
  return m?.[1];
}

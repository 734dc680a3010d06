/**
 * Outcomes as data. A check ends `fail` only through a violation — an assertion about the
 * target that did not hold (src/harness/verdict.ts) — and `error` for anything else that
 * went wrong: a transport failure, a fixture that could not be made, a timeout, a bug in
 * the check. The worker attaches its `CheckOutcome` to the test as `outcome.json`; the
 * reporters read that attachment and never parse an outcome out of message text.
 */
import { z } from 'zod';
import type { TransportError } from '../client/errors.js';
import { redactText } from '../client/redact.js';
import { EVIDENCE_CLASSES } from '../spec/index.js';

export const OUTCOME_ATTACHMENT = 'outcome.json';

export const OUTCOMES = ['pass', 'fail', 'skip', 'error'] as const;

/** What an assertion stands on (src/spec/evidence.ts). */
export const EvidenceRecord = z.object({
  class: z.enum(EVIDENCE_CLASSES),
  cite: z.string(),
  owed: z.boolean().optional(),
});

/** An assertion about the target that did not hold, with its evidence and the exchange that shows it. */
export const Violation = z.object({
  clause: z.string().nullable(),
  message: z.string(),
  expected: z.string().optional(),
  seen: z.string().optional(),
  /**
   * The exchange that shows it: `#n METHOD url → status` (n: its place in the check's transcript,
   * anchor `x<n>` in the HTML report) — the reply the assertion named, else the check's last call.
   */
  exchange: z.string().optional(),
  /** That exchange as a curl line (credentials as placeholders). */
  curl: z.string().optional(),
  evidence: EvidenceRecord.optional(),
});
export type Violation = z.output<typeof Violation>;

/**
 * A violated assertion whose evidence is only `inferred` (our reasoning): a warning, never a
 * failure, unless the run is `--strict` (then it is a violation). Distinct from the state
 * warnings below.
 */
export const AssertionWarning = Violation;
export type AssertionWarning = Violation;

/**
 * Why the harness could not decide: a transport kind (`timeout-headers`, `reset`, `bad-json`…),
 * `fixture` (something the check needs could not be made), `timeout` (the check ran out of
 * time), `harness-bug` (a TypeError or the like in the check), `harness` (any other throw),
 * `no-outcome` (the check ended without settling, e.g. its worker died), `vacuous-pass`.
 */
export const CheckError = z.object({ cause: z.string(), message: z.string() });
export type CheckError = z.output<typeof CheckError>;

/** Something the check could not put back (a team logo, an option, an app's status). */
export const StateWarning = z.object({ check: z.string(), what: z.string(), accountChanged: z.boolean() });
export type StateWarning = z.output<typeof StateWarning>;

export const CheckOutcome = z.object({
  outcome: z.enum(OUTCOMES),
  violations: z.array(Violation),
  errors: z.array(CheckError),
  warnings: z.array(StateWarning).default([]),
  assertionWarnings: z.array(AssertionWarning).default([]),
});
export type CheckOutcome = z.output<typeof CheckOutcome>;

/** Serialised error texts (`Name: message`, as the worker reports them) of every Undecided this worker made, with its kind. */
const undecidedKinds = new Map<string, string>();
const KEEP = 2_000;

/** The harness could not decide (timeout, reset, unreadable body, missing fixture): the check ends as `error`, never `fail`. */
export class Undecided extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(redactText(message));
    this.name = 'Undecided';
    if (undecidedKinds.size >= KEEP) undecidedKinds.delete(undecidedKinds.keys().next().value!);
    undecidedKinds.set(`${this.name}: ${this.message}`, kind);
  }
}

/** The kind of an Undecided made in this worker, given its serialised text. */
export function undecidedKindOf(serialised: string): string | undefined {
  return undecidedKinds.get(serialised);
}

export const undecided = (e: TransportError, what: string) => new Undecided(e.kind, `${what}: ${e.message}`);

/** Something a check needs could not be made (a table, a row, a base token): an error, never a failure of the clause. */
export const fixtureMissing = (what: string) => new Undecided('fixture', what);

/** A setup call must succeed (any 2xx), else the check cannot go on: undecided, not failed. */
export function setupOk(r: { readonly status: number; readonly text: string }, what: string): void {
  if (r.status < 200 || r.status > 299) throw fixtureMissing(`${what}: status ${r.status}: ${r.text.slice(0, 200)}`);
}

/** Exit codes, set in one place: 0 nothing failed, 1 a check failed, 2 usage or harness error, 99 a load threshold breached (k6's code). */
export const EXIT = { ok: 0, failed: 1, usage: 2, harness: 2, thresholds: 99 } as const;

/** A usage or harness error with the message to print once. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

let outcome: number = EXIT.ok;
/** A command's handler states its outcome here; `main` turns it into the process exit code. */
export function setOutcome(code: number): void {
  outcome = code;
}
export function takeOutcome(): number {
  const c = outcome;
  outcome = EXIT.ok;
  return c;
}

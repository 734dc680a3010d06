/**
 * The official client as a check uses it: `new Base({ server, APIToken })` and `auth()`, as
 * the client's readme shows, against the run's target, every call recorded. A method under
 * test that is refused, or whose answer the client cannot use, is a violation of CLIENT-1;
 * the same failure while making a check's fixture ends the check as error; a call with no
 * answer at all (reset, timeout) is undecided, never a violation.
 */
import { registerSecret } from '../../client/redact.js';
import { fixtureMissing } from '../outcome.js';
import type { Target } from '../target.js';
import { expect } from '../verdict.js';
import { failureOf } from './failures.js';
import { recordCalls } from './recording.js';
import { clientAxios, newBase, type OfficialBase } from './sdk.js';

/** Fail the running check with `message` (an assertion about the target that did not hold). */
export function violation(message: string): never {
  expect(false, message).toBe(true);
  throw new Error(message); // not reached: the hard expect threw
}

export class OfficialClient {
  private constructor(readonly base: OfficialBase) {}

  /**
   * A client authenticated on base `i` of the descriptor. Its base-token call goes through
   * axios' default instance: recorded only while `auth()` runs. Rejects as `auth()` does.
   */
  static async open(target: Target, i = 0): Promise<OfficialClient> {
    const limits = target.state.http;
    const b = newBase(target.url, target.base(i).api_token);
    const stop = recordCalls(clientAxios(), target, limits);
    try {
      await b.auth();
    } finally {
      stop();
    }
    registerSecret(b.accessToken);
    for (const instance of new Set([b.apiGateway?.req, b.req])) if (instance) recordCalls(instance, target, limits);
    return new OfficialClient(b);
  }

  /** Call a method under test; `what` names it in the violation ("appendRow(…)"). */
  async call<T>(what: string, fn: (b: OfficialBase) => Promise<T>): Promise<T> {
    try {
      return await fn(this.base);
    } catch (e) {
      const f = failureOf(e, what);
      if (f.kind === 'transport') throw f.undecided;
      return violation(f.message);
    }
  }

  /** Make something a check needs through the client; a failure ends the check as error (its own check judges that method). */
  async setup<T>(what: string, fn: (b: OfficialBase) => Promise<T>): Promise<T> {
    try {
      return await fn(this.base);
    } catch (e) {
      const f = failureOf(e, `${what} (a fixture made through the official client)`);
      throw f.kind === 'transport' ? f.undecided : fixtureMissing(f.message);
    }
  }
}

/**
 * One authenticated client per worker, opened inside the first check that asks for it, so
 * its calls are recorded and tagged as that check's. A failed `auth()` is that check's
 * missing fixture; the auth check itself opens a client of its own.
 */
export class SharedClient {
  private opening?: Promise<OfficialClient>;

  constructor(private readonly target: Target) {}

  get(): Promise<OfficialClient> {
    this.opening ??= OfficialClient.open(this.target).catch((e: unknown) => {
      this.opening = undefined;
      const f = failureOf(e, 'auth() of the official client');
      throw f.kind === 'transport' ? f.undecided : fixtureMissing(f.message);
    });
    return this.opening;
  }
}

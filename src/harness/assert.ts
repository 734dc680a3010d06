/**
 * Assertions that say what the target did wrong in one readable line, with secrets redacted,
 * each citing the reply it is about. `by`: the assertion's own evidence (default: the check's).
 */
import { expect } from './verdict.js';
import type { z } from 'zod';
import { redactText } from '../client/redact.js';
import type { Evidence } from '../spec/index.js';
import type { Reply } from './target.js';

const about = (reply: Reply, by: Evidence | undefined) => (by ? expect.because(by) : expect).about(reply);

export function shapeIssues(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  return r.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.message}`)
    .join('; ');
}

/** Parse the reply's JSON with `schema`; a mismatch fails the check with the issues. */
export function expectShape<T extends z.ZodType>(reply: Reply, schema: T, what: string, by?: Evidence): z.output<T> {
  const body = reply.json();
  const issues = shapeIssues(schema, body);
  about(reply, by)(issues, `${what}: shape of the answer — ${issues}`).toBeUndefined();
  return schema.parse(body);
}

/** The status must be one of `allowed`; the message shows the start of the body. */
export function expectStatus(reply: Reply, allowed: number | readonly number[], what: string, by?: Evidence): void {
  const list = typeof allowed === 'number' ? [allowed] : allowed;
  const ok = list.includes(reply.status);
  about(reply, by)(
    ok,
    `${what}: expected status ${list.join(' or ')}, got ${reply.status}: ${redactText(reply.text.slice(0, 300))}`,
  ).toBe(true);
}

/** A 4xx with an error body (`error_msg`, `error_message`, `detail` or `non_field_errors`). */
export function expectClientError(reply: Reply, what: string, by?: Evidence): void {
  const inRange = reply.status >= 400 && reply.status < 500;
  about(reply, by)(
    inRange,
    `${what}: expected a 4xx, got ${reply.status}: ${redactText(reply.text.slice(0, 300))}`,
  ).toBe(true);
}

/**
 * Column keys are random per table (4 characters), and rows, link maps and options can be keyed
 * by them: to compare such answers, each side learns its keys from every answer it gets (a
 * column object — `key`, `name`, `type` — in a table, metadata or column answer), and its
 * exchanges name a field keyed by one after its column (`[Name]`): the same on both sides.
 * The same look registers every answer's secret fields (src/client/redact.ts) before a sample
 * of any answer is made.
 */
import { redactBody } from '../client/redact.js';
import type { Reply } from '../harness/target.js';

const MAX_BYTES = 2 * 1024 * 1024;

function collect(v: unknown, into: Map<string, string>, depth = 0): void {
  if (depth > 12 || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) collect(x, into, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  if (
    typeof o.key === 'string' &&
    typeof o.name === 'string' &&
    typeof o.type === 'string' &&
    o.key.length <= 8 &&
    !o.key.startsWith('_')
  )
    into.set(o.key, o.name);
  for (const x of Object.values(o)) collect(x, into, depth + 1);
}

/** An observer for `Target.observe` that adds the column keys of every JSON answer to `into` (key → column name). */
export function learnColumnKeys(into: Map<string, string>): (r: Reply) => void {
  return (r) => {
    if (r.res.body.length > MAX_BYTES || !/json/i.test(r.header('content-type') ?? '')) return;
    // Every answer's secret fields registered for redaction, a setup call's too: a token it gave may come back in a later answer.
    redactBody(r.text, 'application/json');
    try {
      collect(JSON.parse(r.text), into);
    } catch {
      /* not JSON after all: nothing to learn */
    }
  };
}

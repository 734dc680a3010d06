/**
 * The multi-step sequences' frame (structure, records, account): a named series of calls, each
 * an exchange `<sequence>/<name>`, where a change is made and then read back — what a mutant
 * that answers success and does less gets wrong shows in the read-back's values. The sequence
 * works in a scratch world of the side's own (dropped after); a setup call the side answers
 * otherwise ends it as one skipped exchange, a Skip (the descriptor lacks what it needs) too.
 */
import { Skip, World } from '../harness/answers/index.js';
import { Undecided } from '../harness/outcome.js';
import type { CallOptions, Reply } from '../harness/target.js';
import { endpoint } from '../spec/index.js';
import type { Exchange } from './exchange.js';
import { exchangeOf, jsonBody, normalBody, skippedExchange } from './normalise.js';
import type { Side } from './side.js';

/** What is compared of a success besides its structure: values read from its body — JSON, else undefined — or its reply (`body`: the whole body, normalised). */
export type Read = ((body: unknown, r: Reply) => Record<string, unknown> | Promise<Record<string, unknown>>) | 'body';
/** One call of operation `op` as exchange `name`; its reply, whatever the status. */
export type Step = (name: string, op: string, o: CallOptions, read?: Read) => Promise<Reply>;

export async function stepSequence(
  side: Side,
  sequence: string,
  run: (step: Step, world: World) => Promise<void>,
): Promise<Exchange[]> {
  const { target, state } = side;
  const out: Exchange[] = [];
  const world = new World();
  const n = { prefix: state.tablePrefix, keys: side.columnKeys };
  const step: Step = async (name, op, o, read) => {
    const r = await target.call({ expect: [400, 401, 403, 404, 413], ...o });
    const ep = endpoint(op);
    const x = exchangeOf({ ref: `${sequence}/${name}`, operation: op, method: o.method ?? 'GET', path: ep.path }, r, n);
    const values =
      !read || r.status >= 300 ? undefined : read === 'body' ? { body: normalBody(r, n) } : await read(jsonBody(r), r);
    out.push(values ? { ...x, values: { ...x.values, ...values } } : x);
    return r;
  };
  try {
    await run(step, world);
  } catch (e) {
    if (!(e instanceof Undecided) && !(e instanceof Skip)) throw e;
    const call = {
      ref: `${sequence}/setup`,
      operation: 'appendRows',
      method: 'POST',
      path: endpoint('appendRows').path,
    };
    out.push(
      e instanceof Skip
        ? skippedExchange(call, e.message, false)
        : skippedExchange(call, `${e.kind}: ${(e as Undecided).message}`, true),
    );
  } finally {
    await world.drop();
  }
  return out;
}

/** A body's field, `{}` when it is not an object. */
export const field = (b: unknown, k: string): unknown =>
  b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>)[k] : undefined;
/** The rows of a row list or SQL answer. */
export const rowsOf = (b: unknown) =>
  ((field(b, 'rows') ?? field(b, 'results') ?? []) as Record<string, unknown>[]) ?? [];
/** Each row's `column` by its Name, in name order (a value read back). */
export const byName = (b: unknown, column: string) =>
  Object.fromEntries(
    rowsOf(b)
      .map((r) => [String(r.Name), r[column] ?? null] as const)
      .sort(([x], [y]) => x.localeCompare(y)),
  );

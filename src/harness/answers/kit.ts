/**
 * How a SHAPE-8 check is made: a recipe per documented operation arranges what the call needs
 * (from the worker's world, or things of its own it registers for removal), makes the one
 * documented call through `main`, and the check judges that call's answer against
 * `RESPONSES[id]`: a 2xx whose JSON body parses. An operation the target does not serve at
 * all (the generic 404, or 405) is ROUTE-8's verdict: it is not judged here, so one deviation
 * fails one clause.
 */
import { z } from 'zod';
import { RESPONSES, answerEvidence, type Endpoint } from '../../spec/index.js';
import { shapeIssues } from '../assert.js';
import { notOffered } from '../offered.js';
import { Undecided } from '../outcome.js';
import { restored } from '../restore.js';
import type { RunState } from '../state.js';
import type { CallOptions, Reply, Target } from '../target.js';
import { expect, test } from '../test.js';
import type { Needs } from './calls.js';
import { Skip } from './groups.js';
import type { World } from './world.js';

export interface Kit {
  readonly target: Target;
  readonly state: RunState;
  readonly world: World;
  /** The documented call whose answer the check judges (once per recipe). */
  main(o: CallOptions): Promise<Reply>;
  /** Remove something the recipe made, after the check; a failure is a run-level warning (state left changed). */
  undo(what: string, call: () => Promise<Reply>): void;
  /** A clean-up that cannot fail the run (a scratch table: the end-of-run sweep finds what it leaves). */
  later(run: () => Promise<unknown>): void;
}

export interface Recipe {
  /** Why the recipe does not apply to this target (credentials, descriptor fields), before anything is made. */
  needs?: Needs;
  run(k: Kit): Promise<void>;
}

export type Recipes = Readonly<Record<string, Recipe>>;

/** Which side of a union of documented shapes the answer matched (the sources disagree there). */
function variantOf(schema: z.ZodType, body: unknown): string | undefined {
  if (!(schema instanceof z.ZodUnion)) return undefined;
  const options = schema.options as readonly z.ZodType[];
  const i = options.findIndex((o) => o.safeParse(body).success);
  if (i < 0) return undefined;
  const fields =
    body && typeof body === 'object' && !Array.isArray(body)
      ? `{${Object.keys(body).join(', ')}}`
      : Array.isArray(body)
        ? 'a bare array'
        : typeof body;
  return `variant ${i + 1} of ${options.length}: ${fields}`;
}

/** The documented call a recipe made and its answer. */
interface Made {
  readonly o: CallOptions;
  readonly r: Reply;
}

/** How a recipe's removals are run: the check's `restored` (a failure is a state warning), or the diff's. */
type Restorer = (what: string, call: () => Promise<Reply>, ok: (r: Reply) => boolean) => Promise<unknown>;

/**
 * Run `recipe` for `ep` — its fixtures, its one documented call, then its removals — and give
 * that call and its answer. The one code path of SHAPE-8's checks and of `conformance diff`.
 * Throws Skip where the recipe does not apply, Undecided where a fixture failed.
 */
export async function performRecipe(
  ep: Endpoint,
  recipe: Recipe,
  target: Target,
  state: RunState,
  world: World,
  restore: Restorer = restored,
): Promise<Made> {
  const why = recipe.needs?.(state);
  if (why) throw new Skip(why);
  let made: Made | undefined;
  const undo: (() => Promise<unknown>)[] = [];
  const kit: Kit = {
    target,
    state,
    world,
    async main(o) {
      if (made) throw new Error(`recipe of ${ep.id} made two documented calls`);
      const r = await target.call({ ...o, expect: [400, 401, 403, 404, 405] });
      made = { o, r };
      return r;
    },
    undo: (what, call) => undo.push(() => restore(`remove ${what}`, call, (r) => r.status < 300 || r.status === 404)),
    later: (run) => undo.push(() => run().catch(() => undefined)),
  };
  try {
    await recipe.run(kit);
    if (!made) throw new Error(`recipe of ${ep.id} made no documented call`);
    return made;
  } finally {
    for (const u of undo.reverse()) await u();
  }
}

/**
 * Run `recipe` for `ep` and judge its documented call's answer: 'fail' once a violation is
 * recorded (soft: the group's other operations go on). Throws Skip where the recipe does not
 * apply or the target does not serve the operation at all, Undecided where a fixture failed.
 */
export async function judgeOperation(
  ep: Endpoint,
  recipe: Recipe,
  target: Target,
  state: RunState,
  world: World,
): Promise<'pass' | 'fail'> {
  const schema = RESPONSES[ep.id];
  if (!schema) throw new Error(`no documented answer for ${ep.id} in src/spec/responses`);
  const { o, r } = await performRecipe(ep, recipe, target, state, world);
  return judgeAnswer(ep, schema, o, r, target, state);
}

async function judgeAnswer(
  ep: Endpoint,
  schema: z.ZodType,
  o: CallOptions,
  r: Reply,
  target: Target,
  state: RunState,
): Promise<'pass' | 'fail'> {
  const what = `${ep.operation} (${o.method ?? 'GET'} ${o.path.split('?')[0]})`;
  const missing = await notOffered(target, state, ep, r, o);
  if (missing) throw new Skip(missing);
  if (r.status < 200 || r.status >= 300) {
    expect
      .because(answerEvidence(ep))
      .soft(r.status, `${what}: the documented call answered ${r.status}: ${r.text.slice(0, 300)}`)
      .toBeLessThan(300);
    return 'fail';
  }
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    expect
      .because(answerEvidence(ep))
      .soft(r.header('content-type') ?? 'none', `${what}: the answer is not JSON: ${r.text.slice(0, 200)}`)
      .toMatch(/json/);
    return 'fail';
  }
  const issues = shapeIssues(schema, body);
  if (issues) {
    expect
      .because(answerEvidence(ep))
      .soft(issues, `${what}: the answer does not have the documented shape — ${issues}`)
      .toBeUndefined();
    return 'fail';
  }
  const variant = variantOf(schema, body);
  if (variant) test.info().annotations.push({ type: 'variant', description: `${ep.id}: ${variant}` });
  return 'pass';
}

/** Something a recipe needs from a setup answer; its absence is a fixture error. */
export function need<T>(v: T | undefined | null, what: string): T {
  if (v === undefined || v === null) throw new Undecided('fixture', what);
  return v;
}

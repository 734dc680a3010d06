/**
 * One exchange of a diff, normalised: what is compared of one documented call and its answer,
 * with everything that legitimately differs between two servers (ids, uuids, tokens, times,
 * hosts, the run's table prefix, the order of lists) already taken out. A recording is a list
 * of these, so it holds no raw answer — and no secret.
 */
import { z } from 'zod';

/** The JSON structure of an answer: types, field sets, nullability (a union with null), nesting. */
export type Shape =
  | { kind: 'null' | 'boolean' | 'number' | 'string' }
  | { kind: 'array'; items: Shape | null }
  | { kind: 'object'; fields: Record<string, { shape: Shape; optional: boolean }> }
  /** An object keyed by ids (rows by id, a link map): its keys are not compared, its values are. */
  | { kind: 'map'; values: Shape | null }
  | { kind: 'union'; of: Shape[] };

export const Shape: z.ZodType<Shape> = z.lazy(() =>
  z.union([
    z.object({ kind: z.enum(['null', 'boolean', 'number', 'string']) }),
    z.object({ kind: z.literal('array'), items: Shape.nullable() }),
    z.object({
      kind: z.literal('object'),
      fields: z.record(z.string(), z.object({ shape: Shape, optional: z.boolean() })),
    }),
    z.object({ kind: z.literal('map'), values: Shape.nullable() }),
    z.object({ kind: z.literal('union'), of: z.array(Shape) }),
  ]),
);

/** The rate-limit headers a diff compares: which are present, and whether as integers. */
export const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'] as const;

export const Exchange = z.object({
  /** Stable within every diff and recording: `<sequence>/<operation>[/<step>]`, e.g. `answers/listRows`, `probe/listRows/anonymous`. */
  ref: z.string(),
  /** The endpoint id of the call (src/spec/endpoints). */
  operation: z.string(),
  /** The method and the endpoint's path template: no id, base, upload link or token of the call. */
  request: z.object({ method: z.string(), path: z.string() }),
  /** Why no call was made or judged on this side (a recipe that does not apply, a fixture that failed). */
  skipped: z.string().optional(),
  /** Whether `skipped` is a difference of behaviour (a setup call the target answered otherwise) rather than of the descriptor. */
  setupFailed: z.boolean().optional(),
  status: z.number().int().optional(),
  /** The media type, lower-case, without parameters; null: none. */
  contentType: z.string().nullable().optional(),
  /** The body's structure; null: empty or not JSON. */
  shape: Shape.nullable().optional(),
  /** An error answer's form: its top-level fields among the known error fields (`error_msg`, `error_message`, `detail`, …). */
  errorForm: z.array(z.string()).optional(),
  /** Rate-limit headers present (`name` or `name:not-integer`). */
  rateHeaders: z.array(z.string()).optional(),
  /** Deterministic values read back (a cell as written, a count), by name. */
  values: z.record(z.string(), z.unknown()).optional(),
  /** The body as the report shows it: normalised, secrets masked, cut short. */
  sample: z.string().optional(),
});
export type Exchange = z.output<typeof Exchange>;

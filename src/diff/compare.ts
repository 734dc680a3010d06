/**
 * Exchange by exchange, where two sides answered differently: the status, the media type, the
 * JSON structure, the error body's form, the rate-limit headers and the values read back. A
 * call one side could not make because a setup call was answered otherwise is a divergence
 * too; one the descriptor rules out (no account, an older release) is only "not compared".
 */
import { z } from 'zod';
import { Exchange } from './exchange.js';
import { shapeDifferences } from './shape.js';

export const DIVERGENCE_KINDS = [
  'status',
  'content-type',
  'structure',
  'error-form',
  'rate-headers',
  'values',
  'outcome',
] as const;

const Divergence = z.object({
  kind: z.enum(DIVERGENCE_KINDS),
  /** One line: what differs, the target's side first. */
  detail: z.string(),
  /** The reason of the `--accept` entry that lists it. */
  accepted: z.string().optional(),
});
type Divergence = z.output<typeof Divergence>;

export const Compared = z.object({
  ref: z.string(),
  operation: z.string(),
  verdict: z.enum(['same', 'diverged', 'not compared']),
  /** Why it was not compared. */
  why: z.string().optional(),
  divergences: z.array(Divergence),
  /** The target's exchange and the other side's. */
  a: Exchange.optional(),
  b: Exchange.optional(),
});
export type Compared = z.output<typeof Compared>;

const show = (v: unknown) => (v === undefined ? 'none' : JSON.stringify(v));
const sameJson = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

function answered(a: Exchange, b: Exchange): Divergence[] {
  const out: Divergence[] = [];
  if (a.status !== b.status) return [{ kind: 'status', detail: `status ${a.status} against ${b.status}` }];
  if ((a.contentType ?? null) !== (b.contentType ?? null))
    out.push({
      kind: 'content-type',
      detail: `content type ${a.contentType ?? 'none'} against ${b.contentType ?? 'none'}`,
    });
  if (!sameJson(a.errorForm, b.errorForm))
    out.push({ kind: 'error-form', detail: `error fields ${show(a.errorForm)} against ${show(b.errorForm)}` });
  const shapes = shapeDifferences(a.shape ?? null, b.shape ?? null);
  if (shapes.length)
    out.push({
      kind: 'structure',
      detail: shapes.slice(0, 8).join('; ') + (shapes.length > 8 ? `; and ${shapes.length - 8} more` : ''),
    });
  if (!sameJson(a.rateHeaders ?? [], b.rateHeaders ?? []))
    out.push({
      kind: 'rate-headers',
      detail: `rate-limit headers ${show(a.rateHeaders)} against ${show(b.rateHeaders)}`,
    });
  for (const k of new Set([...Object.keys(a.values ?? {}), ...Object.keys(b.values ?? {})])) {
    const [x, y] = [a.values?.[k], b.values?.[k]];
    if (!sameJson(x, y)) out.push({ kind: 'values', detail: `${k}: ${show(x)} against ${show(y)}` });
  }
  return out;
}

/** One exchange of both sides, compared. */
export function compareExchange(a: Exchange | undefined, b: Exchange | undefined): Compared {
  const head = { ref: (a ?? b)!.ref, operation: (a ?? b)!.operation, a, b };
  if (!a || !b)
    return {
      ...head,
      verdict: 'not compared',
      why: `not made on ${a ? 'the other side' : 'the target'} (a sequence of another harness version)`,
      divergences: [],
    };
  if (a.skipped !== undefined || b.skipped !== undefined) {
    if (a.skipped !== undefined && b.skipped !== undefined) {
      if (!!a.setupFailed === !!b.setupFailed)
        return {
          ...head,
          verdict: a.setupFailed ? 'same' : 'not compared',
          why: a.setupFailed ? undefined : `on both sides: ${a.skipped}`,
          divergences: [],
        };
    }
    const [failed, side] = a.setupFailed ? [a, 'the target'] : b.setupFailed ? [b, 'the other side'] : [undefined, ''];
    if (failed)
      return {
        ...head,
        verdict: 'diverged',
        divergences: [
          {
            kind: 'outcome',
            detail: `${side} answered a setup call otherwise, so the call was not made there: ${failed.skipped}`,
          },
        ],
      };
    return { ...head, verdict: 'not compared', why: (a.skipped ?? b.skipped)!, divergences: [] };
  }
  const divergences = answered(a, b);
  return { ...head, verdict: divergences.length ? 'diverged' : 'same', divergences };
}

/** Every exchange of either side, in the target's order (then the other side's). */
export function compareAll(as: readonly Exchange[], bs: readonly Exchange[]): Compared[] {
  const byRef = new Map(bs.map((x) => [x.ref, x]));
  const seen = new Set(as.map((x) => x.ref));
  return [
    ...as.map((a) => compareExchange(a, byRef.get(a.ref))),
    ...bs.filter((b) => !seen.has(b.ref)).map((b) => compareExchange(undefined, b)),
  ];
}

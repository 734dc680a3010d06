/**
 * k6's execution segments (lib/execution_segment.go), reproduced exactly so that built-in
 * instances, stock k6 and k6-operator pods split one scenario alike: a segment `from:to` of
 * the work, a sequence of segments filling 0…1, the "striped" offsets that hand every global
 * index (VU or iteration) to exactly one segment, `ScaleInt64` (an instance's share of an
 * integer, summing to the whole over the sequence) and the re-segmentation of a sequence by
 * a value (`GetNewExecutionTupleFromValue`), which k6 applies to iterations and arrival rates.
 * Exact rational arithmetic (BigInt) where k6 uses big.Rat; plain integers where k6 uses int64.
 */

/** A non-negative rational, normalised (d > 0, gcd 1). */
interface Rat {
  readonly n: bigint;
  readonly d: bigint;
}

const gcdBig = (a: bigint, b: bigint): bigint => {
  while (b) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
};
const rat = (n: bigint, d = 1n): Rat => {
  const g = gcdBig(n, d) || 1n;
  return d < 0n ? { n: -n / g, d: -d / g } : { n: n / g, d: d / g };
};
const cmp = (a: Rat, b: Rat): number => {
  const x = a.n * b.d,
    y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
const sub = (a: Rat, b: Rat): Rat => rat(a.n * b.d - b.n * a.d, a.d * b.d);
const ratString = (r: Rat): string => (r.d === 1n ? String(r.n) : `${r.n}/${r.d}`);
const ZERO = rat(0n),
  ONE = rat(1n);

/** k6's stringToRat: `50%` (whole percent), `0.5`, `1/2`, `1`. */
function parseRat(s: string): Rat {
  const t = s.trim();
  const pct = /^(\d+)%$/.exec(t);
  if (pct) return rat(BigInt(pct[1]!), 100n);
  if (t.endsWith('%')) throw new Error(`'${s}' is not a valid percentage`);
  const frac = /^(\d+)\/(\d+)$/.exec(t);
  if (frac && BigInt(frac[2]!) > 0n) return rat(BigInt(frac[1]!), BigInt(frac[2]!));
  const dec = /^(\d+)(?:\.(\d+))?$/.exec(t);
  if (dec) return rat(BigInt(dec[1]! + (dec[2] ?? '')), 10n ** BigInt((dec[2] ?? '').length));
  throw new Error(`'${s}' is not a valid percentage, decimal, fraction or interval value`);
}

interface Segment {
  readonly from: Rat;
  readonly to: Rat;
  readonly length: Rat;
}

function segment(from: Rat, to: Rat): Segment {
  if (cmp(from, ZERO) < 0) throw new Error(`segment start value must be at least 0 but was ${ratString(from)}`);
  if (cmp(from, to) >= 0)
    throw new Error(`segment start (${ratString(from)}) must be less than its end (${ratString(to)})`);
  if (cmp(to, ONE) > 0) throw new Error(`segment end value can't be more than 1 but was ${ratString(to)}`);
  return { from, to, length: sub(to, from) };
}

/** `1/2:3/4`, `50%:75%`, or one value `v` meaning `0:v`; empty is the whole test. */
export function parseSegment(text: string): Segment {
  const t = text.trim() || '1';
  const i = t.indexOf(':');
  return i < 0 ? segment(ZERO, parseRat(t)) : segment(parseRat(t.slice(0, i)), parseRat(t.slice(i + 1)));
}

export const segmentString = (s: Segment): string => `${ratString(s.from)}:${ratString(s.to)}`;
const sameSegment = (a: Segment, b: Segment) => cmp(a.from, b.from) === 0 && cmp(a.to, b.to) === 0;

/** `0,1/3,2/3,1`: the points of consecutive segments (at least two). */
function parseSequence(text: string): Segment[] {
  if (!text.trim()) return [];
  const points = text.split(',').map(parseRat);
  if (points.length < 2)
    throw new Error(`at least 2 points are needed for an execution segment sequence, ${points.length} given`);
  return points.slice(1).map((p, i) => segment(points[i]!, p));
}

/** GetFilledExecutionSegmentSequence: the sequence (or the lone segment) with the gaps to 0 and 1 filled. */
function filled(sequence: readonly Segment[], fallback: Segment | undefined): Segment[] {
  if (sequence.length === 0 && (!fallback || cmp(fallback.length, ONE) === 0)) return [segment(ZERO, ONE)];
  const out = sequence.length ? [...sequence] : [fallback!];
  if (cmp(out[0]!.from, ZERO) !== 0) out.unshift(segment(ZERO, out[0]!.from));
  if (cmp(out[out.length - 1]!.to, ONE) !== 0) out.push(segment(out[out.length - 1]!.to, ONE));
  return out;
}

const gcd = (a: number, b: number): number => {
  while (b) [a, b] = [b, a % b];
  return a;
};

/** A filled sequence with its LCD and striped offsets (ExecutionSegmentSequenceWrapper). */
class Sequence {
  readonly lcd: number;
  /** Per segment: [start, ...offsets]; offsets sum to lcd, so the pattern repeats every lcd. */
  readonly offsets: number[][];

  constructor(readonly segments: readonly Segment[]) {
    this.lcd = segments.reduce((acc, s) => {
      const d = Number(s.length.d);
      return acc % d === 0 ? acc : (acc * d) / gcd(acc, d);
    }, 1);
    const lcd = this.lcd;
    const norm = segments.map((s, i) => ({ num: Number(s.length.n) * (lcd / Number(s.length.d)), index: i }));
    // Largest segments pick first (a stable sort, as Go's sort.SliceStable).
    const sorted = [...norm].sort((a, b) => b.num - a.num);
    const offsets: number[][] = segments.map(() => []);
    const prev = segments.map(() => 0);
    const chosen = sorted.map(() => 0);
    for (let i = 0; i < lcd; i++) {
      for (let si = 0; si < sorted.length; si++) {
        const num = chosen[si]! * lcd,
          denom = sorted[si]!.num;
        const q = Math.floor(num / denom);
        if (i > q || (i === q && num % denom === 0)) {
          chosen[si]!++;
          const idx = sorted[si]!.index,
            o = offsets[idx]!;
          o.push(i - prev[idx]!);
          prev[idx] = i;
          if (o.length === denom) o.push(o[0]! + lcd - i);
          break;
        }
      }
    }
    this.offsets = offsets;
  }

  /** ScaleInt64: how many of the indexes 0…value−1 belong to segment `index`. */
  scale(index: number, value: number): number {
    const [start, ...offs] = this.offsets[index]!;
    let result = Math.floor(value / this.lcd) * offs.length;
    for (let gi = 0, i = start!; i < value % this.lcd; i += offs[gi]!, gi++) result++;
    return result;
  }

  /** GetNewExecutionSegmentSequenceFromValue: the sequence re-cut so segment i holds scale(i, value)/value; -1 when `tracked` is left empty. */
  resegment(value: number, tracked: number): { sequence: Sequence; index: number } {
    if (value < 1) throw new Error(`cannot generate new sequence for value ${value}`);
    if (value % this.lcd === 0) return { sequence: this, index: tracked };
    const out: Segment[] = [];
    let prev = 0,
      index = -1;
    this.segments.forEach((_, i) => {
      const v = this.scale(i, value);
      if (v === 0) return;
      if (i === tracked) index = out.length;
      out.push(segment(rat(BigInt(prev), BigInt(value)), rat(BigInt(prev + v), BigInt(value))));
      prev += v;
    });
    if (index < 0)
      throw new Error(`segment ${segmentString(this.segments[tracked]!)} isn't present in the new sequence`);
    return { sequence: new Sequence(out), index };
  }
}

/** An instance's place in a split run (ExecutionTuple): its segment in the filled sequence. */
export class Tuple {
  constructor(
    readonly sequence: Sequence,
    readonly index: number,
  ) {}

  get segment(): Segment {
    return this.sequence.segments[this.index]!;
  }
  /** The share of the whole this instance runs (1 when the run is not split). */
  get share(): number {
    const l = this.segment.length;
    return Number(l.n) / Number(l.d);
  }
  get split(): boolean {
    return this.sequence.segments.length > 1;
  }

  /** This instance's part of `value` (VUs, iterations): over the sequence the parts sum to `value`. */
  scale(value: number): number {
    return this.split ? this.sequence.scale(this.index, value) : value;
  }

  /** GetNewExecutionTupleFromValue; null when this instance's part of `value` is nothing. */
  resegment(value: number): Tuple | null {
    try {
      const r = this.sequence.resegment(value, this.index);
      return new Tuple(r.sequence, r.index);
    } catch {
      return null;
    }
  }

  /** The stripe: global index of this instance's n-th (0-based) element is ⌊n/k⌋·lcd + positions[n mod k]. */
  stripe(): Stripe {
    const [start, ...offs] = this.sequence.offsets[this.index]!;
    const positions: number[] = [];
    for (let p = start!, r = 0; r < offs.length; p += offs[r]!, r++) positions.push(p);
    return { lcd: this.sequence.lcd, positions };
  }
}

export interface Stripe {
  lcd: number;
  positions: number[];
}

/** The global (unscaled) index of this instance's n-th element (SegmentedIndex.Next, 0-based). */
export function globalIndex(s: Stripe, n: number): number {
  const k = s.positions.length;
  return Math.floor(n / k) * s.lcd + s.positions[n % k]!;
}

/** NewExecutionTuple: `--execution-segment` within `--execution-segment-sequence` (both optional). */
export function executionTuple(segmentText?: string, sequenceText?: string): Tuple {
  const seg = segmentText ? parseSegment(segmentText) : undefined;
  const seq = sequenceText ? parseSequence(sequenceText) : [];
  for (let i = 1; i < seq.length; i++) {
    if (cmp(seq[i]!.from, seq[i - 1]!.to) !== 0)
      throw new Error(
        `the start value ${ratString(seq[i]!.from)} of segment #${i} must be equal to the end value of the previous one`,
      );
  }
  const full = filled(seq, seg);
  const want = seg ?? segment(ZERO, ONE);
  const index = full.findIndex((s) => sameSegment(s, want));
  if (index < 0)
    throw new Error(`couldn't find segment ${segmentString(want)} in sequence ${full.map(segmentString).join(',')}`);
  return new Tuple(new Sequence(full), index);
}

/** How many of the global indexes 0…value−1 are this instance's (ScaleInt64 over the stripe). */
export function stripeCount(s: Stripe, value: number): number {
  if (value <= 0) return 0;
  const k = s.positions.length,
    rest = value % s.lcd;
  let n = Math.floor(value / s.lcd) * k;
  for (let r = 0; r < k && s.positions[r]! < rest; r++) n++;
  return n;
}

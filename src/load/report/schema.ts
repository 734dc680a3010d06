/**
 * `results.json`, versioned: everything needed to re-judge and merge a run — every metric's
 * mergeable sink (histograms, not percentiles), the per-second series, the threshold
 * definitions and verdicts. Never a credential: the target is its URL, edition and version.
 */
import { z } from 'zod';

export const SCHEMA_VERSION = 1;

const sink = z.discriminatedUnion('type', [
  z.object({ type: z.literal('counter'), sum: z.number() }),
  z.object({ type: z.literal('gauge'), last: z.number(), min: z.number(), max: z.number(), at: z.number() }),
  z.object({ type: z.literal('rate'), trues: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
  z.object({
    type: z.literal('trend'),
    count: z.number().int().nonnegative(),
    sum: z.number(),
    min: z.number(),
    max: z.number(),
    hist: z.string(),
    values: z.array(z.number()).optional(),
  }),
]);

const MetricSchema = z.object({
  name: z.string(),
  type: z.enum(['counter', 'gauge', 'rate', 'trend']),
  contains: z.enum(['default', 'time', 'data']),
  sink,
  subs: z.array(z.object({ name: z.string(), tags: z.record(z.string(), z.string()), sink })),
});

const BucketSchema = z.object({
  t: z.number().int().nonnegative(),
  reqs: z.number(),
  failed: z.number(),
  errors: z.number(),
  s429: z.number(),
  iterations: z.number(),
  dropped: z.number(),
  offered: z.number(),
  vus: z.number(),
  byKey: z.record(z.string(), z.object({ reqs: z.number(), s429: z.number() })),
  /** Per endpoint (the request's name tag): counts and a latency histogram. */
  byName: z
    .record(z.string(), z.object({ reqs: z.number(), failed: z.number(), s429: z.number(), dur: z.string() }))
    .optional(),
  /** The generator's health (built-in runner): CPU % of the machine, busiest VU thread's event-loop utilisation, main event-loop delay (ms). */
  gen: z.object({ cpu: z.number(), elu: z.number(), lag: z.number() }).optional(),
  dur: z.string(),
});

const ThresholdSchema = z.object({
  selector: z.string(),
  source: z.string(),
  ok: z.boolean(),
  measured: z.number(),
  clauses: z.array(z.string()),
});

export const CapacitySchema = z.object({
  p95BudgetMs: z.number(),
  /** Highest offered arrival rate (iterations/s) at which every second so far kept p95 under budget with no errors and no dropped iterations; a held rate (a plateau) when the stages have plateaus. */
  sustainedRate: z.number(),
  /** Requests per second achieved in the second that sustained that rate. */
  achievedRps: z.number(),
  p95AtSustainedMs: z.number(),
  droppedAtSustained: z.number(),
  /** Why the next rate was not sustained, if it was not. */
  limitedBy: z.string(),
  /** What stopped the climb: the target, the generator itself (its threads saturated), or nothing. */
  bottleneck: z.enum(['target', 'generator', 'none']).optional(),
  peakOfferedRate: z.number(),
});

const CAUSES = ['latency', 'errors', '429', 'generator'] as const;

/** One step of a capacity search: a constant arrival rate held for a while, judged against the SLO. */
const SearchStepSchema = z.object({
  rate: z.number(),
  seconds: z.number(),
  /** When the step started, ms after the run's start (the series' origin), and how long it took with its drain. */
  atMs: z.number(),
  durationMs: z.number(),
  reqs: z.number(),
  achievedRate: z.number(),
  p95Ms: z.number(),
  errorPct: z.number(),
  share429Pct: z.number(),
  dropped: z.number(),
  /** The generator's saturation in the step, described, or '' when it kept up. */
  generator: z.string(),
  ok: z.boolean(),
  cause: z.enum(CAUSES).nullable(),
  why: z.string(),
});

/** `--find-capacity`: the highest arrival rate the target sustained within the SLO, and how the search got there. */
export const SearchSchema = z.object({
  slo: z.object({ p95Ms: z.number(), errorPct: z.number() }),
  bounds: z.object({
    startRate: z.number(),
    maxRate: z.number(),
    maxDurationMs: z.number(),
    stepSeconds: z.number(),
    precisionPct: z.number(),
    maxSteps: z.number(),
  }),
  /** The highest rate sustained (0: none was). */
  figure: z.number(),
  /** The lowest rate that broke the SLO, or null when none did. */
  brokeAt: z.number().nullable(),
  cause: z.enum(CAUSES).nullable(),
  /** The figure, the SLO and why the search ended, in one sentence. */
  why: z.string(),
  stoppedBy: z.enum([
    'converged',
    'max-rate',
    'max-duration',
    'max-steps',
    'generator',
    'minimum-rate',
    'engine-error',
  ]),
  durationMs: z.number(),
  steps: z.array(SearchStepSchema),
});

export const ResultsSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  tool: z.literal('conformance load'),
  engine: z.string(),
  engines: z.array(z.string()),
  scenario: z.string(),
  clauses: z.array(z.string()),
  /** `tls`: an https target's certificate check, e.g. "TLS verified (system roots and CA file ca.pem)" or "… NOT verified (--insecure)". */
  target: z.object({ url: z.string(), edition: z.string(), api_version: z.string(), tls: z.string().optional() }),
  instances: z.number().int().positive(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  exitCode: z.number().int(),
  aborted: z.string().optional(),
  options: z.object({
    thresholds: z.record(z.string(), z.unknown()),
    scenarios: z.array(z.record(z.string(), z.unknown())),
  }),
  thresholds: z.array(ThresholdSchema),
  checks: z.array(z.object({ group: z.string(), name: z.string(), passes: z.number(), fails: z.number() })),
  metrics: z.array(MetricSchema),
  series: z.object({ widthMs: z.number().positive(), buckets: z.array(BucketSchema) }),
  capacity: CapacitySchema.optional(),
  search: SearchSchema.optional(),
  errors: z.array(z.string()),
});

export type Results = z.infer<typeof ResultsSchema>;
export type Capacity = z.infer<typeof CapacitySchema>;
export type Search = z.infer<typeof SearchSchema>;
export type SearchStep = z.infer<typeof SearchStepSchema>;
export type Cause = (typeof CAUSES)[number];

/** Parse a results file; an error names the first problem in one line. */
export function parseResults(raw: unknown, where: string): Results {
  const r = ResultsSchema.safeParse(raw);
  if (!r.success)
    throw new Error(
      `${where}: not a results.json of schema ${SCHEMA_VERSION}: ${r.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}`,
    );
  return r.data;
}

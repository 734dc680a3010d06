/**
 * What a conformance run hands its test workers: the target, what it is held to, limits,
 * and the run's fixtures. Written by the runner to a private file (it holds secrets) and
 * read once per worker.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { registerSecret } from '../client/redact.js';
import { setTrust } from '../client/tls.js';
import { fixtureMissing } from './outcome.js';
import { descriptorSecrets, EDITIONS, KNOWN_VERSIONS, RATE_CLASSES, TargetDescriptor } from '../spec/index.js';
import { HARNESS_ENV, harnessEnv } from '../common/harness-env.js';

const Timeouts = z.object({
  connectMs: z.number().int().positive(),
  headersMs: z.number().int().positive(),
  bodyMs: z.number().int().positive(),
  maxBodyBytes: z.number().int().positive(),
});

/** Which checks attach their requests, responses and curl reproducer (`--transcripts`). */
export const TRANSCRIPTS = ['all', 'failures', 'none'] as const;

/** `--fail-fast-scopes`: check title → scope. */
export const FailFastScopes = z.record(z.string(), z.string(), { error: 'not an object of check title → scope' });

/** The seed a run samples with unless told otherwise (`--seed`): runs are reproducible by default. */
export const DEFAULT_SEED = 1;

export const RunState = z.object({
  runId: z.string(),
  /** Tables the run creates are named `${tablePrefix}…`; `conformance clean` sweeps such names. */
  tablePrefix: z.string(),
  /** Seed of the sampled checks (ROBUST): the same seed and endpoint table send the same requests. */
  seed: z.number().int().nonnegative().default(DEFAULT_SEED),
  target: TargetDescriptor,
  /** The edition and release the run holds the target to (flags override the descriptor's claim). */
  edition: z.enum(EDITIONS),
  apiVersion: z.string().refine((v) => KNOWN_VERSIONS.includes(v)),
  http: Timeouts,
  /** Whom TLS connections trust (src/client/tls.ts): the system roots plus `caFile`, or nobody checked. */
  tls: z.object({ caFile: z.string().optional(), insecure: z.boolean() }).default({ insecure: false }),
  /** Loopback source addresses for per-IP checks (RATE-2); empty = not available. */
  sourceIps: z.array(z.string()),
  webhook: z.object({
    listenHost: z.string(),
    listenPort: z.number().int().min(0),
    publicUrl: z.string().optional(),
    waitMs: z.number().int().positive().default(20_000),
  }),
  /** The rate limits the rate clauses hold the target to (RATE-1…6), and where they came from. */
  limits: z.object({
    source: z.string(),
    values: z.record(z.enum(RATE_CLASSES), z.number().int().nonnegative().nullable()),
  }),
  /** RATE-8 may add a team user and change the team's plan (costs money on a real cloud). */
  allowPlanChanges: z.boolean().default(false),
  transcripts: z.enum(TRANSCRIPTS).default('all'),
  /** `--strict`: a violated assertion whose evidence is only `inferred` fails the check instead of warning. */
  strict: z.boolean().default(false),
  /** Check title → scope (src/harness/fail-fast.ts): a scope's clause is decided by its first failing check. */
  failFastScopes: FailFastScopes.optional(),
  /** Keep a worker after a failed check (src/harness/keep-worker.ts): the terminal shows the harness's outcomes. */
  keepWorkers: z.boolean().default(false),
  /** RATE-7: a target started with this limits configuration file, and the values it sets. */
  limitsConfig: z
    .object({ file: z.string(), values: z.record(z.string(), z.number()), target: TargetDescriptor })
    .optional(),
  /** Fixture tables created before the functional phase, in base 0; `refused`: column types the target would not create. */
  fixtures: z.object({ types: z.string(), linked: z.string(), refused: z.record(z.string(), z.string()) }).optional(),
  /** Why the fixture tables could not be made (checks that need them end as errors with this reason). */
  fixturesProblem: z.string().optional(),
});
export type RunState = z.output<typeof RunState>;

let cached: RunState | undefined;

export function loadState(): RunState {
  if (cached) return cached;
  const file = harnessEnv('stateFile');
  if (!file) throw new Error(`${HARNESS_ENV.stateFile.name} is not set: the suites run through \`conformance run\``);
  cached = RunState.parse(JSON.parse(readFileSync(file, 'utf8')));
  setTrust(cached.tls);
  // Known from the start in every worker, so redaction never depends on which fixture a check used.
  for (const s of [
    ...descriptorSecrets(cached.target),
    ...(cached.limitsConfig ? descriptorSecrets(cached.limitsConfig.target) : []),
  ])
    registerSecret(s);
  return cached;
}

/** The run's fixture tables; a check that needs them ends as an error (reason: fixture) when they could not be made. */
export function fixtureTables(state: RunState): NonNullable<RunState['fixtures']> {
  if (!state.fixtures)
    throw fixtureMissing(
      `the run's fixture tables could not be made: ${state.fixturesProblem ?? 'the run did not create them'}`,
    );
  return state.fixtures;
}

/**
 * Reference server options, parsed once by zod. Limits: edition defaults (§8.1), then the
 * one configuration file (§8.4, `--config`, honoured on dedicated and self-hosted from 5.3),
 * then environment variables (LIMIT_SETTINGS).
 */
import { z } from 'zod';
import { readJsonFile } from '../common/json-file.js';
import { isFaultName, type FaultName } from './faults.js';
import {
  DEFAULT_EDITION,
  DEFAULT_QUOTA_FORMULA,
  EDITIONS,
  LIMIT_SETTINGS,
  LimitsFile,
  NEWEST_VERSION,
  RATE_LIMITS,
  RATE_WINDOW_SECONDS,
  behaviourAt,
  configuredRateLimits,
  isEmulatedVersion,
  type Edition,
  type QuotaFormula,
  type RateClass,
  type RateLimits,
} from '../spec/index.js';

export const ServerOptions = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(0),
  edition: z.enum(EDITIONS).default(DEFAULT_EDITION),
  apiVersion: z.string().refine(isEmulatedVersion, 'a release from 4.4 to 6.2').default(NEWEST_VERSION),
  dataFile: z.string().optional(),
  rateWindowSeconds: z.number().positive().default(RATE_WINDOW_SECONDS),
  /** No rate limits or quota at all (capacity runs). */
  unlimited: z.boolean().default(false),
  /** Take the client's address, and the links' scheme, host and port, from a proxy's X-Forwarded-* headers. */
  trustProxy: z.boolean().default(false),
  /** The root URL clients reach the server at (behind a proxy): every link an answer carries starts with it (public-url.ts). */
  publicUrl: z
    .url({ protocol: /^https?$/, message: 'an http(s) URL such as https://host:8443' })
    .refine((u) => {
      const p = new URL(u);
      return (p.pathname === '/' || p.pathname === '') && !p.search && !p.hash;
    }, 'scheme, host and port only: links are built under the root')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  configFile: z.string().optional(),
  /** Fault switches (src/mutants): deliberate deviations that a suite must detect. */
  faults: z
    .array(
      z.string().transform((name, ctx): FaultName => {
        if (isFaultName(name)) return name;
        ctx.addIssue({
          code: 'custom',
          message: `"${name}" is not a fault switch of the reference server (src/server/faults.ts)`,
        });
        return z.NEVER;
      }),
    )
    .default([]),
  /** Webhook delivery: per-attempt timeout and retry back-off (ms). */
  webhookTimeoutMs: z.number().int().positive().default(30_000),
  webhookRetryDelaysMs: z.array(z.number().int().nonnegative()).default([1_000, 5_000, 30_000]),
  /** Base-token lifetime when `exp` is not given (api-shapes §1.1: 3 days). */
  baseTokenSeconds: z
    .number()
    .int()
    .positive()
    .default(3 * 24 * 3600),
});
export type ServerOptionsInput = z.input<typeof ServerOptions>;
export type ServerOptions = z.output<typeof ServerOptions> & { clock?: () => number; env?: NodeJS.ProcessEnv };

export interface EffectiveLimits {
  rate: RateLimits;
  quota: QuotaFormula;
  /** Where each limit came from, for /server-info/ and logs. */
  sources: Record<RateClass, 'edition' | 'config' | 'env'>;
  /**
   * Fault switches consulted here, at start-up (whether set or not): the selftest's coverage
   * attributes them to the checks that call this server (src/mutants/coverage.ts).
   */
  startupFaults: FaultName[];
}

function readConfigFile(file: string): LimitsFile {
  return readJsonFile(file, LimitsFile, 'configuration file');
}

const limitValue = (n: number) => (n < 0 ? null : n);

export function effectiveLimits(opts: ServerOptions): EffectiveLimits {
  const edition: Edition = opts.edition;
  const rate: Record<RateClass, number | null> = { ...RATE_LIMITS[edition] };
  const startupFaults: FaultName[] = [];
  const startupFault = (name: FaultName) => {
    startupFaults.push(name);
    return opts.faults.includes(name);
  };
  if (edition === 'cloud' && startupFault('auth-token-unlimited-on-cloud')) rate['auth-token'] = null; // mutant: the self-hosted default everywhere
  const sources: EffectiveLimits['sources'] = { account: 'edition', gateway: 'edition', 'auth-token': 'edition' };
  let quota = DEFAULT_QUOTA_FORMULA;
  const customisable = edition !== 'cloud';
  if (opts.configFile) {
    const file = readConfigFile(opts.configFile);
    const honoured = customisable && behaviourAt(opts.apiVersion).limitsConfigFile && !startupFault('ignore-config');
    if (honoured) {
      for (const [cls, v] of Object.entries(configuredRateLimits(file)) as [RateClass, number | null][]) {
        rate[cls] = v;
        sources[cls] = 'config';
      }
    }
    if (file.monthly_quota) quota = file.monthly_quota;
  }
  const env = opts.env ?? process.env;
  if (customisable) {
    for (const s of LIMIT_SETTINGS) {
      const v = env[s.env];
      if (v !== undefined && v !== '') {
        const n = Number(v);
        if (!Number.isInteger(n) || n < -1) throw new Error(`${s.env}=${v}: expected an integer, -1 for unlimited`);
        rate[s.rateClass] = limitValue(n);
        sources[s.rateClass] = 'env';
      }
    }
  }
  return { rate, quota, sources, startupFaults };
}

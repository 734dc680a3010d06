/** Limits of §8: rate limits per edition (8.1), the monthly quota (8.3), customising (8.4), size limits (8.5). */
import type { LimitsFile } from './limits-file.js';

export const EDITIONS = ['cloud', 'dedicated', 'self-hosted'] as const;
export type Edition = (typeof EDITIONS)[number];
export const DEFAULT_EDITION: Edition = 'self-hosted';

/** Rate-limit classes: which limit a call counts against (§8.1 table). */
export const RATE_CLASSES = ['account', 'gateway', 'auth-token'] as const;
export type RateClass = (typeof RATE_CLASSES)[number];

/** The paths §8.1's table names for each class: an endpoint elsewhere (e.g. /api2/account/info/) is limited (§8.1.1), but which budget it shares is not said. */
export const RATE_CLASS_PATHS: Readonly<Record<RateClass, string>> = {
  account: '/api/v2.1/',
  gateway: '/api-gateway/api/v2/',
  'auth-token': '/api2/auth-token/',
};

/** Calls per window; `null` = unlimited. */
export type RateLimits = Readonly<Record<RateClass, number | null>>;

export const RATE_LIMITS: Readonly<Record<Edition, RateLimits>> = {
  cloud: { account: 1000, gateway: 200, 'auth-token': 60 },
  dedicated: { account: 3000, gateway: 500, 'auth-token': null },
  'self-hosted': { account: 3000, gateway: 500, 'auth-token': null },
};

/** §8.1.4: the limit is per minute. */
export const RATE_WINDOW_SECONDS = 60;

/** What each class is counted per (§8.1.2: per base; where no base applies, per IP). */
export const RATE_KEY_OF_CLASS: Readonly<Record<RateClass, 'base' | 'ip'>> = {
  account: 'ip',
  gateway: 'base',
  'auth-token': 'ip',
};

/**
 * §8.4: on dedicated and self-hosted editions the limits come from one configuration file.
 * The file is JSON; each key below overrides one limit (-1 = unlimited), and so does the
 * environment variable named beside it. The gateway variable is the real service's (6.2+).
 */
export const LIMIT_SETTINGS = [
  { rateClass: 'gateway', key: 'base_api_limit_per_minute', env: 'API_GATEWAY_BASE_API_LIMIT_PER_MINUTE' },
  { rateClass: 'account', key: 'account_api_limit_per_minute', env: 'API_ACCOUNT_LIMIT_PER_MINUTE' },
  { rateClass: 'auth-token', key: 'auth_token_limit_per_minute', env: 'API_AUTH_TOKEN_LIMIT_PER_MINUTE' },
] as const satisfies readonly { readonly rateClass: RateClass; readonly key: string; readonly env: string }[];
export type LimitKey = (typeof LIMIT_SETTINGS)[number]['key'];

/** §8.5: maximum rows per call; `null` = unlimited. */
export const SIZE_LIMITS = {
  listRows: 1000,
  appendRows: 1000,
  updateRows: 1000,
  deleteRows: 10_000,
  sqlList: 10_000,
  sqlWrite: null,
  /** Rows an SQL list returns without a LIMIT clause (api-shapes §2.2). */
  sqlListDefault: 100,
} as const;

/**
 * What one request may hold (ours: the specification names no numbers). The reference server
 * refuses more with a 4xx before any handler sees it; the harness probes just past each.
 */
export const INPUT_LIMITS = {
  /** Bytes of a JSON or form body: above the largest legitimate call (10,000 row ids to delete), below a 10 MB abuse. */
  bodyBytes: 4 * 1024 * 1024,
  /** Nesting of a JSON body, `{}` being 1. Legitimate bodies reach 5 (rows → row → cell → link list). */
  jsonDepth: 64,
  /** Characters of a name (table, column, view, team, user, app): a 10,000-character name is refused. */
  nameLength: 255,
  /** RFC 2046 §5.1.1: a multipart boundary has 1 to 70 characters. */
  multipartBoundary: 70,
} as const;

/**
 * §8.3 (cloud only): the monthly API quota is a function of plan and team size. The numbers
 * are not published; these defaults are ours and can be replaced in the configuration file
 * (`monthly_quota`). limit = base[plan] + perUser[plan] × members.
 */
export const PLANS = ['org_default', 'org_plus', 'org_enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export interface QuotaFormula {
  readonly base: Readonly<Record<Plan, number>>;
  readonly perUser: Readonly<Record<Plan, number>>;
}
export const DEFAULT_QUOTA_FORMULA: QuotaFormula = {
  base: { org_default: 5_000, org_plus: 50_000, org_enterprise: 500_000 },
  perUser: { org_default: 1_000, org_plus: 5_000, org_enterprise: 10_000 },
};

export function monthlyQuota(formula: QuotaFormula, plan: Plan, members: number): number {
  return formula.base[plan] + formula.perUser[plan] * members;
}

/** The rate limits a limits file sets, by class (`null` = unlimited); classes it leaves out are absent. */
export function configuredRateLimits(file: LimitsFile): Partial<Record<RateClass, number | null>> {
  const out: Partial<Record<RateClass, number | null>> = {};
  for (const s of LIMIT_SETTINGS) {
    const v = file[s.key];
    if (typeof v === 'number') out[s.rateClass] = v < 0 ? null : v;
  }
  return out;
}

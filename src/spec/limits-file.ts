/**
 * The limits file (§8.4; our format, the specification names none): the reference server
 * reads it at start (`--config`), and `conformance run --limits-config` / a descriptor's
 * `limits` tell the harness what a target was configured with. Unknown keys are an error:
 * a typo must not silently keep a default. Apart from limits.ts so that the k6 load scripts,
 * which bundle the limits, do not bundle zod too (a schema built at module level cannot be
 * tree-shaken).
 */
import { z } from 'zod';
import { LIMIT_SETTINGS, PLANS, type LimitKey, type Plan, type QuotaFormula } from './limits.js';

const planNumbers = z.strictObject(Object.fromEntries(PLANS.map((p) => [p, z.number().int().nonnegative()])) as Record<Plan, z.ZodNumber>);
const limitSetting = z.number().int().min(-1).describe('calls per window; -1 = unlimited');

export type LimitsFile = Partial<Record<LimitKey, number>> & { monthly_quota?: QuotaFormula };
export const LimitsFile = z.strictObject({
  ...Object.fromEntries(LIMIT_SETTINGS.map((s) => [s.key, limitSetting.optional()])),
  monthly_quota: z.strictObject({ base: planNumbers, perUser: planNumbers }).optional(),
}) as unknown as z.ZodType<LimitsFile>;


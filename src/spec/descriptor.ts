/** The target descriptor (spec/target-descriptor.md): how to reach a target. Unknown fields are an error. */
import { z } from 'zod';
import { EDITIONS, DEFAULT_EDITION, RATE_WINDOW_SECONDS } from './limits.js';
import { LimitsFile } from './limits-file.js';
import { NEWEST_VERSION, KNOWN_VERSIONS } from './versions.js';

const BaseDescriptor = z.strictObject({
  name: z.string().min(1),
  uuid: z.string().min(1),
  api_token: z.string().min(1),
});

export const TargetDescriptor = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, '')),
  edition: z.enum(EDITIONS).default(DEFAULT_EDITION),
  api_version: z.string().refine((v) => KNOWN_VERSIONS.includes(v), { message: `a release of §9 (${KNOWN_VERSIONS.join(', ')})` }).default(NEWEST_VERSION),
  username: z.string().min(1).optional(),
  password: z.string().min(1).optional(),
  account_token: z.string().min(1).optional(),
  admin: z.boolean().default(false),
  org_id: z.number().int().nonnegative().optional(),
  workspace_id: z.number().int().nonnegative().optional(),
  bases: z.array(BaseDescriptor).min(1),
  rate_window_seconds: z.number().positive().default(RATE_WINDOW_SECONDS),
  /** A PEM file of the CA that signed the target's certificate, trusted besides the system roots (relative: to the descriptor file). */
  ca_file: z.string().min(1).optional(),
  /** The rate limits the target was configured with (§8.4; the limits file's keys): the rate clauses hold it to these. */
  limits: LimitsFile.optional(),
});

export type TargetDescriptor = z.output<typeof TargetDescriptor>;
export type TargetDescriptorInput = z.input<typeof TargetDescriptor>;

/** The secrets a descriptor carries, for redaction. */
export function descriptorSecrets(d: Partial<TargetDescriptor>): string[] {
  const s = [d.password, d.account_token, ...(d.bases ?? []).map((b) => b.api_token)];
  return s.filter((x): x is string => typeof x === 'string' && x.length > 0);
}

/**
 * What of a run's options `results.json` keeps so that `conformance replay` can run its
 * checks again the same way: the seed, what the target was held to, the selection and the
 * execution options — never a credential (the target's secrets stay in its descriptor; a
 * target given by URL and flags is given again to `replay`).
 */
import { resolve } from 'node:path';
import type { RunOptions } from './options.js';

const REPLAYED = [
  'targetFile',
  'target',
  'embeddedFault',
  'admin',
  'orgId',
  'workspaceId',
  'rateWindow',
  'edition',
  'apiVersion',
  'strict',
  'clauses',
  'grep',
  'seed',
  'transcripts',
  'workers',
  'rateAlongside',
  'sourceIps',
  'webhookUrl',
  'webhookListen',
  'webhookWait',
  'limitsConfig',
  'limitsTargetFile',
  'allowPlanChanges',
  'requestTimeout',
  'maxBodyMb',
  'testTimeout',
] as const satisfies readonly (keyof RunOptions)[];
type Replayed = Partial<Pick<RunOptions, (typeof REPLAYED)[number]>>;

/** Files a replay reads again, from wherever it is started. */
const PATHS = new Set<string>(['targetFile', 'limitsConfig', 'limitsTargetFile']);

export function replayOptions(o: RunOptions): Replayed {
  const out: Record<string, unknown> = {};
  for (const k of REPLAYED) {
    const v = PATHS.has(k) && typeof o[k] === 'string' ? resolve(o[k]) : o[k];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  }
  return out as Replayed;
}

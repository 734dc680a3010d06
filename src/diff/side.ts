/**
 * One side of a diff: a target the harness calls (a descriptor file, or a reference server it
 * starts on loopback), with the state a conformance run would give it — its own table prefix,
 * so each side works in scratch tables of its own.
 */
import { registerSecret } from '../client/redact.js';
import { newRunId } from '../common/run-id.js';
import { readDescriptorFile } from '../common/descriptor-file.js';
import { RunState } from '../harness/state.js';
import { Target } from '../harness/target.js';
import { learnColumnKeys } from './keys.js';
import type { RunningServer } from '../server/index.js';
import { descriptorSecrets, NEWEST_VERSION, RATE_LIMITS, type TargetDescriptor } from '../spec/index.js';

export interface Side {
  /** What the reports call it: the descriptor file, or "reference server". */
  readonly label: string;
  readonly target: Target;
  readonly state: RunState;
  /** The reference server started for it, stopped with the diff. */
  readonly server?: RunningServer;
  /** The column keys its answers have shown, with their columns' names (keys.ts). */
  readonly columnKeys: Map<string, string>;
}

export interface SideOptions {
  allowPlanChanges?: boolean;
  requestTimeoutS?: number;
}

/** The side of a descriptor: its secrets registered for redaction before any call. */
function sideOf(label: string, d: TargetDescriptor, o: SideOptions = {}, server?: RunningServer): Side {
  for (const s of descriptorSecrets(d)) registerSecret(s);
  const timeout = (o.requestTimeoutS ?? 15) * 1000;
  const state = RunState.parse({
    ...newRunId(),
    target: d,
    edition: d.edition,
    apiVersion: d.api_version ?? NEWEST_VERSION,
    http: { connectMs: 5_000, headersMs: timeout, bodyMs: 2 * timeout, maxBodyBytes: 32 * 1024 * 1024 },
    sourceIps: [],
    webhook: { listenHost: '127.0.0.1', listenPort: 0 },
    limits: { source: 'not used by diff', values: { ...RATE_LIMITS[d.edition] } },
    // As `run`: the embedded reference server only, unless the user allows it.
    allowPlanChanges: o.allowPlanChanges ?? !!server,
    transcripts: 'none',
  });
  const target = new Target(state);
  const columnKeys = new Map<string, string>();
  target.observe = learnColumnKeys(columnKeys);
  return { label, target, state, server, columnKeys };
}

export function sideFromFile(file: string, o: SideOptions = {}): Side {
  return sideOf(file, readDescriptorFile(file), o);
}

/** A reference server on loopback (its rate window short, as `run` starts it), with fault switches for mutants. */
export async function referenceSide(
  o: SideOptions & {
    faults?: readonly string[];
    apiVersion?: string;
    edition?: TargetDescriptor['edition'];
    label?: string;
  } = {},
): Promise<Side> {
  const { startServer } = await import('../server/index.js');
  const server = await startServer({
    rateWindowSeconds: 3,
    faults: [...(o.faults ?? [])],
    apiVersion: o.apiVersion,
    edition: o.edition,
  });
  const label = o.label ?? `reference server${o.faults?.length ? ` with ${o.faults.join(', ')}` : ''}`;
  return sideOf(label, server.descriptor, o, server);
}

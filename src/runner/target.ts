/**
 * Which target a run judges: a descriptor file, a URL plus credential flags, or (neither
 * given) the embedded reference server, started in-process with a short rate window.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDescriptor, readDescriptorFile, readLimitsFile } from '../common/descriptor-file.js';
import { readCaFile, type TlsTrust } from '../client/tls.js';
import type { RunningServer } from '../server/index.js';
import {
  EMULATED_VERSIONS,
  isEmulatedVersion,
  LIMIT_SETTINGS,
  type LimitsFile,
  type TargetDescriptor,
  type TargetDescriptorInput,
} from '../spec/index.js';
import { EMBEDDED_RATE_WINDOW, type RunOptions } from './options.js';

export interface ResolvedTarget {
  descriptor: TargetDescriptor;
  embedded: boolean;
  limitsConfig?: { file: string; values: Record<string, number>; target: TargetDescriptor };
  /** The limits the target under test was configured with, and where the harness learnt them (none: its edition's defaults). */
  configuredLimits?: { source: string; file: LimitsFile };
  servers: RunningServer[];
  /** Temporary folders to remove at the end of the run. */
  tempDirs: string[];
}

/** Flags give or override descriptor fields. */
function withFlags(base: Partial<TargetDescriptorInput>, o: RunOptions): TargetDescriptor {
  const bases = o.base?.map((b, i) => {
    const [uuid, api_token, ...name] = b.split(':');
    return { uuid: uuid!, api_token: api_token!, name: name.join(':') || `Base ${i + 1}` };
  });
  const merged: Record<string, unknown> = {
    ...base,
    ...(o.target ? { url: o.target } : {}),
    ...(o.username ? { username: o.username } : {}),
    ...(o.password ? { password: o.password } : {}),
    ...(o.accountToken ? { account_token: o.accountToken } : {}),
    ...(o.admin !== undefined ? { admin: o.admin } : {}),
    ...(o.orgId !== undefined ? { org_id: o.orgId } : {}),
    ...(o.workspaceId !== undefined ? { workspace_id: o.workspaceId } : {}),
    ...(o.rateWindow !== undefined ? { rate_window_seconds: o.rateWindow } : {}),
    ...(bases?.length ? { bases } : {}),
  };
  return parseDescriptor(merged, 'target (flags and descriptor)');
}

/** The descriptor a run with --target or --target-file judges (undefined: the embedded server); throws on a bad one. */
function givenDescriptor(o: RunOptions): TargetDescriptor | undefined {
  if (!o.target && !o.targetFile) return undefined;
  return withFlags(o.targetFile ? readDescriptorFile(o.targetFile) : {}, o);
}

/** Whom the run's clients trust over TLS: --ca-file (or CONFORMANCE_CA_FILE), else the descriptor's `ca_file`; --insecure: nobody is checked. */
export function trustOf(
  o: Pick<RunOptions, 'caFile' | 'insecure'>,
  d: Pick<TargetDescriptor, 'ca_file'> | undefined,
): TlsTrust {
  const caFile = o.caFile ?? d?.ca_file;
  return { insecure: o.insecure, ...(caFile ? { caFile } : {}) };
}

/** Problems with the target options that must stop a run before it starts (usage errors). */
export function checkTargetOptions(o: RunOptions): void {
  const d = givenDescriptor(o);
  const trust = trustOf(o, d);
  if (trust.caFile && !trust.insecure) readCaFile(trust.caFile);
  const credentialFlags = (
    ['username', 'password', 'accountToken', 'base', 'orgId', 'workspaceId', 'admin'] as const
  ).filter((k) => o[k] !== undefined);
  if (!d && credentialFlags.length)
    throw new Error(
      `--${credentialFlags[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --target or --target-file (the embedded server brings its own credentials)`,
    );
  if (d && o.embeddedFault.length) throw new Error('--embedded-fault applies to the embedded reference server only');
  if (!d && o.apiVersion && !isEmulatedVersion(o.apiVersion))
    throw new Error(
      `--api-version ${o.apiVersion}: the embedded reference server emulates ${EMULATED_VERSIONS[0]} … ${EMULATED_VERSIONS.at(-1)}; give a --target for older releases`,
    );
  if (o.limitsConfig) readLimitsFile(o.limitsConfig);
  if (o.limitsTargetFile) readDescriptorFile(o.limitsTargetFile);
  const edition = o.edition ?? d?.edition;
  if (edition === 'cloud' && (d?.limits || (o.limitsConfig && !o.limitsTargetFile)))
    throw new Error(
      'configured limits (--limits-config, a descriptor\'s "limits") apply to the dedicated and self-hosted editions only (§8.4); the run holds the target to cloud',
    );
}

/** Limits for the RATE-7 probe: distinct from every edition's defaults, so a server that ignores the file is caught. */
const PROBE_LIMITS: Record<string, number> = {
  base_api_limit_per_minute: 123,
  account_api_limit_per_minute: 456,
  auth_token_limit_per_minute: 78,
};

/** What a layer above the runner may attach to a run (the runner knows nothing of who does). */
export interface RunHooks {
  /** Called with the embedded reference servers once they listen, before any check runs. */
  onEmbeddedServers?: (servers: RunningServer[]) => void;
}

export async function resolveTarget(o: RunOptions, hooks: RunHooks = {}): Promise<ResolvedTarget> {
  if (o.target || o.targetFile) {
    const descriptor = withFlags(o.targetFile ? readDescriptorFile(o.targetFile) : {}, o);
    let limitsConfig: ResolvedTarget['limitsConfig'];
    let configuredLimits: ResolvedTarget['configuredLimits'] = descriptor.limits
      ? { source: 'the target descriptor\'s "limits"', file: descriptor.limits }
      : undefined;
    if (o.limitsConfig) {
      const file = readLimitsFile(o.limitsConfig);
      limitsConfig = {
        file: o.limitsConfig,
        values: file as Record<string, number>,
        target: o.limitsTargetFile ? readDescriptorFile(o.limitsTargetFile) : descriptor,
      };
      // Without a separate target for it, the limits file is what the target under test runs with.
      if (!o.limitsTargetFile) configuredLimits ??= { source: `the limits file ${o.limitsConfig}`, file };
    }
    return { descriptor, embedded: false, limitsConfig, configuredLimits, servers: [], tempDirs: [] };
  }
  const common = {
    edition: o.edition,
    apiVersion: o.apiVersion,
    rateWindowSeconds: o.rateWindow ?? EMBEDDED_RATE_WINDOW,
    faults: o.embeddedFault ?? [],
  };
  // Loaded only when needed: the server's modules take a second or two to load.
  const { startServer } = await import('../server/index.js');
  const main = await startServer(common);
  const dir = mkdtempSync(join(tmpdir(), 'conformance-limits-'));
  const file = join(dir, 'limits.json');
  writeFileSync(file, JSON.stringify(PROBE_LIMITS, null, 2));
  let probe: RunningServer;
  try {
    probe = await startServer({ ...common, configFile: file });
  } catch (e) {
    await main.close();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  // The layer above may watch the embedded servers (the selftest learns which check reaches which fault).
  hooks.onEmbeddedServers?.([main, probe]);
  const values = Object.fromEntries(LIMIT_SETTINGS.map((s) => [s.key, PROBE_LIMITS[s.key]!]));
  return {
    descriptor: main.descriptor,
    embedded: true,
    limitsConfig: { file, values, target: probe.descriptor },
    servers: [main, probe],
    tempDirs: [dir],
  };
}

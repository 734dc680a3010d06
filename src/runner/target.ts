/**
 * Which target a run judges: a descriptor file, a URL plus credential flags, or (neither
 * given) the embedded reference server, started in-process with a short rate window.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../server/index.js';
import { LIMIT_SETTINGS, TargetDescriptor, type TargetDescriptorInput } from '../spec/index.js';
import type { RunOptions } from './options.js';

export interface ResolvedTarget {
  descriptor: TargetDescriptor;
  embedded: boolean;
  limitsConfig?: { file: string; values: Record<string, number>; target: TargetDescriptor };
  servers: RunningServer[];
}

function parseDescriptor(raw: unknown, where: string): TargetDescriptor {
  const r = TargetDescriptor.safeParse(raw);
  if (!r.success) throw new Error(`${where}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return r.data;
}

function readDescriptor(file: string): TargetDescriptor {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`target descriptor ${file}: ${(e as Error).message}`);
  }
  return parseDescriptor(raw, `target descriptor ${file}`);
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

/** Limits for the RATE-7 probe: distinct from every edition's defaults, so a server that ignores the file is caught. */
const PROBE_LIMITS: Record<string, number> = { base_api_limit_per_minute: 123, account_api_limit_per_minute: 456, auth_token_limit_per_minute: 78 };

export async function resolveTarget(o: RunOptions): Promise<ResolvedTarget> {
  if (o.target || o.targetFile) {
    const descriptor = withFlags(o.targetFile ? readDescriptor(o.targetFile) : {}, o);
    let limitsConfig: ResolvedTarget['limitsConfig'];
    if (o.limitsConfig) {
      const values = JSON.parse(readFileSync(o.limitsConfig, 'utf8')) as Record<string, number>;
      limitsConfig = { file: o.limitsConfig, values, target: o.limitsTargetFile ? readDescriptor(o.limitsTargetFile) : descriptor };
    }
    return { descriptor, embedded: false, limitsConfig, servers: [] };
  }
  const common = { edition: o.edition, apiVersion: o.apiVersion, rateWindowSeconds: o.embeddedWindow };
  const main = await startServer(common);
  const dir = mkdtempSync(join(tmpdir(), 'conformance-limits-'));
  const file = join(dir, 'limits.json');
  writeFileSync(file, JSON.stringify(PROBE_LIMITS, null, 2));
  const probe = await startServer({ ...common, configFile: file });
  const values = Object.fromEntries(LIMIT_SETTINGS.map((s) => [s.key, PROBE_LIMITS[s.key]!]));
  return { descriptor: main.descriptor, embedded: true, limitsConfig: { file, values, target: probe.descriptor }, servers: [main, probe] };
}

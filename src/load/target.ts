/**
 * The target of a load run: a descriptor file, a URL (any http(s) host: load is planned for
 * real deployments; the run announces where it sends what, see announce.ts), or — neither
 * given — the reference server started on loopback for the run, in a child process (without
 * limits for the capacity scenario).
 */
import { z } from 'zod';
import { parseDescriptor, readDescriptorFile } from '../common/descriptor-file.js';
import { readJsonFile } from '../common/json-file.js';
import { startChildServer } from './server-child.js';
import { TargetDescriptor, descriptorSecrets } from '../spec/descriptor.js';
import { registerSecret } from '../client/redact.js';

interface LoadTarget {
  descriptor: TargetDescriptor;
  /** Started for this run; closed by `close()`. */
  embedded: boolean;
  close(): Promise<void>;
}

interface TargetRequest {
  url?: string;
  file?: string;
  /** Self-started server: window length (s), no limits, extra environment (limit overrides). */
  windowSeconds?: number;
  unlimited?: boolean;
  serverEnv?: Record<string, string>;
}

export async function resolveTarget(req: TargetRequest): Promise<LoadTarget> {
  let descriptor: TargetDescriptor;
  if (req.file) {
    descriptor = readDescriptorFile(req.file, req.url ? { url: req.url } : {});
  } else if (req.url) {
    // A bare URL: scenarios that need bases or an account token will say so.
    descriptor = TargetDescriptor.parse({
      url: req.url,
      bases: [{ name: 'unknown', uuid: 'unknown', api_token: 'unknown' }],
    });
    descriptor.bases = [];
  } else {
    const srv = await startChildServer({
      rateWindowSeconds: req.windowSeconds ?? 5,
      unlimited: req.unlimited ?? false,
      env: req.serverEnv ?? {},
    });
    for (const s of descriptorSecrets(srv.descriptor)) registerSecret(s);
    return { descriptor: srv.descriptor, embedded: true, close: () => srv.close() };
  }
  for (const s of descriptorSecrets(descriptor)) registerSecret(s);
  return { descriptor, embedded: false, close: async () => undefined };
}

/** The environment a script reads its target from (`__ENV.TARGET`): secrets included, never written to a report. */
export function targetEnv(d: TargetDescriptor): Record<string, string> {
  const t = {
    url: d.url,
    edition: d.edition,
    api_version: d.api_version,
    account_token: d.account_token,
    bases: d.bases,
    rate_window_seconds: d.rate_window_seconds,
  };
  return { TARGET: JSON.stringify(t) };
}

/** A placeholder where a descriptor has no secret: options are computed from a target's shape, never its credentials. */
const NOT_GIVEN = 'not-given';

/**
 * The target as a script's options see it, for `load merge`: the same descriptor (or URL) the
 * instances ran with, but its secrets may be left out — a base needs only its name and uuid.
 */
export function targetForOptions(req: { url?: string; file?: string }): Record<string, string> {
  if (!req.file) return req.url ? { TARGET: JSON.stringify({ url: req.url, bases: [] }) } : {};
  const raw = readJsonFile(req.file, z.record(z.string(), z.unknown()), 'target descriptor');
  const bases = Array.isArray(raw.bases)
    ? raw.bases.map((b) => ({ api_token: NOT_GIVEN, ...(b as Record<string, unknown>) }))
    : raw.bases;
  return targetEnv(
    parseDescriptor({ ...raw, bases, ...(req.url ? { url: req.url } : {}) }, `target descriptor ${req.file}`),
  );
}

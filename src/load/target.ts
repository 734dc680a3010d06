/**
 * The target of a load run: a descriptor file, a URL, or — neither given — the reference
 * server started on loopback for the run, in a child process (without limits for the
 * capacity scenario). Only
 * loopback targets are accepted unless `allowRemote` is set by the caller.
 */
import { readDescriptorFile } from '../common/descriptor-file.js';
import { isLoopbackUrl } from '../common/net.js';
import { startChildServer } from './server-child.js';
import { TargetDescriptor, descriptorSecrets } from '../spec/descriptor.js';
import { registerSecret } from '../client/redact.js';

export interface LoadTarget {
  descriptor: TargetDescriptor;
  /** Started for this run; closed by `close()`. */
  embedded: boolean;
  close(): Promise<void>;
}

export interface TargetRequest {
  url?: string;
  file?: string;
  /** Self-started server: window length (s), no limits, extra environment (limit overrides). */
  windowSeconds?: number;
  unlimited?: boolean;
  serverEnv?: Record<string, string>;
  allowRemote?: boolean;
}

export async function resolveTarget(req: TargetRequest): Promise<LoadTarget> {
  let descriptor: TargetDescriptor;
  if (req.file) {
    descriptor = readDescriptorFile(req.file, req.url ? { url: req.url } : {});
  } else if (req.url) {
    // A bare URL: scenarios that need bases or an account token will say so.
    descriptor = TargetDescriptor.parse({ url: req.url, bases: [{ name: 'unknown', uuid: 'unknown', api_token: 'unknown' }] });
    descriptor.bases = [];
  } else {
    const srv = await startChildServer({ rateWindowSeconds: req.windowSeconds ?? 5, unlimited: req.unlimited ?? false, env: req.serverEnv ?? {} });
    for (const s of descriptorSecrets(srv.descriptor)) registerSecret(s);
    return { descriptor: srv.descriptor, embedded: true, close: () => srv.close() };
  }
  if (!req.allowRemote && !isLoopbackUrl(descriptor.url)) {
    throw new Error(`load targets loopback only (127.0.0.0/8, localhost, [::1]); ${descriptor.url} is not`);
  }
  for (const s of descriptorSecrets(descriptor)) registerSecret(s);
  return { descriptor, embedded: false, close: async () => undefined };
}

/** The environment a script reads its target from (`__ENV.TARGET`): secrets included, never written to a report. */
export function targetEnv(d: TargetDescriptor): Record<string, string> {
  const t = { url: d.url, edition: d.edition, api_version: d.api_version, account_token: d.account_token, bases: d.bases, rate_window_seconds: d.rate_window_seconds };
  return { TARGET: JSON.stringify(t) };
}

/**
 * The team logo as checks see it (ACCT-5) and as the route probes must leave it (ROUTE-2
 * probes DELETE and POST org-logo/ on a real team: they put the original back).
 */
import { restored } from './restore.js';
import type { Reply, Target } from './target.js';
import { warnState } from './verdict.js';

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export interface Logo {
  path?: string;
  bytes?: Buffer;
  status: number;
}

const nonEmpty = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
const isImage = (r: Reply) =>
  r.status === 200 && r.res.body.length > 0 && !/json|html|text/i.test(r.header('content-type') ?? '');

/** The team logo as GET shows it: its path (JSON answer) and, where the target serves them, its bytes. */
export async function readLogo(target: Target, at: string): Promise<Logo> {
  const r = await target.call({ path: at, auth: 'account', expect: [404] });
  const body = r.status === 200 && /json/i.test(r.header('content-type') ?? '') ? obj(r.json()) : {};
  const logo: Logo = {
    status: r.status,
    path: nonEmpty(body.logo_path) ?? nonEmpty(body.logo_url) ?? nonEmpty(body.url),
  };
  if (isImage(r)) logo.bytes = r.res.body;
  const tries: { path: string; auth: 'account' | 'none' }[] = [{ path: at, auth: 'account' }];
  if (logo.path) {
    if (/^https?:\/\//.test(logo.path)) tries.push({ path: logo.path, auth: 'none' });
    else
      tries.push(
        { path: `/media/${logo.path.replace(/^\/+/, '')}`, auth: 'none' },
        { path: `/${logo.path.replace(/^\/+/, '')}`, auth: 'none' },
      );
  }
  for (const t of tries) {
    if (logo.bytes) break;
    const img = await target.call({ ...t, headers: { accept: 'image/png, image/*' }, expect: [401, 403, 404, 406] });
    if (isImage(img)) logo.bytes = img.res.body;
  }
  return logo;
}

export const hasLogo = (l: Logo) => !!l.path || !!l.bytes;
export const extOf = (b: Buffer) => (b[0] === 0x89 ? 'png' : b[0] === 0x47 ? 'gif' : 'jpg');

export async function uploadLogo(target: Target, at: string, bytes: Buffer, ext = 'png'): Promise<Reply> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([bytes], { type: ext === 'jpg' ? 'image/jpeg' : `image/${ext}` }),
    `conformance-logo.${ext}`,
  );
  return target.call({ method: 'POST', path: at, auth: 'account', multipart: form });
}

/** Put a logo read by `readLogo` back; what cannot be put back is a run-level warning (src/harness/restore.ts). */
export async function restoreLogo(target: Target, at: string, original: Logo): Promise<void> {
  if (original.bytes)
    await restored('the team logo put back', () => uploadLogo(target, at, original.bytes!, extOf(original.bytes!)));
  else if (!hasLogo(original))
    await restored(
      'the team logo removed again (the team had none)',
      () => target.call({ method: 'DELETE', path: at, auth: 'account', expect: [404] }),
      (r) => r.status < 300 || r.status === 404,
    );
  else warnState(`the team had a logo (${original.path}) whose bytes could not be read: it was not put back`);
}
